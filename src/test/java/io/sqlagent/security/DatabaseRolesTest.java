package io.sqlagent.security;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;
import io.sqlagent.sql.Source;
import io.sqlagent.sql.SourceRegistry;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * The database sees the caller: with {@code sqlagent.sources.default.role-claim=pg_role} (test
 * configuration) each identified caller's statements run as the PostgreSQL role its claim names,
 * so a row-level security policy on Chinook's {@code customer} lets each support representative
 * (employee 3, 4, 5) see only their own customers. The same question from two principals gives
 * each its own, correct count through {@code run_sql}, a declared tool and a chat; a role outside
 * the allow list, or no role at all, is refused; anonymous callers (authentication off) see all.
 */
@QuarkusTest
@ScriptedModel
class DatabaseRolesTest {

    private static final String QUESTION = "{\"sql\":\"SELECT count(*) AS n, current_user AS acting_as FROM customer\"}";

    @Inject
    SourceRegistry sources;

    @TestHTTPResource("/api/chat")
    URI chat;

    private Pool chinook() {
        return sources.find("default").orElseThrow().requirePool();
    }

    /**
     * Roles for three representatives, read access for them, and the policy: a representative
     * sees the customers whose support_rep_id is theirs; every other role (the service's own,
     * other tests' readers) sees all rows, as without the policy.
     */
    @BeforeEach
    void rowLevelSecurity() {
        rowLevelSecurity(sources.find("default").orElseThrow());
    }

    /** The representatives' roles and the policy on Chinook's customer table (also for PrincipalIsolationTest). */
    static void rowLevelSecurity(Source chinook) {
        representativeRoles(chinook);
        for (String statement : List.of("DROP POLICY IF EXISTS own_customers ON customer",
                "DROP POLICY IF EXISTS everyone_else ON customer",
                "CREATE POLICY own_customers ON customer USING "
                        + "(support_rep_id::text = substring(current_user from '^support_rep_([0-9]+)$'))",
                "CREATE POLICY everyone_else ON customer USING (current_user !~ '^support_rep_[0-9]+$')",
                "ALTER TABLE customer ENABLE ROW LEVEL SECURITY")) {
            chinook.executeWriting(statement).await().atMost(Duration.ofSeconds(30));
        }
    }

    /** The customer table as every other test reads it: no policy. */
    static void noRowLevelSecurity(Source chinook) {
        for (String statement : List.of("ALTER TABLE customer DISABLE ROW LEVEL SECURITY",
                "DROP POLICY IF EXISTS own_customers ON customer", "DROP POLICY IF EXISTS everyone_else ON customer")) {
            chinook.executeWriting(statement).await().atMost(Duration.ofSeconds(30));
        }
    }

    /** The roles of representatives 3, 4 and 5, each allowed to read Chinook (idempotent: the embedded server is shared). */
    static void representativeRoles(Source chinook) {
        for (int rep : new int[] { 3, 4, 5 }) {
            for (String statement : List.of(
                    "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'support_rep_" + rep + "') THEN "
                            + "CREATE ROLE support_rep_" + rep + " NOLOGIN; END IF; END $$",
                    "GRANT USAGE ON SCHEMA public TO support_rep_" + rep,
                    "GRANT SELECT ON ALL TABLES IN SCHEMA public TO support_rep_" + rep)) {
                chinook.executeWriting(statement).await().atMost(Duration.ofSeconds(30));
            }
        }
    }

    @AfterEach
    void noRowLevelSecurity() {
        noRowLevelSecurity(sources.find("default").orElseThrow());
    }

    private int customersOf(int rep) {
        return chinook().query("SELECT count(*) FROM customer WHERE support_rep_id = " + rep).execute()
                .await().atMost(Duration.ofSeconds(30)).iterator().next().getInteger(0);
    }

    private static Map<String, String> rep(int rep, String scopes) {
        return TestIdentities.headers("rep" + rep + "@example.com", scopes, "pg_role=support_rep_" + rep);
    }

