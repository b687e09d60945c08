package io.sqlagent.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Param;

class TypedToolTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    @ToolDefinition(name = "search_knowledge", title = "Search knowledge", namespace = "knowledge", tags = { "knowledge",
            "search" }, readOnly = true, description = "Search saved query patterns and learnings. Ranked by relevance.", returns = "{\"total_found\": n}")
    static class SearchTool extends TypedTool<SearchTool.Arguments> {
        enum Kind {
            ALL,
            PATTERNS,
            LEARNINGS
        }

        record Arguments(
                @Param(description = "What to look for", minLength = 1, maxLength = 200) String query,
                @Param(description = "Which kind of knowledge", defaultValue = "\"all\"") Optional<Kind> type,
                @Param(description = "How many results", minimum = 1, maximum = 20, defaultValue = "5") Optional<Integer> limit,
                @Param(description = "Tables to restrict to") Optional<List<String>> tablesUsed) {
        }

        @Override
        protected Uni<?> run(Arguments arguments, ToolCallContext context) {
            return Uni.createFrom().item(new Answer(arguments.query(), arguments.type().orElse(Kind.ALL).name(),
                    arguments.limit().orElse(5), arguments.tablesUsed().orElse(List.of()), Thread.currentThread().getName()));
        }

        record Answer(String query, String kind, int limit, List<String> tablesUsed, String thread) {
        }
    }

    @ToolDefinition(name = "slow_io", description = "Blocks.", blocking = true)
    static class BlockingTool extends TypedTool<BlockingTool.Arguments> {
        record Arguments() {
        }

        @Override
        protected Uni<?> run(Arguments arguments, ToolCallContext context) {
            return Uni.createFrom().item(() -> Map.of("thread", Thread.currentThread().getName()));
        }
    }

    static class Unannotated extends TypedTool<BlockingTool.Arguments> {
        @Override
        protected Uni<?> run(BlockingTool.Arguments arguments, ToolCallContext context) {
            return Uni.createFrom().nullItem();
        }
    }

    @Test
    void theDescriptorComesFromTheAnnotationAndTheRecord() {
        ToolDescriptor descriptor = TypedTool.describe(SearchTool.class);

        assertEquals("search_knowledge", descriptor.name());
        assertEquals("Search saved query patterns and learnings.", descriptor.summary());
        assertEquals(Optional.of("knowledge"), descriptor.metadata().namespace());
        assertTrue(descriptor.metadata().readOnly());
        JsonNode properties = descriptor.parameters().path("properties");
        assertEquals(List.of("query", "type", "limit", "tables_used"), names(properties));
        assertEquals("[\"query\"]", descriptor.parameters().path("required").toString());
        assertEquals(20, properties.at("/limit/maximum").asInt());
        assertEquals("How many results", properties.at("/limit/description").asText());
        assertEquals("[\"all\",\"patterns\",\"learnings\"]", properties.at("/type/enum").toString());
        assertEquals(false, descriptor.parameters().path("additionalProperties").asBoolean(true));
    }

    @Test
    void argumentsArriveBoundAndTheResultIsSnakeCaseJson() {
        SearchTool tool = new SearchTool();
        ObjectNode arguments = SnakeCaseJson.MAPPER.createObjectNode().put("query", "revenue").put("type", "patterns").put(
                "limit",
                3);
        arguments.putArray("tables_used").add("invoice");

        ToolResult result = tool.invoke(new ToolCall("1", "search_knowledge", arguments), ToolCallContext.of("test"))
                .await().atMost(WAIT);

        JsonNode value = ((ToolResult.Success) result).value();
        assertEquals("revenue", value.path("query").asText());
        assertEquals("PATTERNS", value.path("kind").asText());
        assertEquals(3, value.path("limit").asInt());
        assertEquals("[\"invoice\"]", value.path("tables_used").toString());
    }

    @Test
    void aNumberTheRecordCannotHoldIsAnInvalidArgumentNeverAWrappedValue() {
        // The schema allows any 64-bit integer; limit is an int: 2^32 + 3 would be bound as 3.
        ObjectNode arguments = SnakeCaseJson.MAPPER.createObjectNode().put("query", "revenue").put("limit", 4294967299L);

        ToolResult result = new SearchTool()
                .invoke(new ToolCall("1", "search_knowledge", arguments), ToolCallContext.of("test"))
                .await().atMost(WAIT);

        ToolResult.Failure failure = (ToolResult.Failure) result;
        assertEquals(Outcome.INVALID_ARGUMENTS, failure.outcome());
        assertEquals("limit", failure.details().get(0).argument());
        assertTrue(
                failure.details().get(0).problem()
                        .startsWith("is out of range (Numeric value (4294967299) out of range of int"),
                failure.details().get(0).problem());
    }

    @Test
    void aBlockingToolRunsOnAWorkerThread() {
        ToolResult result = new BlockingTool().invoke(new ToolCall("1", "slow_io", SnakeCaseJson.MAPPER.createObjectNode()),
                ToolCallContext.of("test")).await().atMost(WAIT);

        String thread = ((ToolResult.Success) result).value().path("thread").asText();
        org.junit.jupiter.api.Assertions.assertNotEquals(Thread.currentThread().getName(), thread,
                "ran on the caller's thread");
    }

    @Test
    void aTypedToolWithoutItsAnnotationIsRefused() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> TypedTool.describe(Unannotated.class));

        assertTrue(error.getMessage().endsWith("extends TypedTool but has no @ToolDefinition"), error.getMessage());
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
