package io.sqlagent.agent;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.http.RawHttp;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * What {@code /api/chat} refuses before a run (clear error, right status, nothing stored, the
 * model never called), and what a client that goes away does to a run: it is cancelled, and so is
 * its statement in the database.
 */
@QuarkusTest
@ScriptedModel
class ChatRequestsTest {

    /** Runs for minutes unless cancelled: 3503³ rows to count. */
    static final String ENDLESS_SQL = "SELECT count(*) AS n FROM track a CROSS JOIN track b CROSS JOIN track c";

    @TestHTTPResource("/api/chat")
    URI chat;

    @Inject
    Pool store;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    private long conversations() {
        return store.query("SELECT count(*) AS n FROM conversation").execute().await().atMost(Duration.ofSeconds(10))
                .iterator().next().getLong("n");
    }

    private void refused(String body, int status, String code, String message) {
        long before = conversations();
        given().contentType("application/json").body(body).when().post("/api/chat").then()
                .statusCode(status).contentType("application/json")
                .body("error", is(code)).body("message", containsString(message));
        assertEquals(before, conversations(), "nothing is stored for a refused request");
        assertTrue(model.requests().isEmpty(), "the model is not called for a refused request");
    }

    @Test
    void badRequestsAreRefusedBeforeAnyEvent() throws Exception {
        refused("{\"question\": ", 400, "malformed_json", "not valid JSON");
        refused("[\"How many tracks?\"]", 400, "invalid_body", "not an array");
        refused("{}", 400, "missing_question", "needs a question");
        refused("{\"question\":\"   \"}", 400, "missing_question", "blank");
        refused("{\"question\":42}", 400, "invalid_question", "must be a string");
        refused("{\"question\":\"" + "x".repeat(8001) + "\"}", 400, "question_too_long", "sqlagent.agent.max-question-length");
        refused("{\"question\":\"hi\",\"temperature\":2}", 400, "unknown_field", "temperature");
        refused("{\"question\":\"hi\",\"conversation_id\":\"42\"}", 400, "invalid_conversation_id", "UUID");
        refused("{\"question\":\"hi\",\"question\":\"again\"}", 400, "malformed_json", "Duplicate field");
        refused("{\"question\":\"hi\",\"toolsets\":\"sales\"}", 400, "invalid_toolsets", "an array of toolset names");
        refused("{\"question\":\"hi\",\"toolsets\":[]}", 400, "invalid_toolsets", "an array of toolset names");
        refused("{\"question\":\"hi\",\"toolsets\":[1]}", 400, "invalid_toolsets", "an array of toolset names");
        refused("{\"question\":\"hi\",\"toolsets\":[\"no_such_set\"]}", 400, "unknown_toolset", "Unknown toolset no_such_set");
        RawHttp.Response tooLarge = RawHttp.oversizedPost(io.restassured.RestAssured.port, "/api/chat");
        assertThat(tooLarge.status()).as(tooLarge.body()).isEqualTo(413);
        assertThat(tooLarge.body()).contains("\"error\":\"body_too_large\"", "sqlagent.tools.max-request-size");
    }

