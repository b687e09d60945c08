package io.sqlagent.security;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.builtin.PolicyFixture;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * Two principals mapped to two database roles under row-level security (support representatives 3 and 4, each seeing
 * only their own customers, {@link TwoPrincipals}) try each other's MCP sessions and evaluation runs: nothing of the
 * other comes back, and each gets the 404 an unknown id gets. An evaluation runs as the principal who started it: its
 * agent and its golden SQL read through that principal's role and table policy, so golden SQL that reads a denied
 * table or a hidden column is refused, and the case is not graded against it. The other doors are
 * {@link PrincipalDoorsTest}'s and {@link PrincipalKnowledgeTest}'s.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class PrincipalIsolationTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String INITIALIZE = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},
            "clientInfo":{"name":"isolation","version":"1"}}}""";
    private static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

    @RegisterExtension
    static final PolicyFixture POLICY = new PolicyFixture();

    @Inject
    SourceRegistry sources;

    @Inject
    Pool store;

    private static Map<String, String> rep(int rep, String scopes) {
        return TwoPrincipals.rep(rep, scopes);
    }

    @BeforeEach
    void rowLevelSecurity() {
        TwoPrincipals.setUp(sources.find("default").orElseThrow());
    }

    @AfterEach
    void noRowLevelSecurity() {
        TwoPrincipals.tearDown(sources.find("default").orElseThrow());
        ScriptedModelExtension.server().reset();
    }

    /** The run's report once it has ended, read as {@code caller}. */
    private static JsonPath ended(String id, Map<String, String> caller) throws InterruptedException {
        JsonPath report = null;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            report = given().headers(caller).when().get("/api/evals/runs/" + id).then().statusCode(200).extract().jsonPath();
            if (!"running".equals(report.getString("status"))) {
                break;
            }
            Thread.sleep(100);
        }
        return report;
    }

    private int customersOf(int rep) {
        return sources.find("default").orElseThrow().requirePool()
                .query("SELECT count(*) FROM customer WHERE support_rep_id = " + rep).execute()
                .await().atMost(WAIT).iterator().next().getInteger(0);
    }

    private static HttpResponse<String> mcp(String method, String body, String session, Map<String, String> caller)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/mcp"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        caller.forEach(request::header);
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anotherPrincipalCannotUseCloseOrListenToAStreamableMcpSession() throws Exception {
        Map<String, String> three = rep(3, "sql:read");
        Map<String, String> four = rep(4, "admin");
        HttpResponse<String> opened = mcp("POST", INITIALIZE, null, three);
        assertEquals(200, opened.statusCode(), opened.body());
        String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
        mcp("POST", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session, three);

        // Another principal, even one holding every scope: each door answers as for an unknown session.
        for (String[] attempt : new String[][] { { "POST", TOOLS_LIST }, { "GET", null }, { "DELETE", null } }) {
            HttpResponse<String> refused = mcp(attempt[0], attempt[1], session, four);
            assertEquals(404, refused.statusCode(), attempt[0] + ": " + refused.body());
            assertFalse(refused.body().contains("run_sql"), refused.body());
        }
        // The anonymous caller too.
        assertEquals(404, mcp("POST", TOOLS_LIST, session, Map.of()).statusCode());

        // The session is the owner's still: its delete was not carried out.
        HttpResponse<String> listed = mcp("POST", TOOLS_LIST, session, three);
        assertEquals(200, listed.statusCode(), listed.body());
        assertTrue(listed.body().contains("run_sql"), listed.body());
        assertEquals(200, mcp("DELETE", null, session, three).statusCode() / 100 * 100);
    }

    @Test
    void aPrincipalHoldsAtMostItsShareOfSessionsAndTheOldestGoesFirst() throws Exception {
        // Another principal's session, opened before the flood
        Map<String, String> four = rep(4, "sql:read");
        String theirs = mcp("POST", INITIALIZE, null, four).headers().firstValue("Mcp-Session-Id").orElseThrow();
        mcp("POST", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", theirs, four);
        // When one principal opens one session more than sqlagent.mcp.max-sessions-per-principal (1000)
        Map<String, String> flood = TestIdentities.headers("flood-" + java.util.UUID.randomUUID(), "sql:read", null);
        List<String> sessions = new java.util.ArrayList<>();
        for (int i = 0; i <= 1000; i++) {
            HttpResponse<String> opened = mcp("POST", INITIALIZE, null, flood);
            assertEquals(200, opened.statusCode(), opened.body());
            sessions.add(opened.headers().firstValue("Mcp-Session-Id").orElseThrow());
        }
        String newest = sessions.get(1000);
        mcp("POST", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", newest, flood);

        // Then its oldest session is closed (answered as unknown, so a client initializes again), the newest works
        assertEquals(404, mcp("POST", TOOLS_LIST, sessions.get(0), flood).statusCode());
        assertEquals(200, mcp("POST", TOOLS_LIST, newest, flood).statusCode());
        // and the other principal's session is untouched
        HttpResponse<String> listed = mcp("POST", TOOLS_LIST, theirs, four);
        assertEquals(200, listed.statusCode(), listed.body());
        assertTrue(listed.body().contains("run_sql"), listed.body());
        for (String session : sessions.subList(1, 1001)) {
            mcp("DELETE", null, session, flood);
        }
    }

    @Test
    void anotherPrincipalCannotPostIntoALegacySseSession() throws Exception {
        Map<String, String> three = rep(3, "sql:read");
        Map<String, String> four = rep(4, "sql:read");
        HttpRequest.Builder open = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/mcp/sse"))
                .header("Accept", "text/event-stream");
        three.forEach(open::header);
        var stream = HTTP.sendAsync(open.build(), HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
        assertEquals(200, stream.statusCode());
        String endpoint = stream.body().filter(line -> line.startsWith("data:")).findFirst().orElseThrow().substring(5).strip();
        assertTrue(endpoint.contains("/messages/"), endpoint);
        URI messages = URI.create("http://localhost:" + RestAssured.port).resolve(endpoint);

        HttpRequest.Builder foreign = HttpRequest.newBuilder(messages).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE));
        four.forEach(foreign::header);
        HttpResponse<String> refused = HTTP.send(foreign.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, refused.statusCode(), refused.body());

        HttpRequest.Builder own = HttpRequest.newBuilder(messages).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE));
        three.forEach(own::header);
        assertEquals(2, HTTP.send(own.build(), HttpResponse.BodyHandlers.ofString()).statusCode() / 100);
    }

    @Test
    void anEvaluationRunsAsItsPrincipalAndItsReportIsOnlyTheirs() throws Exception {
        ScriptedOpenAiServer model = ScriptedModelExtension.server();
        model.reset();
        model.then(
                toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT count(*) AS n, current_user AS acting_as FROM customer\"}")),
                text("Counted."));
        int mine = customersOf(3);
        // The agent's statement, run again to grade it, must give rep 3's count; the golden SQL names its role.
        String cases = """
                {"cases": [{"id": "own-count", "category": "rls", "question": "How many customers do I have?",
                  "expected_rows": [[%d, "support_rep_3"]]}]}""".formatted(mine);
        Map<String, String> three = rep(3, "admin");
        String id = given().headers(three).contentType(ContentType.JSON).body(cases).when().post("/api/evals/runs").then()
                .statusCode(202).extract().path("id");
        JsonPath report = ended(id, three);
        assertEquals("done", report.getString("status"), report.prettify());
        assertTrue(report.getBoolean("cases[0].passed"), report.prettify());

        // Representative 4, even with every other scope: the report, its page, its events and a comparison are not found.
        Map<String, String> four = rep(4, "sql:read,knowledge:read");
        for (String path : new String[] { "", "/report.html", "/events", "/compare/" + id }) {
            given().headers(four).when().get("/api/evals/runs/" + id + path).then().statusCode(404)
                    .body("error", is("run_not_found"));
        }
        // The evaluation scope reads every run.
        given().headers(rep(4, "eval:read")).when().get("/api/evals/runs/" + id).then().statusCode(200);
        // A bad id is a clear 400 for everyone.
        given().headers(four).when().get("/api/evals/runs/not-a-uuid").then().statusCode(400)
                .body("error", is("invalid_run_id"));
    }

    @Test
    void goldenSqlReadsThroughTheRunsPrincipal() throws Exception {
        ScriptedOpenAiServer model = ScriptedModelExtension.server();
        model.reset();
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT 'support_rep_4'::text AS acting_as\"}")),
                text("Done."));
        String cases = """
                {"cases": [{"id": "golden-role", "category": "rls", "question": "Who am I?",
                  "golden_sql": "SELECT current_user::text AS acting_as"}]}""";
        Map<String, String> four = rep(4, "admin");
        String id = given().headers(four).contentType(ContentType.JSON).body(cases).when().post("/api/evals/runs").then()
                .statusCode(202).extract().path("id");
        JsonPath report = ended(id, four);
        assertTrue(report.getBoolean("cases[0].passed"), report.prettify());
        // Its owner is recorded with the run.
        String owner = store.query("SELECT principal FROM eval_run WHERE id = '" + id + "'").execute().await().atMost(WAIT)
                .iterator().next().getString(0);
        assertEquals("rep4@example.com", owner);
    }

    @Test
    void goldenSqlThatReadsWhatThePolicyRefusesIsRefusedAndNothingOfItIsGraded() throws Exception {
        ScriptedOpenAiServer model = ScriptedModelExtension.server();
        // The agent's own statement is fine: each case fails on its golden SQL alone.
        for (int i = 0; i < 5; i++) {
            model.then(toolCalls(call("c" + i, "run_sql", "{\"sql\":\"SELECT first_name FROM customer\"}")), text("Listed."));
        }
        String cases = """
                {"concurrency": 1, "cases": [
                  {"id": "denied-by-name", "category": "policy", "question": "q1", "golden_sql": "TABLE secret_ledger"},
                  {"id": "denied-through-a-view", "category": "policy", "question": "q2",
                   "golden_sql": "SELECT note AS first_name FROM \\"public\\".ledger_view"},
                  {"id": "denied-child", "category": "policy", "question": "q3",
                   "golden_sql": "SELECT x.note AS first_name FROM (TABLE secret_ledger_child) x"},
                  {"id": "hidden-column", "category": "policy", "question": "q4",
                   "golden_sql": "SELECT email AS first_name FROM customer"},
                  {"id": "hidden-whole-row", "category": "policy", "question": "q5",
                   "golden_sql": "SELECT c::text AS first_name FROM customer c"}]}""";
        Map<String, String> three = rep(3, "admin");
        String id = given().headers(three).contentType(ContentType.JSON).body(cases).when().post("/api/evals/runs").then()
                .statusCode(202).extract().path("id");
        JsonPath report = ended(id, three);

        assertEquals("done", report.getString("status"), report.prettify());
        Map<String, String> refused = Map.of("denied-by-name", "Table secret_ledger is not available",
                "denied-through-a-view", "secret_ledger", "denied-child", "Table secret_ledger_child is not available",
                "hidden-column", "Column customer.email is hidden", "hidden-whole-row", "customer.email");
        for (int i = 0; i < 5; i++) {
            String prefix = "cases[" + i + "].";
            String reason = report.getString(prefix + "grades.execution.reason");
            assertFalse(report.getBoolean(prefix + "passed"), report.prettify());
            assertTrue(reason.startsWith("The golden SQL is refused for the run's principal: "), reason);
            assertTrue(reason.contains(refused.get(report.getString(prefix + "id"))), reason);
        }
        // Nothing the golden SQL would have read is in the report, as JSON or as a page.
        String html = given().headers(three).when().get("/api/evals/runs/" + id + "/report.html").then().statusCode(200)
                .extract().asString();
        for (String text : new String[] { report.prettify(), html }) {
            TwoPrincipals.assertNothingOf(text, TwoPrincipals.customersOf(sources.find("default").orElseThrow(), 4),
                    TwoPrincipals.allEmails(sources.find("default").orElseThrow()), "the report");
        }
    }
}
