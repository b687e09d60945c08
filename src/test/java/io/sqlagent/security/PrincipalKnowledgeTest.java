package io.sqlagent.security;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static io.sqlagent.security.TwoPrincipals.rep;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

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
import io.sqlagent.Caller;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;
import io.sqlagent.builtin.PolicyFixture;
import io.sqlagent.security.TwoPrincipals.Customers;
import io.sqlagent.sql.run.QueryResult;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.source.Source;
import io.vertx.core.MultiMap;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The two principals of {@link PrincipalDoorsTest} (support representatives 3 and 4 under row-level security, with the
 * Features profile's hidden column, denied tables and governed learning) through the knowledge door and the source
 * they share: approved knowledge is the same for both, what the agent learns from one principal's error holds none of
 * the values that principal read, and one principal holding its whole share of the source with slow statements does
 * not slow the other's short ones, whatever door they come through.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class PrincipalKnowledgeTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** How long another principal's short statement may take while one holds its share: its normal time and then some. */
    private static final Duration SHORT = Duration.ofSeconds(5);

    @RegisterExtension
    static final PolicyFixture POLICY = new PolicyFixture();

    @Inject
    Pool store;

    @Inject
    QueryRunner runner;

    @TestHTTPResource("/api/chat")
    URI chat;

    private final String marker = "door_share_" + System.nanoTime();
    private Customers three;
    private Customers four;

    private static Source chinook() {
        return PolicyFixture.source();
    }

    @BeforeEach
    void twoPrincipals() {
        TwoPrincipals.setUp(chinook());
        three = TwoPrincipals.customersOf(chinook(), 3);
        four = TwoPrincipals.customersOf(chinook(), 4);
    }

    @AfterEach
    void stopTheSlowStatementsAndTheRowLevelSecurity() {
        store.preparedQuery("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE $1"
                + " AND query NOT LIKE '%pg_stat_activity%'").execute(Tuple.of("%" + marker + "%")).await().atMost(WAIT);
        TwoPrincipals.tearDown(chinook());
        ScriptedModelExtension.server().reset();
    }

    private static Response tool(Map<String, String> caller, String name, String arguments) {
        return given().headers(caller).contentType(ContentType.JSON).body(arguments).when().post("/api/tools/" + name);
    }

    private static List<String> searched(Map<String, String> caller, String query) {
        Response found = tool(caller, "search_knowledge", SnakeCaseJson.MAPPER.createObjectNode().put("query", query)
                .put("limit", 20).toString());
        assertThat(found.statusCode()).as(found.asString()).isEqualTo(200);
        List<String> items = new ArrayList<>(found.jsonPath().getList("result.query_patterns.name", String.class));
        items.addAll(found.jsonPath().getList("result.learnings.title", String.class));
        return items;
    }

    @Test
    void approvedKnowledgeIsTheSameForBothAndAProposalIsNeitherUntilApproved() {
        Map<String, String> three = rep(3, "knowledge:read,knowledge:write");
        Map<String, String> four = rep(4, "knowledge:read");
        // The shipped knowledge: both find the same.
        List<String> shipped = searched(three, "invoice total per customer");
        assertThat(shipped).isNotEmpty();
        assertThat(searched(four, "invoice total per customer")).isEqualTo(shipped);

        // One principal's learning is a proposal (approval required): the other does not find it until it is approved.
        String word = "quokka" + System.nanoTime();
        String title = "The " + word + " column counts whole boxes";
        int id = tool(three, "save_learning", SnakeCaseJson.MAPPER.createObjectNode().put("title", title)
                .put("description", "Multiply " + word + " by 12 for items.").put("category", "data_quality").toString())
                .then().statusCode(200).extract().path("result.learning_id");
        assertThat(searched(four, word)).doesNotContain(title);
        given().headers(TestIdentities.headers("rita", "knowledge:review", null)).when()
                .post("/api/knowledge/proposals/learning-" + id + "/approve").then().statusCode(200);
        assertThat(searched(four, word)).contains(title);
        assertThat(searched(three, word)).contains(title);
    }

    @Test
    void whatTheAgentLearnsFromOnePrincipalsErrorHoldsNoValueThatPrincipalRead() throws Exception {
        ScriptedOpenAiServer model = ScriptedModelExtension.server();
        // The cast fails on the first company the role may see, and PostgreSQL's message quotes it.
        model.then(
                toolCalls(call("c1", "run_sql",
                        "{\"sql\":\"SELECT company::int AS n FROM customer WHERE company IS NOT NULL\"}")),
                toolCalls(call("c2", "run_sql", "{\"sql\":\"SELECT count(company) AS n FROM customer\"}")),
                text("Counted."));

        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"How many companies do I serve?\"}",
                rep(3, "sql:read,knowledge:read"));

        JsonNode failed = result.first("tool_result").data();
        assertThat(failed.path("error").asText()).as("the error quotes one of rep 3's companies")
                .containsAnyOf(three.companies().toArray(String[]::new));
        String learned = awaitLearning(result.conversationId());
        for (String company : three.companies()) {
            assertThat(learned).as("the stored learnings").doesNotContain(company);
        }
        // Nor does any door show it to the other principal: search, and the proposals a reviewer reads.
        Map<String, String> four = rep(4, "knowledge:read,knowledge:review");
        String found = tool(four, "search_knowledge", "{\"query\":\"invalid input syntax for type integer\",\"limit\":20}")
                .asString();
        String proposals = given().headers(four).when().get("/api/knowledge/proposals?limit=100").then().statusCode(200)
                .extract().asString();
        for (String company : three.companies()) {
            assertThat(found).doesNotContain(company);
            assertThat(proposals).doesNotContain(company);
        }
    }

    /** Every stored learning's text once this conversation's auto-learning (or the same one, saved before) is there. */
    private String awaitLearning(String conversation) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            long saved = store.preparedQuery("SELECT count(*) FROM learning WHERE source = 'auto' AND (conversation_id = $1"
                    + " OR title LIKE 'invalid input syntax for type integer%')").execute(Tuple.of(conversation))
                    .await().atMost(WAIT).iterator().next().getLong(0);
            if (saved > 0) {
                break;
            }
            Thread.sleep(100);
        }
        StringBuilder text = new StringBuilder();
        store.query("SELECT concat_ws(' | ', title, description, sql) FROM learning").execute().await().atMost(WAIT)
                .forEach(row -> text.append(row.getString(0)).append('\n'));
        assertThat(text.toString()).contains("invalid input syntax for type integer");
        return text.toString();
    }

    @Test
    void onePrincipalHoldingItsShareDoesNotSlowTheOthersDoors() throws Exception {
        // Given representative 3 running as many slow statements as its share of the source allows
        // (through the runner: the guard refuses pg_sleep through every door)
        int share = chinook().limits().perPrincipal();
        Caller holder = Caller.of("rep3@example.com", Set.of("sql:read"), Map.of("pg_role", "support_rep_3"));
        List<CompletableFuture<QueryResult>> slow = new ArrayList<>();
        for (int i = 0; i < share; i++) {
            slow.add(runner.run(chinook(), "SELECT pg_sleep(30) AS slept, '" + marker + "' AS marker", holder)
                    .subscribeAsCompletionStage());
        }
        awaitActive(share);

        // When it asks for one more over REST, it waits in its own line and is refused when none of its statements ends
        tool(rep(3, "sql:read"), "run_sql", "{\"sql\":\"SELECT 1 AS one\"}").then().statusCode(503);

        // while representative 4's short statements answer in their normal time through each door
        Map<String, String> other = rep(4, "sql:read,knowledge:read");
        long started = System.nanoTime();
        tool(other, "run_sql", "{\"sql\":\"SELECT current_user AS acting_as\"}").then().statusCode(200);
        tool(other, "markdown_rows", "{\"n\":1}").then().statusCode(200);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("REST and a declared tool").isLessThan(SHORT);

        started = System.nanoTime();
        McpStreamableTestClient client = McpAssured.newStreamableClient()
                .setAdditionalHeaders(message -> MultiMap.caseInsensitiveMultiMap().addAll(other)).build().connect();
        ToolResponse[] answer = new ToolResponse[1];
        client.when().toolsCall("run_sql").withArguments(Map.of("sql", "SELECT 1 AS one"))
                .withAssert(r -> answer[0] = r).send().thenAssertResults();
        client.disconnect();
        assertThat(answer[0].isError()).as(answer[0].toString()).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("MCP").isLessThan(SHORT);

        ScriptedModelExtension.server().then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT 1 AS one\"}")), text("One."));
        started = System.nanoTime();
        SseClient.Result chatted = SseClient.chat(chat, "{\"question\":\"One?\"}", other);
        assertThat(chatted.first("tool_result").data().path("ok").asBoolean()).as(chatted.events().toString()).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("a chat").isLessThan(SHORT);
        // and the slow statements are still running: nothing was taken from the holder
        assertThat(slow).noneMatch(CompletableFuture::isDone);
    }

    private void awaitActive(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        long active = -1;
        while (System.nanoTime() < deadline) {
            active = store.preparedQuery("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1"
                    + " AND query NOT LIKE '%pg_stat_activity%'").execute(Tuple.of("%" + marker + "%")).await()
                    .atMost(WAIT).iterator().next().getLong(0);
            if (active == expected) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(active + " slow statements running, expected " + expected);
    }
}