    @Test
    void bodiesOfEveryOtherShapeKeepTheirErrorNamingTheField() {
        refused("{\"question\":null}", 400, "missing_question", "needs a question");
        refused("", 400, "missing_question", "needs a question");
        refused("{\"question\":\"\u2003\"}", 400, "missing_question", "blank");
        refused("{\"question\":[\"How many tracks?\"]}", 400, "invalid_question", "question must be a string");
        refused("{\"question\":{\"text\":\"hi\"}}", 400, "invalid_question", "question must be a string");
        refused("{\"question\":true}", 400, "invalid_question", "question must be a string");
        refused("{\"question\":\"hi\",\"conversation_id\":42}", 400, "invalid_conversation_id", "UUID");
        refused("{\"question\":\"hi\",\"conversation_id\":\"1-2-3-4-5\"}", 400, "invalid_conversation_id", "UUID");
        refused("{\"question\":\"hi\",\"toolsets\":{\"sales\":true}}", 400, "invalid_toolsets", "an array of toolset names");
        refused("{\"question\":\"hi\",\"toolsets\":[\" \"]}", 400, "invalid_toolsets", "an array of toolset names");
        refused("{\"question\":\"hi\",\"toolsets\":[null]}", 400, "invalid_toolsets", "an array of toolset names");
        refused("{\"question\":\"hi\",\"toolsets\":[" + "\"s\",".repeat(50) + "\"s\"]}", 400, "invalid_toolsets",
                "at most 50");
        refused("\"How many tracks?\"", 400, "invalid_body", "not a string");
        refused("42", 400, "invalid_body", "not a number");
        refused("{\"question\":\"hi\"} x", 400, "malformed_json", "not valid JSON");
        refused("{\"question\":\"hi\"}{}", 400, "malformed_json", "more after its JSON value");
        refused("{\"question\":\"hi\",\"toolsets\":" + "[".repeat(5000) + "]".repeat(5000) + "}", 400,
                "invalid_toolsets", "an array of toolset names");

        String longName = "f".repeat(5000);
        String message = given().contentType("application/json").body("{\"question\":\"hi\",\"" + longName + "\":1}")
                .when().post("/api/chat").then().statusCode(400).body("error", is("unknown_field"))
                .extract().path("message");
        assertThat(message).startsWith("Unknown field 'ffff").contains("question").hasSizeLessThan(300);
    }

    @Test
    void aBodyWithoutAContentTypeIsReadAsJson() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        for (String body : new String[] { "", "{\"question\":\"   \"}" }) {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(chat).POST(BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
            assertThat(answer.body()).contains("\"error\":\"missing_question\"");
        }
        assertThat(model.requests()).isEmpty();
    }

    @Test
    void readingAConversationNeedsAKnownUuid() {
        given().when().get("/api/conversations/not-a-uuid").then().statusCode(400).body("error", is("invalid_conversation_id"));
        given().when().get("/api/conversations/00000000-0000-0000-0000-000000000001").then().statusCode(404)
                .body("error", is("conversation_not_found"));
    }

    @Test
    void aClientThatGoesAwayCancelsTheRunAndItsStatement() throws Exception {
        model.then(toolCalls(call("slow", "run_sql", "{\"sql\":\"" + ENDLESS_SQL + "\"}")));
        String conversation;
        try (SseClient client = SseClient.post(chat, AgentChatTest.ask("Count everything"))) {
            conversation = client.until(e -> e.name().equals("conversation")).data().path("conversation_id").asText();
            client.until(e -> e.name().equals("tool_call"));
            awaitStatement(true);
        }
        // The client is gone: the statement is cancelled in the database, long before its 30 s timeout.
        awaitStatement(false);
        String outcome = awaitRunOutcome(conversation);
        assertEquals("cancelled", outcome);
        assertEquals(1, model.requests().size(), "the model is not called again");
    }

    /** Waits (at most 10 s) until the endless statement is (or is no longer) running in PostgreSQL. */
    void awaitStatement(boolean running) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            long count = store
                    .preparedQuery("SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1")
                    .execute(io.vertx.mutiny.sqlclient.Tuple.of("%track a CROSS JOIN track b%"))
                    .await().atMost(Duration.ofSeconds(5)).iterator().next().getLong("n");
            // The monitoring query itself contains the text too, but as a parameter, not in its own query text.
            if ((count > 0) == running) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(running ? "the statement never started" : "the statement is still running");
            }
            Thread.sleep(50);
        }
    }

    private String awaitRunOutcome(String conversation) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            var rows = store.preparedQuery("SELECT outcome FROM conversation_run WHERE conversation_id = $1::uuid")
                    .execute(io.vertx.mutiny.sqlclient.Tuple.of(conversation)).await().atMost(Duration.ofSeconds(5));
            if (rows.size() > 0) {
                return rows.iterator().next().getString("outcome");
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the run was never recorded");
            }
            Thread.sleep(50);
        }
    }
}
