package io.sqlagent.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;

class BrowseToolsTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    private final ToolRegistry registry = new ToolRegistry();
    private ToolExecutor executor;

    @BeforeEach
    void registerTools() {
        registry.register(new BrowseTools(registry, new io.sqlagent.tool.ToolScopes(registry)));
        for (String[] tool : new String[][] {
                { "run_sql", "Execute a SQL query against the database. Only SELECT is allowed." },
                { "introspect_schema", "Get detailed schema information about database tables." },
                { "read_file", "Read a text file from an allowed directory." } }) {
            FakeTool fake = FakeTool.returning(tool[0], 1);
            registry.register(new ToolRegistration(new ToolDescriptor(tool[0], tool[1], fake.descriptor().parameters(),
                    Optional.empty(), Optional.empty(), ToolMetadata.titled(tool[0])), () -> {
                        throw new AssertionError("browse_tools built " + tool[0]);
                    }));
        }
        executor = new ToolExecutor(registry, List.of(), List.of(), List.of(), ExecutorOptions.defaults());
    }

    private ToolResult browse(String arguments) throws Exception {
        ToolCall call = new ToolCall("1", "browse_tools", (ObjectNode) SnakeCaseJson.MAPPER.readTree(arguments));
        return executor.execute(call, ToolCallContext.of("agent")).await().atMost(WAIT).result();
    }

    @Test
    void listsEveryToolByNameAndSummaryWithoutBuildingThem() throws Exception {
        JsonNode value = ((ToolResult.Success) browse("{\"action\":\"list\"}")).value();

        assertEquals(4, value.path("count").asInt());
        assertEquals("Execute a SQL query against the database.", value.at("/tools/3/summary").asText());
        assertFalse(value.at("/tools/3").has("parameters"));
        assertFalse(registry.isBuilt("run_sql"));
    }

    @Test
    void searchFindsToolsByWhatTheyDo() throws Exception {
        JsonNode value = ((ToolResult.Success) browse("{\"action\":\"search\",\"query\":\"schema tables\",\"limit\":1}"))
                .value();

        assertEquals(1, value.path("count").asInt());
        assertEquals("introspect_schema", value.at("/tools/0/name").asText());
    }

    @Test
    void helpGivesTheFullDescriptor() throws Exception {
        JsonNode value = ((ToolResult.Success) browse("{\"action\":\"help\",\"name\":\"run_sql\"}")).value();

        assertEquals("run_sql", value.path("name").asText());
        assertEquals("object", value.at("/parameters/type").asText());
        assertFalse(registry.isBuilt("run_sql"));
    }

    @Test
    void missingOrWrongInputsAreFailuresTheModelCanFix() throws Exception {
        ToolResult.Failure noName = (ToolResult.Failure) browse("{\"action\":\"help\"}");
        ToolResult.Failure unknown = (ToolResult.Failure) browse("{\"action\":\"help\",\"name\":\"drop_db\"}");
        ToolResult.Failure badAction = (ToolResult.Failure) browse("{\"action\":\"delete\"}");

        assertEquals("action=help needs the name of a tool", noName.message());
        assertEquals("No tool is named 'drop_db'; use action=list or action=search to find one", unknown.message());
        assertEquals(Outcome.INVALID_ARGUMENTS, badAction.outcome());
        assertTrue(badAction.details().get(0).problem().startsWith("must be one of: list, search, help"),
                badAction.details().toString());
    }
}
