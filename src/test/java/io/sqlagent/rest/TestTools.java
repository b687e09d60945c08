package io.sqlagent.rest;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.smallrye.mutiny.Uni;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.tool.BeforeToolHook;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolStopException;
import io.sqlagent.tool.TypedTool;

/** Tools and a hook that exist only in tests, registered through CDI like real ones. */
final class TestTools {

    private TestTools() {
    }

    enum Tone {
        CALM,
        LOUD
    }

    /** A trivial tool with a five-property schema. */
    @Singleton
    @ToolDefinition(name = "test_echo", description = "Repeats a text. For tests.", readOnly = true, tags = "test")
    static class Echo extends TypedTool<Echo.Arguments> {
        record Arguments(
                @Param(description = "What to repeat", minLength = 1, maxLength = 100) String text,
                @Param(description = "How often", minimum = 1, maximum = 5, defaultValue = "1") Optional<Integer> times,
                @Param(description = "Upper-case it") Optional<Boolean> shout,
                @Param(description = "Tone") Optional<Tone> tone,
                @Param(description = "Labels", maxItems = 3) Optional<List<String>> tags) {
        }

        @Override
        protected Uni<?> run(Arguments arguments, ToolCallContext context) {
            String text = arguments.text().repeat(arguments.times().orElse(1));
            return Uni.createFrom().item(Map.of("text", arguments.shout().orElse(false) ? text.toUpperCase() : text));
        }
    }

    @Singleton
    @ToolDefinition(name = "test_failing", description = "Always fails. For tests.")
    static class Failing extends TypedTool<Failing.Arguments> {
        record Arguments() {
        }

        @Override
        protected Uni<?> run(Arguments arguments, ToolCallContext context) {
            return Uni.createFrom().failure(new IllegalStateException("connection to backend lost"));
        }
    }

    @Singleton
    @ToolDefinition(name = "test_guarded", description = "Blocked by the test policy over REST. For tests.")
    static class Guarded extends TypedTool<Failing.Arguments> {
        @Override
        protected Uni<?> run(Failing.Arguments arguments, ToolCallContext context) {
            return Uni.createFrom().item(Map.of("ran", true));
        }
    }

    @Singleton
    @ToolDefinition(name = "test_audited", description = "Asks for its arguments to be audited. For tests.", auditArguments = true)
    static class Audited extends TypedTool<Audited.Arguments> {
        record Arguments(@Param(description = "A note") String note) {
        }

        @Override
        protected Uni<?> run(Arguments arguments, ToolCallContext context) {
            return Uni.createFrom().item(Map.of("noted", arguments.note()));
        }
    }

    @Singleton
    @ToolDefinition(name = "test_stop", description = "Stops the run. For tests.")
    static class Stop extends TypedTool<Failing.Arguments> {
        @Override
        protected Uni<?> run(Failing.Arguments arguments, ToolCallContext context) {
            throw new ToolStopException("enough for today");
        }
    }

    /** Blocks test_guarded for REST callers. */
    @Singleton
    static class Policy implements BeforeToolHook {
        @Override
        public Uni<Decision> before(ToolCall call, ToolDescriptor descriptor, ToolCallContext context) {
            return descriptor.name().equals("test_guarded") && context.caller().equals("rest")
                    ? BeforeToolHook.block("test_guarded may not be called over REST")
                    : BeforeToolHook.proceed(call);
        }
    }
}
