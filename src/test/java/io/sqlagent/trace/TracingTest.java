package io.sqlagent.trace;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;
import io.sqlagent.audit.AuditLog;

/**
 * One trace per question, read from the in-memory exporter every test exports to ({@link TestSpans}):
 * a chat through the scripted model, and an MCP tools/call, each as the whole tree of its spans
 * with their names, parents and attributes; the trace id in the done event and the audit log.
 */
@QuarkusTest
@ScriptedModel
class TracingTest {

    private static final Duration EXPORTED_WITHIN = Duration.ofSeconds(10);

    @TestHTTPResource("/api/chat")
    URI chat;

    @Inject
    TestSpans spans;

    @Inject
    AuditLog auditLog;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    @BeforeEach
    void reset() {
        // Spans of the tests that ran before in this application (MCP calls among them) are not this test's.
        spans.reset();
    }

    @Test
    void aChatIsOneTreeFromTheHttpRequestToTheStatement() throws Exception {
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT count(*) AS tracks FROM track\"}")),
                text("There are 3503 tracks."));

        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"How many tracks?\"}");

        assertEquals("done", result.last().name(), result.events().toString());
        String traceId = result.last().data().path("trace_id").asText();
        assertTrue(traceId.matches("[0-9a-f]{32}"), result.last().toString());
        // The request's span ends last, when the event stream does.
        List<SpanData> trace = awaitTrace(traceId, span -> span.getKind() == SpanKind.SERVER);

        SpanData http = one(trace, span -> span.getKind() == SpanKind.SERVER && span.getName().startsWith("POST"));
        assertEquals("POST /api/chat", http.getName());

        SpanData run = one(trace, span -> span.getName().equals("invoke_agent sqlagent"));
        assertEquals(http.getSpanId(), run.getParentSpanId());
        assertEquals("invoke_agent", attribute(run, "gen_ai.operation.name"));
        assertEquals("sqlagent", attribute(run, "gen_ai.agent.name"));
        assertEquals(result.conversationId(), attribute(run, "gen_ai.conversation.id"));
        assertEquals("answer", attribute(run, "sqlagent.run.outcome"));
        assertEquals(2L, run.getAttributes().get(AttributeKey.longKey("sqlagent.run.iterations")));
        assertEquals(84L, run.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")));

        List<SpanData> modelCalls = trace.stream().filter(span -> span.getName().equals("chat scripted-model")).toList();
        assertEquals(2, modelCalls.size(), names(trace).toString());
        for (SpanData modelCall : modelCalls) {
            assertEquals(run.getSpanId(), modelCall.getParentSpanId());
            assertEquals(SpanKind.CLIENT, modelCall.getKind());
            assertEquals("chat", attribute(modelCall, "gen_ai.operation.name"));
            assertEquals("openai", attribute(modelCall, "gen_ai.provider.name"));
            assertEquals("scripted-model", attribute(modelCall, "gen_ai.request.model"));
            assertEquals(42L, modelCall.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")));
            assertEquals(7L, modelCall.getAttributes().get(AttributeKey.longKey("gen_ai.usage.output_tokens")));
        }
        // The HTTP requests to the model server (Quarkus' REST client spans) hang from the chat request's span,
        // beside the run, not under their model call: docs/operations.md says so, and this keeps it true.
        List<SpanData> modelRequests = trace.stream()
                .filter(span -> span.getKind() == SpanKind.CLIENT && attribute(span, "http.request.method") != null).toList();
        assertEquals(2, modelRequests.size(), describe(trace));
        for (SpanData request : modelRequests) {
            assertEquals("POST /chat/completions", request.getName(), describe(trace));
            assertEquals(http.getSpanId(), request.getParentSpanId(), describe(trace));
        }
        List<String> finishReasons = modelCalls.stream()
                .map(span -> span.getAttributes().get(AttributeKey.stringArrayKey("gen_ai.response.finish_reasons")).get(0))
                .sorted().toList();
        assertEquals(List.of("stop", "tool_calls"), finishReasons);

        SpanData tool = one(trace, span -> span.getName().equals("execute_tool run_sql"));
        assertEquals(run.getSpanId(), tool.getParentSpanId());
        assertEquals("execute_tool", attribute(tool, "gen_ai.operation.name"));
        assertEquals("run_sql", attribute(tool, "gen_ai.tool.name"));
        assertEquals("c1", attribute(tool, "gen_ai.tool.call.id"));
        assertEquals("agent", attribute(tool, "sqlagent.tool.caller"));
        assertEquals("success", attribute(tool, "sqlagent.tool.outcome"));
        assertEquals(StatusCode.UNSET, tool.getStatus().getStatusCode());

        SpanData statement = one(trace, span -> "postgresql".equals(attribute(span, "db.system.name")));
        assertEquals(tool.getSpanId(), statement.getParentSpanId());
        assertEquals(SpanKind.CLIENT, statement.getKind());
        assertEquals("SELECT", attribute(statement, "db.operation.name"));
        String database = attribute(statement, "db.namespace");
        assertNotNull(database, statement.toString());
        assertEquals("SELECT " + database, statement.getName());
        assertNotNull(attribute(statement, "server.address"), statement.toString());
        assertEquals("default", attribute(statement, "sqlagent.source"));
        assertEquals(1L, statement.getAttributes().get(AttributeKey.longKey("db.response.returned_rows")));
        assertNull(attribute(statement, "db.query.text"), "the statement's text is off by default");

        // Nothing of the run is outside the tree: every span but the request's has its parent in the trace.
        for (SpanData span : trace) {
            if (span != http) {
                assertTrue(trace.stream().anyMatch(parent -> parent.getSpanId().equals(span.getParentSpanId())),
                        span.getName() + " has no parent in " + names(trace));
            }
        }

        // The audit record of the call names the same trace.
        auditLog.flush().await().atMost(Duration.ofSeconds(10));
        JsonPath audit = given().queryParam("tool", "run_sql").queryParam("limit", 20).when().get("/api/audit").then()
                .statusCode(200).extract().jsonPath();
        assertTrue(audit.getList("items.trace_id").contains(traceId), audit.prettify());
    }

    @Test
    void aFailingStatementMarksItsSpansWithTheSqlState() throws Exception {
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT no_such_column FROM track\"}")),
                text("That column does not exist."));

        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"What is there?\"}");

        String traceId = result.last().data().path("trace_id").asText();
        List<SpanData> trace = awaitTrace(traceId, span -> span.getName().equals("invoke_agent sqlagent"));
        SpanData statement = one(trace, span -> "postgresql".equals(attribute(span, "db.system.name")));
        assertEquals("42703", attribute(statement, "db.response.status_code"));
        assertEquals("42703", attribute(statement, "error.type"));
        assertEquals(StatusCode.ERROR, statement.getStatus().getStatusCode());
        SpanData tool = one(trace, span -> span.getName().equals("execute_tool run_sql"));
        assertEquals("failure", attribute(tool, "sqlagent.tool.outcome"));
        assertEquals(StatusCode.ERROR, tool.getStatus().getStatusCode());
    }

    @Test
    void aFailedRunNamesItsTraceInTheErrorEvent() throws Exception {
        model.then(new ScriptedOpenAiServer.Failure(500, "the model broke"));

        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"Anything?\"}");

        assertEquals("error", result.last().name(), result.events().toString());
        String traceId = result.last().data().path("trace_id").asText();
        assertTrue(traceId.matches("[0-9a-f]{32}"), result.last().toString());
        List<SpanData> trace = awaitTrace(traceId, span -> span.getName().equals("invoke_agent sqlagent"));
        SpanData run = one(trace, span -> span.getName().equals("invoke_agent sqlagent"));
        assertEquals(StatusCode.ERROR, run.getStatus().getStatusCode());
        assertEquals("error", attribute(run, "sqlagent.run.outcome"));
        SpanData modelCall = one(trace, span -> span.getName().equals("chat scripted-model"));
        assertEquals(StatusCode.ERROR, modelCall.getStatus().getStatusCode());
        assertNotNull(attribute(modelCall, "error.type"));
    }

    @Test
    void anMcpToolCallIsTracedWithTheMcpConventions() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        ToolResponse[] response = new ToolResponse[1];
        client.when().toolsCall("run_sql").withArguments(Map.of("sql", "SELECT 41 + 1 AS answer"))
                .withAssert(r -> response[0] = r).send().thenAssertResults();
        assertFalse(response[0].isError());
        client.disconnect();

        SpanData tool = await(span -> span.getName().equals("execute_tool run_sql")
                && "mcp".equals(attribute(span, "sqlagent.tool.caller")));
        List<SpanData> trace = awaitTrace(tool.getTraceId(), span -> span.getName().equals("tools/call run_sql"));
        SpanData mcp = one(trace, span -> span.getName().equals("tools/call run_sql"));
        assertEquals(SpanKind.SERVER, mcp.getKind());
        assertEquals("tools/call", attribute(mcp, "mcp.method.name"));
        assertEquals("run_sql", attribute(mcp, "gen_ai.tool.name"));
        assertEquals("execute_tool", attribute(mcp, "gen_ai.operation.name"));
        assertNotNull(attribute(mcp, "jsonrpc.request.id"), mcp.toString());
        assertNotNull(attribute(mcp, "mcp.session.id"), mcp.toString());
        assertEquals(mcp.getSpanId(), tool.getParentSpanId());
        assertEquals("success", attribute(tool, "sqlagent.tool.outcome"));
        SpanData statement = one(trace, span -> "postgresql".equals(attribute(span, "db.system.name")));
        assertEquals(tool.getSpanId(), statement.getParentSpanId());
    }

    /** The spans of {@code traceId}, once one that satisfies {@code last} (the one that ends last) is exported. */
    private List<SpanData> awaitTrace(String traceId, Predicate<SpanData> last) {
        await(span -> span.getTraceId().equals(traceId) && last.test(span));
        return spans.finished().stream().filter(span -> span.getTraceId().equals(traceId)).toList();
    }

    private SpanData await(Predicate<SpanData> wanted) {
        long deadline = System.nanoTime() + EXPORTED_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            for (SpanData span : spans.finished()) {
                if (wanted.test(span)) {
                    return span;
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("no such span within " + EXPORTED_WITHIN + " among " + names(spans.finished()));
    }

    private static SpanData one(List<SpanData> trace, Predicate<SpanData> wanted) {
        List<SpanData> found = trace.stream().filter(wanted).toList();
        assertEquals(1, found.size(), names(trace).toString());
        return found.get(0);
    }

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    /** Each span as {@code name (kind) id <- parent id}, for a failure's message. */
    private static String describe(List<SpanData> spans) {
        return spans.stream().map(span -> span.getName() + " (" + span.getKind() + ") " + span.getSpanId() + " <- "
                + span.getParentSpanId() + " " + span.getAttributes()).toList().toString();
    }

    private static List<String> names(List<SpanData> spans) {
        return spans.stream().map(span -> span.getName() + "(" + span.getSpanId() + "<-" + span.getParentSpanId() + ")")
                .toList();
    }
}
