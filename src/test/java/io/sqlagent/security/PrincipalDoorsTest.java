package io.sqlagent.security;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static io.sqlagent.security.TwoPrincipals.assertNothingOf;
import static io.sqlagent.security.TwoPrincipals.rep;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;
import io.sqlagent.builtin.PolicyFixture;
import io.sqlagent.declarative.DeclarativeTools;
import io.sqlagent.declarative.DeclaredToolsFiles;
import io.sqlagent.security.TwoPrincipals.Customers;
import io.sqlagent.sql.source.Source;
import io.vertx.core.MultiMap;

/**
 * Two principals (support representatives 3 and 4, each mapped to a database role that row-level security limits to
 * their own customers) under a table policy with a hidden column ({@code customer.email}) and denied tables
 * ({@code secret_ledger} and its kin, {@link PolicyFixture}) try what is the other's, or nobody's, through each door:
 * run_sql over REST and over MCP, the agent in a chat, and declared tools. Each gets its own rows, every spelling of a
 * refused read is refused, and no answer, event or model request holds a denied value, a hidden value or the other
 * principal's rows; the other's conversation, run and its events answer 404 as an unknown id does.
 * {@code PrincipalIsolationTest} tries MCP sessions and evaluations, {@code PrincipalKnowledgeTest} knowledge and the
 * fair share of the source.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class PrincipalDoorsTest {

    private static final Path TOOLS = DeclaredToolsFiles.RELOAD_DIR.resolve("doors.yml");
    /**
     * Ways of reading the hidden column, and the service role's own schema by name, beside the denied tables' spellings
     * of {@code policy/spellings.tsv}.
     */
    private static final List<String> MORE_READS = List.of("SELECT * FROM postgres.payroll", "SELECT email FROM customer",
            "TABLE customer",
            "SELECT * FROM customer WHERE support_rep_id = 4", "SELECT c FROM customer c",
            "SELECT to_jsonb(c) ->> 'email' AS e FROM customer c", "SELECT first_name FROM customer ORDER BY email",
            "WITH x AS (SELECT upper(email) AS e FROM customer) SELECT e FROM x",
            "SELECT (SELECT max(email) FROM customer) AS e", "EXPLAIN (VERBOSE) SELECT email FROM customer",
            "SELECT first_name FROM customer WHERE email LIKE 'a%'");

    @RegisterExtension
    static final PolicyFixture POLICY = new PolicyFixture();

    @Inject
    DeclarativeTools tools;

    @TestHTTPResource("/api/chat")
    URI chat;

    private Customers three;
    private Customers four;
    private List<String> emails;

    private static Source chinook() {
        return PolicyFixture.source();
    }

    @BeforeEach
    void twoPrincipals() {
        TwoPrincipals.setUp(chinook());
        three = TwoPrincipals.customersOf(chinook(), 3);
        four = TwoPrincipals.customersOf(chinook(), 4);
        emails = TwoPrincipals.allEmails(chinook());
    }

    @AfterEach
    void noRowLevelSecurityNorTools() throws IOException {
        TwoPrincipals.tearDown(chinook());
        ScriptedModelExtension.server().reset();
        if (Files.deleteIfExists(TOOLS)) {
            chinook().executeWriting("DROP VIEW IF EXISTS public.door_contacts, public.door_notes").await()
                    .atMost(Duration.ofSeconds(10));
            assertThat(tools.reload().applied()).isTrue();
        }
    }

    private static Response runSql(Map<String, String> caller, String sql) {
        return given().headers(caller).contentType(ContentType.JSON)
                .body(SnakeCaseJson.MAPPER.createObjectNode().put("sql", sql).toString()).when().post("/api/tools/run_sql");
    }

    /** The refused lines of the spellings corpus, as SQL. */
    private static List<String> refusedSpellings() {
        return PolicyFixture.lines("policy/spellings.tsv").stream().filter(line -> line.startsWith("refused:"))
                .map(line -> line.split("\t", 2)[1]).toList();
    }

    @Test
    void restRunSqlGivesEachPrincipalItsOwnRowsAndRefusesEveryReadThePolicyRefuses() {
        for (int rep : new int[] { 3, 4 }) {
            Customers own = rep == 3 ? three : four;
            Customers other = rep == 3 ? four : three;
            Response all = runSql(rep(rep, "sql:read"), "SELECT customer_id, first_name, company FROM customer");
            assertThat(all.statusCode()).as(all.asString()).isEqualTo(200);
            assertThat(all.jsonPath().getList("result.rows.customer_id", Integer.class))
                    .containsExactlyInAnyOrderElementsOf(own.ids());
            assertNothingOf(all.asString(), other, emails, "all customers as rep " + rep);
            // Asking for the other's rows by their representative, or one by its id, finds nothing.
            Response asked = runSql(rep(rep, "sql:read"), "SELECT first_name, last_name FROM customer WHERE customer_id = "
                    + other.ids().get(0) + " OR support_rep_id = " + (rep == 3 ? 4 : 3));
            assertThat(asked.jsonPath().getInt("result.row_count")).as(asked.asString()).isZero();
        }
        // Every spelling of the corpus and every way of reading the hidden column, as a principal with a mapped role.
        List<String> refused = new ArrayList<>(refusedSpellings());
        refused.addAll(MORE_READS);
        assertThat(refused).hasSizeGreaterThan(60);
        for (String sql : refused) {
            Response answer = runSql(rep(3, "sql:read"), sql);
            assertNothingOf(answer.asString(), four, emails, sql);
            if (sql.matches(".*FROM \"?payroll.*|TABLE payroll")) {
                // postgres.payroll is on the service role's search path ("$user"), not on a representative's.
                assertThat(answer.jsonPath().getString("message")).as(sql).contains("\"payroll\" does not exist");
                continue;
            }
            assertThat(answer.statusCode()).as(sql + " -> " + answer.asString()).isEqualTo(403);
            assertThat(answer.jsonPath().getString("error")).as(sql).isEqualTo("blocked");
        }
    }

    @Test
    void theAgentOfOnePrincipalReadsNothingOfTheOtherAndTheOtherCannotReadItsConversation() throws Exception {
        ScriptedOpenAiServer model = ScriptedModelExtension.server();
        // Two turns of calls, each within the principal's share of the source (calls of one turn run together).
        model.then(toolCalls(
                call("c1", "run_sql", sql("SELECT note FROM \"public\".ledger_view")),
                call("c2", "run_sql", sql("SELECT x.note FROM (TABLE secret_ledger_child) x")),
                call("c3", "run_sql", sql("SELECT c.first_name, c.email FROM customer c"))),
                toolCalls(
                        call("c4", "run_sql",
                                sql("SELECT first_name, last_name, company FROM customer WHERE support_rep_id = 4")),
                        call("c5", "run_sql", sql("SELECT count(*) AS n FROM customer"))),
                text("Counted."));

        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"Who are all the customers?\"}",
                rep(3, "sql:read,knowledge:read"));

        assertThat(result.status()).isEqualTo(200);
        // The five calls run together: their results come in the order they end, each with its call's id.
        List<JsonNode> results = result.named("tool_result").stream().map(SseClient.Event::data)
                .sorted(Comparator.comparing(data -> data.path("id").asText())).toList();
        assertThat(results).extracting(data -> data.path("id").asText()).containsExactly("c1", "c2", "c3", "c4", "c5");
        for (int i = 0; i < 3; i++) {
            assertThat(results.get(i).path("outcome").asText()).as(results.get(i).toString()).isEqualTo("blocked");
        }
        assertThat(results.get(0).path("error").asText()).contains("secret_ledger");
        assertThat(results.get(1).path("error").asText()).contains("secret_ledger_child");
        assertThat(results.get(2).path("error").asText()).contains("customer.email");
        assertThat(results.get(3).path("result").path("row_count").asInt()).isZero();
        assertThat(results.get(4).path("result").path("rows").get(0).path("n").asInt()).isEqualTo(three.ids().size());
        // Nothing of it in the stream, nor in what the model was sent.
        assertNothingOf(result.events().toString(), four, emails, "the chat's events");
        for (int request = 1; request <= 2; request++) {
            assertNothingOf(model.requests().get(request).path("messages").toString(), four, emails,
                    "the model's request " + request);
        }

        // The other principal, even one with every scope, finds neither the conversation nor its run.
        String conversation = result.conversationId();
        String run = given().headers(rep(3, "sql:read")).when().get("/api/conversations/" + conversation).then()
                .statusCode(200).extract().path("runs[0].run_id");
        Map<String, String> other = rep(4, "admin");
        given().headers(other).when().get("/api/conversations/" + conversation).then().statusCode(404);
        assertThat(given().headers(other).when().get("/api/conversations").then().statusCode(200).extract().asString())
                .doesNotContain(conversation);
        given().headers(other).when().get("/api/chat/runs/" + run + "/events").then().statusCode(404);
        given().headers(other).when().delete("/api/chat/runs/" + run).then().statusCode(404);
        // Nor can it continue the conversation, which would give its model the first one's history.
        given().headers(other).contentType(ContentType.JSON)
                .body("{\"question\":\"And then?\",\"conversation_id\":\"" + conversation + "\"}")
                .when().post("/api/chat").then().statusCode(404);
        assertThat(model.requests()).hasSize(3);
    }

    private static String sql(String statement) {
        return SnakeCaseJson.MAPPER.createObjectNode().put("sql", statement).toString();
    }

    private static String tool(String name, String statement, String parameter) {
        return """
                  %s:
                    source: default
                    description: A door of the isolation test.
                    statement: %s
                    parameters:
                      - { name: %s, type: integer, required: true }
                """.formatted(name, statement, parameter);
    }

    private static Response callTool(Map<String, String> caller, String name, String arguments) {
        return given().headers(caller).contentType(ContentType.JSON).body(arguments).when().post("/api/tools/" + name);
    }

    @Test
    void declaredToolsGiveEachPrincipalItsOwnRowsAndRefuseWhatThePolicyRefuses() throws IOException {
        // Two tools whose statements read nothing refused, and two over views that do not exist yet, so only the
        // plan of each call can tell what they read.
        Files.writeString(TOOLS, "tools:\n"
                + tool("door_customers", "SELECT customer_id, first_name, company FROM customer WHERE support_rep_id = :rep",
                        "rep")
                + tool("door_customer", "SELECT customer_id, first_name FROM customer WHERE customer_id = :id", "id")
                + tool("door_contact", "SELECT * FROM door_contacts WHERE customer_id = :id", "id")
                + tool("door_note", "SELECT * FROM door_notes WHERE id = :id", "id"));
        DeclarativeTools.Reload reload = tools.reload();
        assertThat(reload.applied()).as(reload.problems().toString()).isTrue();
        chinook().executeWriting("CREATE VIEW public.door_contacts AS SELECT customer_id, first_name, email FROM customer")
                .await().atMost(Duration.ofSeconds(10));
        chinook().executeWriting("CREATE VIEW public.door_notes AS SELECT id, note FROM public.secret_ledger")
                .await().atMost(Duration.ofSeconds(10));
        TwoPrincipals.setUp(chinook()); // the representatives may read the new views: the policy must refuse them

        Map<String, String> caller = rep(3, "sql:read");
        Response own = callTool(caller, "door_customers", "{\"rep\": 3}");
        assertThat(own.jsonPath().getList("result.rows.customer_id", Integer.class)).as(own.asString())
                .containsExactlyInAnyOrderElementsOf(three.ids());
        Response others = callTool(caller, "door_customers", "{\"rep\": 4}");
        assertThat(others.jsonPath().getInt("result.row_count")).as(others.asString()).isZero();
        Response byId = callTool(caller, "door_customer", "{\"id\": " + four.ids().get(0) + "}");
        assertThat(byId.jsonPath().getInt("result.row_count")).as(byId.asString()).isZero();
        assertNothingOf(own.asString() + others.asString() + byId.asString(), four, emails, "door_customers");

        for (String[] refused : new String[][] { { "door_contact", "customer.email" }, { "door_note", "secret_ledger" } }) {
            Response answer = callTool(caller, refused[0], "{\"id\": " + three.ids().get(0) + "}");
            assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(403);
            assertThat(answer.jsonPath().getString("message")).contains(refused[1]);
            assertNothingOf(answer.asString(), four, emails, refused[0]);
        }
    }

    @Test
    void mcpRunSqlGivesEachPrincipalItsOwnRowsAndRefusesEveryReadThePolicyRefuses() {
        for (int rep : new int[] { 3, 4 }) {
            Customers own = rep == 3 ? three : four;
            Customers other = rep == 3 ? four : three;
            Map<String, String> headers = rep(rep, "sql:read");
            McpStreamableTestClient client = McpAssured.newStreamableClient()
                    .setAdditionalHeaders(message -> MultiMap.caseInsensitiveMultiMap().addAll(headers)).build().connect();
            try {
                ToolResponse counted = mcpRunSql(client, "SELECT count(*) AS n, current_user AS acting_as FROM customer");
                assertThat(counted.isError()).as(counted.toString()).isFalse();
                String text = counted.content().get(0).asText().text();
                assertThat(text).contains("\"n\":" + own.ids().size()).contains("support_rep_" + rep);
                for (String sql : List.of("TABLE \"secret_ledger\"", "SELECT * FROM secret_ledger*",
                        "WITH c AS (TABLE ledger_view) SELECT * FROM c", "SELECT most_common_vals::text FROM pg_stats",
                        "SELECT c.* FROM customer c", "SELECT first_name, company FROM customer WHERE support_rep_id <> "
                                + rep)) {
                    ToolResponse answer = mcpRunSql(client, sql);
                    String body = answer.content().toString();
                    assertNothingOf(body, other, emails, "MCP " + sql);
                    if (sql.contains("support_rep_id <>")) {
                        assertThat(answer.isError()).as(body).isFalse();
                        assertThat(body).contains("\"row_count\":0");
                    } else {
                        assertThat(answer.isError()).as(sql + " -> " + body).isTrue();
                    }
                }
            } finally {
                client.disconnect();
            }
        }
    }

    private static ToolResponse mcpRunSql(McpStreamableTestClient client, String sql) {
        ToolResponse[] response = new ToolResponse[1];
        client.when().toolsCall("run_sql").withArguments(Map.of("sql", sql)).withAssert(r -> response[0] = r).send()
                .thenAssertResults();
        return response[0];
    }
}
