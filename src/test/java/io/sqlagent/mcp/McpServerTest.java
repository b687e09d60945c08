package io.sqlagent.mcp;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkiverse.mcp.server.test.McpAssured.ToolInfo;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.audit.AuditLog;
import io.sqlagent.audit.AuditRows;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolRegistry;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;

/**
 * A real MCP client session over streamable HTTP against the running service: the built-in tools
 * and the test tools of {@code io.sqlagent.rest.TestTools}, on the Chinook test database.
 */
@QuarkusTest
@ScriptedModel
class McpServerTest {

    @Inject
    ToolRegistry registry;

    @Inject
    AuditLog auditLog;

    @Inject
    Pool store;

    @Test
    void initializeAnnouncesToolsThatMayChange() {
        McpStreamableTestClient client = McpAssured.newStreamableClient().build().connect(init -> {
            var tools = init.capabilities().stream().filter(c -> c.name().equals("tools")).findFirst().orElseThrow();
            assertEquals(true, tools.properties().get("listChanged"));
        });
        client.disconnect();
    }

    @Test
    void listsEveryRegistryToolWithItsExactSchemaTitleAndHints() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        client.when().toolsList(page -> {
            Set<String> names = page.tools().stream().map(ToolInfo::name).collect(Collectors.toSet());
            Set<String> registered = registry.list().stream().map(ToolDescriptor::name).collect(Collectors.toSet());
            assertEquals(registered, names);
            assertTrue(names.containsAll(List.of("run_sql", "introspect_schema", "search_knowledge", "save_learning",
                    "save_validated_query", "browse_tools", "test_echo")), names.toString());

            ToolInfo runSql = page.findByName("run_sql");
            ToolDescriptor descriptor = registry.descriptor("run_sql").orElseThrow();
            assertEquals(new JsonObject(descriptor.parameters().toString()), runSql.inputSchema());
            assertEquals(List.of("sql"), runSql.inputSchema().getJsonArray("required").getList());
            assertEquals("Run SQL", runSql.title());
            assertEquals(descriptor.description(), runSql.description());
            var hints = runSql.annotations().orElseThrow();
            assertTrue(hints.readOnlyHint());
            assertFalse(hints.destructiveHint());
            assertFalse(hints.openWorldHint());

            // Ranges, enums and limits reach the client as they are, not re-derived.
            JsonObject echo = page.findByName("test_echo").inputSchema();
            assertEquals(5, echo.getJsonObject("properties").getJsonObject("times").getInteger("maximum"));
            assertEquals(new JsonObject(registry.descriptor("test_echo").orElseThrow().parameters().toString()), echo);

            var saveHints = page.findByName("save_learning").annotations().orElseThrow();
            assertEquals(registry.descriptor("save_learning").orElseThrow().metadata().readOnly(), saveHints.readOnlyHint());
            assertEquals(!saveHints.readOnlyHint(), saveHints.destructiveHint());
        }).thenAssertResults();
        client.disconnect();
    }

    @Test
    void runSqlAnswersWithRowsAsTextAndStructuredContent() throws Exception {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        ToolResponse response = call(client, "run_sql", Map.of("sql", "SELECT count(*) AS n FROM track"));

        assertFalse(response.isError());
        var text = SnakeCaseJson.MAPPER.readTree(text(response));
        assertEquals(3503, text.at("/rows/0/n").asInt());
        assertEquals(1, text.path("row_count").asInt());
        JsonObject structured = (JsonObject) response.structuredContent();
        assertEquals(3503, structured.getJsonArray("rows").getJsonObject(0).getInteger("n"));
        client.disconnect();
    }

    @Test
    void columnsThatShareANameAndExactNumbersReachAnMcpClient() throws Exception {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        ToolResponse response = call(client, "run_sql", Map.of("sql",
                "SELECT ar.name, t.name, 270::numeric AS amount FROM artist ar JOIN album al USING (artist_id) "
                        + "JOIN track t USING (album_id) ORDER BY t.track_id LIMIT 1"));

        assertFalse(response.isError());
        String text = text(response);
        assertTrue(text.contains("\"rows\":[{\"name\":\"AC/DC\",\"name_2\":\"For Those About To Rock (We Salute You)\","
                + "\"amount\":270}]"), text);
        JsonObject structured = (JsonObject) response.structuredContent();
        assertEquals(List.of("name", "name_2", "amount"), structured.getJsonArray("columns").stream()
                .map(column -> ((JsonObject) column).getString("key")).toList());
        assertEquals("For Those About To Rock (We Salute You)",
                structured.getJsonArray("rows").getJsonObject(0).getString("name_2"));
        client.disconnect();
    }

    @Test
    void anIntegerBeyond64BitsIsAnInvalidArgumentNeverAWrappedOne() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();

        // 2^64 + 1 would be bound as invoice 1.
        ToolResponse wrapped = call(client, "invoice_lines",
                Map.of("invoice_id", new java.math.BigInteger("18446744073709551617")));

        assertTrue(wrapped.isError());
        assertTrue(text(wrapped).contains("invoice_id must be an integer from -9223372036854775808 to 9223372036854775807"),
                text(wrapped));
        client.disconnect();
    }

    @Test
    void invalidArgumentsAreAToolErrorNamingEveryArgument() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();

        ToolResponse echo = call(client, "test_echo", Map.of("times", 9, "tone", "angry", "colour", "red"));
        assertTrue(echo.isError());
        String message = text(echo);
        assertTrue(message.startsWith("Invalid arguments for tool 'test_echo': "), message);
        for (String argument : List.of("text is required", "times must be at most 5 (got 9)", "tone", "colour")) {
            assertTrue(message.contains(argument), message);
        }
        JsonObject error = (JsonObject) echo.structuredContent();
        assertEquals("invalid_arguments", error.getString("error"));
        assertEquals(List.of("text", "times", "tone", "colour"),
                error.getJsonArray("details").stream().map(d -> ((JsonObject) d).getString("argument")).toList());

        ToolResponse noSql = call(client, "run_sql", Map.of());
        assertTrue(noSql.isError());
        assertTrue(text(noSql).contains("sql is required"), text(noSql));

        ToolResponse wrongType = call(client, "run_sql", Map.of("sql", 42));
        assertTrue(wrongType.isError());
        assertTrue(text(wrongType).startsWith("Invalid arguments for tool 'run_sql': sql "),
                text(wrongType));
        client.disconnect();
    }

    @Test
    void aRefusedStatementIsAToolErrorWithTheReasonAndChangesNothing() throws Exception {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();

        ToolResponse refused = call(client, "run_sql", Map.of("sql", "DELETE FROM track"));
        assertTrue(refused.isError());
        String reason = text(refused);
        assertTrue(reason.contains("DELETE"), reason);
        assertEquals("blocked", ((JsonObject) refused.structuredContent()).getString("error"));

        assertEquals(3503, trackCount(client));
        client.disconnect();
    }

    @Test
    void aSqlErrorIsAToolErrorWithPostgresMessage() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        ToolResponse response = call(client, "run_sql", Map.of("sql", "SELECT nme FROM artist"));
        assertTrue(response.isError());
        String message = text(response);
        assertTrue(message.contains("column \"nme\" does not exist"), message);
        client.disconnect();
    }

    @Test
    void aFailingToolIsAToolErrorWithoutAStackTrace() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        ToolResponse response = call(client, "test_failing", Map.of());
        assertTrue(response.isError());
        String message = text(response);
        assertTrue(
                message.startsWith("Tool 'test_failing' failed (IllegalStateException: connection to backend lost) [error id "),
                message);
        assertFalse(message.contains("\tat "), message);
        client.disconnect();
    }

    @Test
    void aStoppingToolAnswersWithItsReason() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        ToolResponse response = call(client, "test_stop", Map.of());
        assertFalse(response.isError());
        assertEquals("The tool ended the run: enough for today", text(response));
        client.disconnect();
    }

    @Test
    void anUnknownToolIsAnInvalidParamsErrorNamingIt() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        client.when().toolsCall("no_such_tool").withArguments(Map.of()).withErrorAssert(error -> {
            assertEquals(-32602, error.code());
            assertEquals("Invalid tool name: no_such_tool", error.message());
        }).send().thenAssertResults();
        client.disconnect();
    }

    @Test
    void callsAreMeteredAndAuditedAsCallerMcp() throws Exception {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        call(client, "test_audited", Map.of("note", "from mcp"));
        call(client, "test_failing", Map.of());
        client.disconnect();

        String metrics = given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("sqlagent_tool_calls_total{caller=\"mcp\",outcome=\"success\",tool=\"test_audited\""),
                metrics);
        assertTrue(metrics.contains("sqlagent_tool_calls_total{caller=\"mcp\",outcome=\"failure\",tool=\"test_failing\""),
                metrics);
        assertFalse(metrics.contains("mcp_server_requests"), "the library's per-name timers are left out");

        Row audited = AuditRows.await(auditLog, store, "test_audited", "caller = 'mcp'");
        assertEquals("success", audited.getString("outcome"));
        assertEquals("from mcp", audited.getJsonObject("arguments").getString("note"));
        assertTrue(audited.getString("call_id").startsWith("mcp-"), audited.getString("call_id"));
    }

    @Test
    void aNullOptionalArgumentCountsAsLeftOut() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("query", "genre revenue");
        arguments.put("limit", null);

        ToolResponse response = call(client, "search_knowledge", arguments);

        assertFalse(response.isError(), text(response));
        assertTrue(text(response).contains("revenue_by_genre"));
        client.disconnect();
    }

    @Test
    void aNullRequiredArgumentIsReportedMissing() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("sql", null);

        ToolResponse response = call(client, "run_sql", arguments);

        assertTrue(response.isError());
        assertEquals("Invalid arguments for tool 'run_sql': sql is required", text(response));
        client.disconnect();
    }

    @Test
    void malformedCallsAreInvalidParamsErrorsSayingWhatIsWrong() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();

        JsonObject textArguments = client.newRequest("tools/call");
        textArguments.put("params", new JsonObject().put("name", "run_sql").put("arguments", "SELECT 1"));
        client.when().message(textArguments).withErrorAssert(error -> {
            assertEquals(-32602, error.code());
            assertEquals("params.arguments of tools/call must be a JSON object of arguments", error.message());
        }).send().thenAssertResults();

        JsonObject noName = client.newRequest("tools/call");
        noName.put("params", new JsonObject().put("arguments", new JsonObject()));
        client.when().message(noName).withErrorAssert(error -> {
            assertEquals(-32602, error.code());
            assertEquals("tools/call needs params.name, the name of the tool to call", error.message());
        }).send().thenAssertResults();

        JsonObject noParams = client.newRequest("tools/call");
        client.when().message(noParams).withErrorAssert(error -> assertEquals("Missing required params", error.message()))
                .send().thenAssertResults();

        // Without arguments at all a call has none: here that means a missing required one.
        JsonObject noArguments = client.newRequest("tools/call");
        noArguments.put("params", new JsonObject().put("name", "run_sql"));
        client.when().message(noArguments).withAssert(answer -> {
            assertTrue(answer.getJsonObject("result").getBoolean("isError"));
            assertEquals("Invalid arguments for tool 'run_sql': sql is required",
                    answer.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
        }).send().thenAssertResults();
        client.disconnect();
    }

    /** The text of a result's first content: the JSON result, or the error message. */
    static String text(ToolResponse response) {
        return response.firstContent().asText().text();
    }

    private static int trackCount(McpStreamableTestClient client) throws Exception {
        ToolResponse response = call(client, "run_sql", Map.of("sql", "SELECT count(*) AS n FROM track"));
        assertFalse(response.isError(), text(response));
        return SnakeCaseJson.MAPPER.readTree(text(response)).at("/rows/0/n").asInt();
    }

    static ToolResponse call(McpStreamableTestClient client, String tool, Map<String, Object> arguments) {
        ToolResponse[] response = new ToolResponse[1];
        client.when().toolsCall(tool).withArguments(arguments).withAssert(r -> response[0] = r).send().thenAssertResults();
        return response[0];
    }
}
