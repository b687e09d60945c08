package io.sqlagent.security;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkiverse.mcp.server.test.McpAssured.ToolInfo;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;
import io.sqlagent.audit.AuditLog;
import io.sqlagent.audit.AuditRows;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.core.MultiMap;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * Who may do what, seen from the outside: tools listed and callable by scope (REST, MCP, the
 * model's offer in a chat), conversations private to their principal, the audit log by principal
 * (scope admin), and per-principal limits. Callers get identities from the test-only
 * {@link TestIdentities} mechanism; a request without one is the anonymous caller of
 * {@code sqlagent.auth.mode=none}, who may do everything.
 */
@QuarkusTest
@ScriptedModel
class AccessTest {

    private static final String COUNT_TRACKS = "{\"sql\":\"SELECT count(*) AS n FROM track\"}";

    @TestHTTPResource("/api/chat")
    URI chat;

    @Inject
    AuditLog auditLog;

    @Inject
    Pool store;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    @Inject
    SourceRegistry sources;

    @BeforeEach
    void reset() {
        DatabaseRolesTest.representativeRoles(sources.find("default").orElseThrow());
    }

    /**
     * A caller with these scopes. The test configuration maps callers of the demo source to the role
     * their pg_role names (DatabaseRolesTest), so each carries one; no row-level policy is on here.
     */
    private static Map<String, String> as(String principal, String scopes) {
        return TestIdentities.headers(principal, scopes, "pg_role=support_rep_3");
    }

    private static List<String> toolNames(Map<String, String> caller) {
        return given().headers(caller).when().get("/api/tools").then().statusCode(200).extract().jsonPath().getList("name");
    }

    // -------------------------------------------------------------------------------------------
    // Scopes per tool
    // -------------------------------------------------------------------------------------------

    @Test
    void aCallerSeesOnlyTheToolsItsScopesAllow() {
        List<String> reader = toolNames(as("kim", "knowledge:read"));
        assertTrue(reader.contains("search_knowledge"), reader.toString());
        assertFalse(reader.contains("run_sql"), reader.toString());
        assertFalse(reader.contains("save_learning"), reader.toString());
        assertFalse(reader.contains("top_customers"), reader.toString());

        List<String> analyst = toolNames(as("ann", "sql:read"));
        assertTrue(analyst.containsAll(List.of("run_sql", "introspect_schema", "search_tracks")), analyst.toString());
        // A declared tool with scopes of its own needs those, not sql:read.
        assertFalse(analyst.contains("top_customers"), analyst.toString());

        // A toolset scope grants the toolset's tools, and only those.
        List<String> sales = toolNames(as("sal", "toolset:sales"));
        assertTrue(sales.containsAll(List.of("top_customers", "invoice_lines", "sales_by_country_and_month")),
                sales.toString());
        assertFalse(sales.contains("search_tracks"), sales.toString());
        assertFalse(sales.contains("run_sql"), sales.toString());

        // admin sees everything; so does the anonymous caller while authentication is off.
        List<String> everything = toolNames(Map.of());
        assertEquals(Set.copyOf(everything), Set.copyOf(toolNames(as("root", "admin"))));
        assertTrue(everything.containsAll(List.of("run_sql", "top_customers", "save_learning")), everything.toString());

        // A tool the caller may not call is not described to it either.
        given().headers(as("kim", "knowledge:read")).when().get("/api/tools/run_sql").then().statusCode(404)
                .body("error", is("unknown_tool"));
        given().headers(as("ann", "sql:read")).when().get("/api/tools/run_sql").then().statusCode(200);
    }

    @Test
    void aCallOutsideTheCallersScopesIs403NamingTheMissingScope() throws Exception {
        String principal = "kim-" + UUID.randomUUID();
        given().headers(as(principal, "knowledge:read")).contentType(ContentType.JSON).body(COUNT_TRACKS)
                .when().post("/api/tools/run_sql")
                .then().statusCode(403)
                .body("error", is("forbidden"))
                .body("message", containsString("scope 'sql:read'"))
                .body("message", containsString(principal));
        given().headers(as(principal, "sql:read")).contentType(ContentType.JSON).body("{\"limit\":1}")
                .when().post("/api/tools/top_customers")
                .then().statusCode(403)
                .body("error", is("forbidden"))
                .body("message", containsString("'customers:read'"))
                .body("message", containsString("'sales:read'"));
        given().headers(as(principal, "sql:read")).contentType(ContentType.JSON).body(COUNT_TRACKS)
                .when().post("/api/tools/run_sql")
                .then().statusCode(200).body("result.rows[0].n", is(3503));

        // The refusal is audited with the principal, and the tool did not run.
        var refused = AuditRows.await(auditLog, store, "run_sql",
                "principal = '" + principal + "' AND outcome = 'forbidden'");
        assertEquals("rest", refused.getString("caller"));
        assertEquals(0, refused.getInteger("result_bytes"));
    }

    @Test
    void mcpListsOnlyPermittedToolsAndAnswersAForbiddenCallWithAnError() throws Exception {
        McpStreamableTestClient client = McpAssured.newStreamableClient()
                .setAdditionalHeaders(message -> MultiMap.caseInsensitiveMultiMap().addAll(as("mia", "knowledge:read")))
                .build().connect();
        client.when().toolsList(page -> {
            Set<String> names = page.tools().stream().map(ToolInfo::name).collect(Collectors.toSet());
            assertTrue(names.contains("search_knowledge"), names.toString());
            assertFalse(names.contains("run_sql"), names.toString());
        }).thenAssertResults();
        ToolResponse[] response = new ToolResponse[1];
        client.when().toolsCall("run_sql").withArguments(Map.of("sql", "SELECT 1")).withAssert(r -> response[0] = r).send()
                .thenAssertResults();
        assertTrue(response[0].isError());
        assertTrue(response[0].firstContent().asText().text().contains("scope 'sql:read'"),
                response[0].firstContent().asText().text());
        client.disconnect();

        var audited = AuditRows.await(auditLog, store, "run_sql", "principal = 'mia' AND caller = 'mcp'");
        assertEquals("forbidden", audited.getString("outcome"));
    }

    @Test
    void aChatOffersTheModelOnlyTheCallersToolsAndExplainsARefusal() throws Exception {
        model.then(toolCalls(call("c1", "run_sql", COUNT_TRACKS)), text("I may not run SQL for you."));

        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"How many tracks?\"}", as("kai", "knowledge:read"));

        assertEquals(200, result.status());
        List<String> offered = new ArrayList<>();
        model.requests().get(0).path("tools").forEach(tool -> offered.add(tool.path("function").path("name").asText()));
        assertTrue(offered.contains("search_knowledge"), offered.toString());
        assertFalse(offered.contains("run_sql"), offered.toString());
        JsonNode refused = result.first("tool_result").data();
        assertFalse(refused.path("ok").asBoolean());
        assertEquals("forbidden", refused.path("outcome").asText());
        assertTrue(refused.path("error").asText().contains("scope 'sql:read'"), refused.toString());
        // The model is told why, so it can explain it.
        String toModel = model.requests().get(1).path("messages").toString();
        assertTrue(toModel.contains("sql:read"), toModel);
        assertEquals("I may not run SQL for you.", result.content());

        var audited = AuditRows.await(auditLog, store, "run_sql",
                "principal = 'kai' AND caller = 'agent' AND conversation_id = '" + result.conversationId() + "'");
        assertEquals("forbidden", audited.getString("outcome"));
    }

    // -------------------------------------------------------------------------------------------
    // Conversations belong to their principal
    // -------------------------------------------------------------------------------------------

    private String converse(Map<String, String> caller, String question) throws Exception {
        model.then(text("An answer."));
        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"" + question + "\"}", caller);
        assertEquals(200, result.status());
        return result.conversationId();
    }

    @Test
    void conversationsArePrivateToTheirPrincipalAndListedNewestFirstInPages() throws Exception {
        String alice = "alice-" + UUID.randomUUID();
        String bob = "bob-" + UUID.randomUUID();
        String first = converse(as(alice, "sql:read"), "First question of Alice");
        String second = converse(as(alice, "sql:read"), "Second question of Alice, which is long enough that its title "
                + "has to be shortened to eighty characters");
        String bobs = converse(as(bob, "sql:read"), "Bob asks");

        given().headers(as(alice, "sql:read")).when().get("/api/conversations/" + first).then().statusCode(200)
                .body("title", is("First question of Alice"));
        // Someone else's conversation does not exist for Bob; nor does Alice's follow-up into Bob's.
        given().headers(as(bob, "sql:read")).when().get("/api/conversations/" + first).then().statusCode(404)
                .body("error", is("conversation_not_found"));
        given().headers(as(alice, "sql:read")).contentType(ContentType.JSON)
                .body("{\"question\":\"More?\",\"conversation_id\":\"" + bobs + "\"}")
                .when().post("/api/chat").then().statusCode(404).body("error", is("conversation_not_found"));

        JsonPath page = given().headers(as(alice, "sql:read")).queryParam("limit", 1).when().get("/api/conversations").then()
                .statusCode(200).extract().jsonPath();
        assertEquals(List.of(second), page.getList("items.id"));
        String title = page.getString("items[0].title");
        assertEquals(80, title.length(), title);
        assertTrue(title.startsWith("Second question of Alice") && title.endsWith("…"), title);
        assertTrue(page.getString("items[0].updated_at").compareTo(page.getString("items[0].created_at")) >= 0);
        String next = page.getString("next");
        JsonPath rest = given().headers(as(alice, "sql:read")).queryParam("limit", 1).queryParam("before", next)
                .when().get("/api/conversations").then().statusCode(200).body("next", nullValue()).extract().jsonPath();
        assertEquals(List.of(first), rest.getList("items.id"));
        assertEquals(List.of(bobs), given().headers(as(bob, "sql:read")).when().get("/api/conversations").then()
                .statusCode(200).body("next", nullValue()).extract().jsonPath().getList("items.id"));

        given().headers(as(alice, "sql:read")).queryParam("limit", 101).when().get("/api/conversations").then()
                .statusCode(400).body("error", is("invalid_limit"));
        given().headers(as(alice, "sql:read")).queryParam("limit", "zero").when().get("/api/conversations").then()
                .statusCode(400).body("error", is("invalid_limit"));
        given().headers(as(alice, "sql:read")).queryParam("before", "not-a-cursor").when().get("/api/conversations").then()
                .statusCode(400).body("error", is("invalid_cursor"));
    }

    // -------------------------------------------------------------------------------------------
    // Audit
    // -------------------------------------------------------------------------------------------

    @Test
    void theAuditLogIsForAdminsAndFiltersByPrincipalToolOutcomeAndTime() throws Exception {
        String dana = "dana-" + UUID.randomUUID();
        String started = java.time.Instant.now().minusSeconds(1).toString();
        for (int i = 0; i < 3; i++) {
            given().headers(as(dana, "sql:read")).contentType(ContentType.JSON).body(COUNT_TRACKS)
                    .when().post("/api/tools/run_sql").then().statusCode(200);
        }
        given().headers(as(dana, "sql:read")).contentType(ContentType.JSON).body("{\"query\":\"tracks\"}")
                .when().post("/api/tools/search_knowledge").then().statusCode(403);
        AuditRows.await(auditLog, store, "search_knowledge", "principal = '" + dana + "'");

        given().headers(as(dana, "sql:read")).when().get("/api/audit").then().statusCode(403)
                .body("error", is("forbidden")).body("message", containsString("'admin'"));

        JsonPath all = given().headers(as("auditor", "admin")).queryParam("principal", dana).queryParam("from", started)
                .when().get("/api/audit").then().statusCode(200).extract().jsonPath();
        assertEquals(4, all.getList("items").size(), all.prettify());
        assertEquals("search_knowledge", all.getString("items[0].tool"));
        assertEquals("forbidden", all.getString("items[0].outcome"));
        assertEquals(Set.of(dana), Set.copyOf(all.getList("items.principal")));

        JsonPath successes = given().headers(as("auditor", "admin")).queryParam("principal", dana)
                .queryParam("tool", "run_sql").queryParam("outcome", "success").queryParam("limit", 2)
                .when().get("/api/audit").then().statusCode(200).body("next", notNullValue()).extract().jsonPath();
        assertEquals(List.of("run_sql", "run_sql"), successes.getList("items.tool"));
        JsonPath last = given().headers(as("auditor", "admin")).queryParam("principal", dana).queryParam("tool", "run_sql")
                .queryParam("outcome", "success").queryParam("limit", 2).queryParam("before", successes.getString("next"))
                .when().get("/api/audit").then().statusCode(200).body("next", nullValue()).extract().jsonPath();
        assertEquals(1, last.getList("items").size());
        given().headers(as("auditor", "admin")).queryParam("principal", dana).queryParam("to", started)
                .when().get("/api/audit").then().statusCode(200).body("items.size()", is(0));

        given().headers(as("auditor", "admin")).queryParam("outcome", "great").when().get("/api/audit").then()
                .statusCode(400).body("error", is("invalid_filter")).body("message", containsString("forbidden"));
        given().headers(as("auditor", "admin")).queryParam("from", "yesterday").when().get("/api/audit").then()
                .statusCode(400).body("message", containsString("ISO-8601"));
    }

    // -------------------------------------------------------------------------------------------
    // Limits (test configuration: principal test-limited, 2 tool calls and 1 chat run per minute)
    // -------------------------------------------------------------------------------------------

    @Test
    void aPrincipalOverItsToolCallLimitGets429WithRetryAfterAndAnMcpError() {
        Map<String, String> limited = as("test-limited", "sql:read");
        Response refused = null;
        // Fixed one-minute windows: within a few calls the third of one window is refused.
        for (int i = 0; i < 8 && refused == null; i++) {
            Response response = given().headers(limited).contentType(ContentType.JSON).body(COUNT_TRACKS)
                    .when().post("/api/tools/run_sql");
            if (response.statusCode() == 429) {
                refused = response;
            } else {
                assertEquals(200, response.statusCode(), response.asString());
            }
        }
        assertTrue(refused != null, "no call was refused");
        assertEquals("rate_limited", refused.jsonPath().getString("error"));
        assertTrue(refused.jsonPath().getString("message").contains("sqlagent.limits.tool-calls-per-minute"));
        int retryAfter = Integer.parseInt(refused.header("Retry-After"));
        assertTrue(retryAfter >= 1 && retryAfter <= 61, refused.header("Retry-After"));
        // Other principals are not affected.
        given().headers(as("unlimited", "sql:read")).contentType(ContentType.JSON).body(COUNT_TRACKS)
                .when().post("/api/tools/run_sql").then().statusCode(200);

        // The same principal over MCP, in the same window (milliseconds later): a JSON-RPC error.
        McpStreamableTestClient client = McpAssured.newStreamableClient()
                .setAdditionalHeaders(message -> MultiMap.caseInsensitiveMultiMap().addAll(limited))
                .build().connect();
        String[] error = new String[1];
        client.when().toolsCall("run_sql").withArguments(Map.of("sql", "SELECT 1")).withErrorAssert(e -> {
            assertEquals(-32029, e.code());
            error[0] = e.message();
        }).send().thenAssertResults();
        client.disconnect();
        assertTrue(error[0] != null && error[0].contains("rate_limited") && error[0].contains("try again in"),
                String.valueOf(error[0]));

        String metrics = given().accept("application/openmetrics-text").when().get("/q/metrics").then().statusCode(200)
                .extract().asString();
        assertTrue(metrics.contains("sqlagent_limit_refusals_total{limit=\"tool_calls\"}"), "no refusal metric");
        assertTrue(metrics.contains("# HELP sqlagent_limit_per_principal"), "no allowance metric");
    }

    @Test
    void aPrincipalOverItsChatLimitGets429BeforeAnyEvent() {
        Map<String, String> limited = as("test-limited", "sql:read");
        Response refused = null;
        for (int i = 0; i < 4 && refused == null; i++) {
            model.then(text("Fine."));
            Response response = given().headers(limited).contentType(ContentType.JSON).body("{\"question\":\"Hello?\"}")
                    .when().post("/api/chat");
            if (response.statusCode() == 429) {
                refused = response;
            } else {
                assertEquals(200, response.statusCode(), response.asString());
            }
        }
        assertTrue(refused != null, "no chat was refused");
        assertTrue(refused.contentType().startsWith("application/json"), refused.contentType());
        assertEquals("rate_limited", refused.jsonPath().getString("error"));
        assertTrue(refused.jsonPath().getString("message").contains("sqlagent.limits.chat-runs-per-minute"));
        assertTrue(Integer.parseInt(refused.header("Retry-After")) >= 1);
    }

    @Test
    void aPrincipalOverItsModelTokensForTheDayGets429() throws Exception {
        Map<String, String> spender = as("test-tokens", "sql:read");
        // Each chat is one model call reporting 42 + 7 tokens; the limit is 90 a day.
        for (int i = 0; i < 2; i++) {
            model.then(text("Fine."));
            SseClient.Result result = SseClient.chat(chat, "{\"question\":\"Hello?\"}", spender);
            assertEquals(200, result.status());
            assertEquals(49, result.last().data().path("usage").path("input_tokens").asInt()
                    + result.last().data().path("usage").path("output_tokens").asInt());
        }

        Response refused = given().headers(spender).contentType(ContentType.JSON).body("{\"question\":\"Hello?\"}")
                .when().post("/api/chat");

        assertEquals(429, refused.statusCode(), refused.asString());
        assertEquals("rate_limited", refused.jsonPath().getString("error"));
        assertTrue(refused.jsonPath().getString("message").contains("98 of its 90 model tokens"),
                refused.jsonPath().getString("message"));
        assertTrue(refused.jsonPath().getString("message").contains("sqlagent.limits.model-tokens-per-day"));
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertTrue(retryAfter >= 1 && retryAfter <= 86_401, refused.header("Retry-After"));
        // Only two runs reached the model.
        assertEquals(2, model.requests().size());
    }
}