    private static JsonPath runSql(Map<String, String> caller) {
        return given().headers(caller).contentType(ContentType.JSON).body(QUESTION)
                .when().post("/api/tools/run_sql").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void runSqlCountsOnlyTheCallersOwnCustomers() {
        int three = customersOf(3);
        int four = customersOf(4);
        assertTrue(three > 0 && four > 0 && three != four, three + " / " + four);

        JsonPath asThree = runSql(rep(3, "sql:read"));
        JsonPath asFour = runSql(rep(4, "sql:read"));

        assertEquals(three, asThree.getInt("result.rows[0].n"));
        assertEquals("support_rep_3", asThree.getString("result.rows[0].acting_as"));
        assertEquals(four, asFour.getInt("result.rows[0].n"));
        assertEquals("support_rep_4", asFour.getString("result.rows[0].acting_as"));
        // Authentication off: the anonymous caller runs as the service, as before.
        assertEquals(59, given().contentType(ContentType.JSON).body(QUESTION).when().post("/api/tools/run_sql").then()
                .statusCode(200).extract().jsonPath().getInt("result.rows[0].n"));
    }

    @Test
    void theTransactionNamesThePrincipalAndTheRoleEndsWithIt() {
        JsonPath named = given().headers(rep(5, "sql:read")).contentType(ContentType.JSON)
                .body("{\"sql\":\"SELECT current_setting('application_name') AS application_name\"}")
                .when().post("/api/tools/run_sql").then().statusCode(200).extract().jsonPath();

        assertEquals("sqlagent rep5@example.com", named.getString("result.rows[0].application_name"));
        // SET LOCAL: the pooled connection's next borrower is the service again.
        assertEquals(59, given().contentType(ContentType.JSON).body(QUESTION).when().post("/api/tools/run_sql").then()
                .statusCode(200).extract().jsonPath().getInt("result.rows[0].n"));
    }

    @Test
    void aDeclaredToolReturnsOnlyTheCallersOwnCustomers() {
        String body = "{\"limit\":50}";
        List<Integer> asThree = given().headers(rep(3, "toolset:sales")).contentType(ContentType.JSON).body(body)
                .when().post("/api/tools/top_customers").then().statusCode(200).extract().jsonPath()
                .getList("result.rows.customer_id");
        List<Integer> asFour = given().headers(rep(4, "sales:read,customers:read")).contentType(ContentType.JSON).body(body)
                .when().post("/api/tools/top_customers").then().statusCode(200).extract().jsonPath()
                .getList("result.rows.customer_id");

        assertEquals(customersOf(3), asThree.size());
        assertEquals(customersOf(4), asFour.size());
        assertTrue(asThree.stream().noneMatch(asFour::contains), asThree + " / " + asFour);
    }

    @Test
    void aChatAnswersEachRepresentativeWithTheirOwnCount() throws Exception {
        ScriptedOpenAiServer model = ScriptedModelExtension.server();
        for (int rep : new int[] { 3, 4 }) {
            model.reset();
            model.then(toolCalls(call("c1", "run_sql", QUESTION)), text("Counted."));

            SseClient.Result result = SseClient.chat(chat, "{\"question\":\"How many customers do I have?\"}",
                    rep(rep, "sql:read,knowledge:read"));

            assertEquals(200, result.status());
            var counted = result.first("tool_result").data();
            assertTrue(counted.path("ok").asBoolean(), counted.toString());
            assertEquals(customersOf(rep), counted.path("result").path("rows").get(0).path("n").asInt(), counted.toString());
            assertEquals("support_rep_" + rep, counted.path("result").path("rows").get(0).path("acting_as").asText());
            // What the model read is the same count.
            String toModel = model.requests().get(1).path("messages").toString();
            assertTrue(toModel.contains("\\\"n\\\":" + customersOf(rep)), toModel);
        }
    }

    @Test
    void aRoleOutsideTheAllowListOrNoRoleIsRefused() {
        given().headers(TestIdentities.headers("mallory", "sql:read", "pg_role=postgres")).contentType(ContentType.JSON)
                .body(QUESTION).when().post("/api/tools/run_sql")
                .then().statusCode(403)
                .body("error", is("forbidden"))
                .body("message", containsString("'postgres'"))
                .body("message", containsString("sqlagent.sources.default.allowed-roles"));
        // A quote in the value is data: compared with the list, never run.
        given().headers(TestIdentities.headers("mallory", "sql:read", "pg_role=support_rep_3\"; RESET ROLE; --"))
                .contentType(ContentType.JSON).body(QUESTION).when().post("/api/tools/run_sql")
                .then().statusCode(403).body("error", is("forbidden"));
        given().headers(TestIdentities.headers("nobody", "sql:read", null)).contentType(ContentType.JSON)
                .body(QUESTION).when().post("/api/tools/run_sql")
                .then().statusCode(403)
                .body("error", is("forbidden"))
                .body("message", containsString("'pg_role' claim"))
                .body("message", containsString("sqlagent.sources.default.role-claim"));
    }
}
