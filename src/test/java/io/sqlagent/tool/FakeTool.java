package io.sqlagent.tool;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;

/**
 * A tool for tests: a fixed or computed result, an optional schema, metadata and delay, and a
 * record of every call it received.
 */
public final class FakeTool implements Tool {

    private final ToolDescriptor descriptor;
    private final Function<ObjectNode, Object> handler;
    private final Duration delay;
    private final List<ToolCall> calls = new CopyOnWriteArrayList<>();

    private FakeTool(ToolDescriptor descriptor, Function<ObjectNode, Object> handler, Duration delay) {
        this.descriptor = descriptor;
        this.handler = handler;
        this.delay = delay;
    }

    /** A tool that always returns {@code value}, accepting any arguments. */
    public static FakeTool returning(String name, Object value) {
        return computing(name, arguments -> value);
    }

    /** A tool whose result is computed from its arguments; the handler may throw. */
    public static FakeTool computing(String name, Function<ObjectNode, Object> handler) {
        ObjectNode schema = SnakeCaseJson.MAPPER.createObjectNode().put("type", "object");
        schema.putObject("properties");
        return new FakeTool(new ToolDescriptor(name, "Fake tool " + name + ". For tests.", schema, Optional.empty(),
                Optional.empty(), ToolMetadata.titled(name)), handler, Duration.ZERO);
    }

    /** The same tool with another argument schema. */
    public FakeTool withSchema(ObjectNode schema) {
        return new FakeTool(new ToolDescriptor(descriptor.name(), descriptor.description(), schema, descriptor.returns(),
                descriptor.usage(), descriptor.metadata()), handler, delay);
    }

    /** The same tool with other metadata. */
    public FakeTool withMetadata(ToolMetadata metadata) {
        return new FakeTool(new ToolDescriptor(descriptor.name(), descriptor.description(), descriptor.parameters(),
                descriptor.returns(), descriptor.usage(), metadata), handler, delay);
    }

    /** The same tool, answering after {@code newDelay}. */
    public FakeTool withDelay(Duration newDelay) {
        return new FakeTool(descriptor, handler, newDelay);
    }

    /** The calls this instance received, in order. */
    public List<ToolCall> calls() {
        return calls;
    }

    @Override
    public ToolDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public Uni<ToolResult> invoke(ToolCall call, ToolCallContext context) {
        calls.add(call);
        Uni<ToolResult> result = Uni.createFrom()
                .item(() -> ToolResult.success(SnakeCaseJson.MAPPER.valueToTree(handler.apply(call.arguments()))));
        return delay.isZero() ? result : result.onItem().delayIt().by(delay);
    }

    /** A schema object from a map literal, for tests. */
    public static ObjectNode schema(Map<String, Object> schema) {
        return SnakeCaseJson.MAPPER.valueToTree(schema);
    }
}
