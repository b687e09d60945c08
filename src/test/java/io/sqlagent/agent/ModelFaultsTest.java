package io.sqlagent.agent;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.AgentChatTest.ask;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.sqlagent.agent.ScriptedOpenAiServer.Failure;
import io.sqlagent.agent.model.ModelResilience;

/**
 * A model server that fails, through the real client and the SSE read from the wire: failures
 * before the answer streams are retried (the server's {@code Retry-After} honoured), failures
 * after it never are, the breaker stops calling a model that stays down, and every run ends with
 * {@code done} or one clear {@code error}, its conversation holding nothing half-written. The test
 * profile waits 20 ms before the first retry, honours a {@code Retry-After} up to 3 s, and opens
 * the breaker after 8 failed calls in a row.
 */
@QuarkusTest
@ScriptedModel
class ModelFaultsTest {

    @TestHTTPResource("/api/chat")
    URI chat;

    @Inject
    ModelResilience resilience;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    @BeforeEach
    void reset() {
        resilience.resetBreakers();
    }

    @AfterEach
    void closeBreakers() {
        resilience.resetBreakers();
    }

    @Test
    void aRateLimitWithRetryAfterIsWaitedOutAndTheRunSucceeds() throws Exception {
        double retried = metric("sqlagent_model_retries_total{reason=\"rate_limited\"");
        model.then(new Failure(429, "slow down", "1"), text("Rested."));

        long started = System.nanoTime();
        SseClient.Result result = SseClient.chat(chat, ask("Limited?"));

        assertEquals(List.of("conversation", "content", "done"), result.names(), result.events().toString());
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() >= 1000, "did not wait for Retry-After");
        assertEquals(2, model.chatRequests());
        assertEquals(retried + 1, metric("sqlagent_model_retries_total{reason=\"rate_limited\""));
    }

    @Test
    void aServerErrorThenSuccessIsRetriedOnceAndTheAnswerIsSentOnce() throws Exception {
        model.then(new Failure(503, "overloaded"), text("Back ", "again."));

        SseClient.Result result = SseClient.chat(chat, ask("Up?"));

        assertEquals(List.of("conversation", "content", "done"), result.names(), result.events().toString());
        assertEquals("Back again.", contentOf(result));
        assertEquals(2, model.chatRequests());
    }

    @Test
    void aModelThatStaysDownEndsWithModelUnavailableNamingTheModelAndTheRetries() throws Exception {
        model.program(request -> new Failure(502, "bad gateway"));

        SseClient.Result result = SseClient.chat(chat, ask("Down?"));

        assertEquals(List.of("conversation", "error"), result.names(), result.events().toString());
        JsonNode error = result.last().data();
        assertEquals("model_unavailable", error.path("code").asText());
        String message = error.path("message").asText();
        assertTrue(message.contains("scripted-model") && message.contains("HTTP 502") && message.contains("bad gateway")
                && message.contains("3 retries"), message);
        assertEquals(4, model.chatRequests());
        assertStored(result, "model_unavailable", 1);
    }

    @Test
    void aRateLimitThatOutlastsTheRetriesIsModelRateLimited() throws Exception {
        model.program(request -> new Failure(429, "quota exceeded"));

        SseClient.Result result = SseClient.chat(chat, ask("Quota?"));

        assertEquals("model_rate_limited", result.last().data().path("code").asText(), result.events().toString());
        assertTrue(result.last().data().path("message").asText().contains("3 retries"), result.last().toString());
    }

    @Test
    void aRetryAfterLongerThanTheMaximumDelayIsNotWaitedFor() throws Exception {
        model.then(new Failure(429, "come back tomorrow", "86400"), text("Never sent."));

        SseClient.Result result = SseClient.chat(chat, ask("Tomorrow?"));

        JsonNode error = result.last().data();
        assertEquals("model_rate_limited", error.path("code").asText(), result.events().toString());
        assertTrue(error.path("message").asText().contains("86400 s"), error.toString());
        assertEquals(1, model.chatRequests());
    }

    @Test
    void aClientErrorOfTheModelServerIsNotRetried() throws Exception {
        model.then(new Failure(400, "bad request"), text("Never sent."));

        SseClient.Result result = SseClient.chat(chat, ask("Bad?"));

        assertEquals("model_error", result.last().data().path("code").asText(), result.events().toString());
        assertEquals(1, model.chatRequests());
    }

    @Test
    void aConnectionResetMidStreamIsNotRetriedAndEndsWithModelInterrupted() throws Exception {
        model.then(ScriptedOpenAiServer.resetAfter("Half an ", "answer"), text("A second answer."));

        SseClient.Result result = SseClient.chat(chat, ask("Reset?"));

        assertEquals("error", result.last().name(), result.events().toString());
        JsonNode error = result.last().data();
        assertEquals("model_interrupted", error.path("code").asText(), result.events().toString());
        assertTrue(error.path("message").asText().contains("scripted-model"), error.toString());
        assertEquals(1, model.chatRequests(), "retried after the answer began");
        assertTrue(!result.events().toString().contains("second answer"), result.events().toString());
        assertStored(result, "model_interrupted", 1);
    }

    @Test
    void aConnectionDroppedBeforeTheAnswerBeganIsRetried() throws Exception {
        double retried = metric("sqlagent_model_retries_total{reason=\"connection\"");
        model.then(ScriptedOpenAiServer.resetAfter(), text("Recovered."));

        SseClient.Result result = SseClient.chat(chat, ask("Dropped?"));

        assertEquals(List.of("conversation", "content", "done"), result.names(), result.events().toString());
        assertEquals(2, model.chatRequests());
        assertEquals(retried + 1, metric("sqlagent_model_retries_total{reason=\"connection\""));
    }

    @Test
    void aStreamThatStopsMidAnswerEndsWithModelInterrupted() throws Exception {
        model.then(ScriptedOpenAiServer.endAfter("The answer is "), text("Never sent."));

        SseClient.Result result = SseClient.chat(chat, ask("Stopped?"));

        JsonNode error = result.last().data();
        assertEquals("model_interrupted", error.path("code").asText(), result.events().toString());
        assertTrue(error.path("message").asText().contains("no finish reason"), error.toString());
        assertEquals(1, model.chatRequests());
        assertStored(result, "model_interrupted", 1);
    }

    @Test
    void malformedChunksEndWithAClearErrorAndAreNotRetried() throws Exception {
        model.then(new ScriptedOpenAiServer.Raw(List.of("data: {\"id\":\"x\",\"choices\":[{\"delta\":{\"content\":\n\n",
                "data: not json at all\n\n", "data: [DONE]\n\n")), text("Never sent."));

        SseClient.Result result = SseClient.chat(chat, ask("Garbled?"));

        assertEquals(List.of("conversation", "error"), result.names(), result.events().toString());
        assertEquals("model_error", result.last().data().path("code").asText());
        assertEquals(1, model.chatRequests());
    }

    @Test
    void aModelThatNeverAnswersEndsWithModelTimeoutAndIsNotRetried() throws Exception {
        // The client's own timeout is 5 s (@ScriptedModel); the answer's head would come after 7 s.
        model.latency(Duration.ofSeconds(7)).then(text("Too late."));

        SseClient.Result result = SseClient.chat(chat, ask("Hello?"));

        assertEquals(List.of("conversation", "error"), result.names(), result.events().toString());
        assertEquals("model_timeout", result.last().data().path("code").asText());
        assertEquals(1, model.chatRequests());
    }

    @Test
    void theBreakerOpensAfterCallsInARowFailAndClosesWhenTheModelAnswersAgain() throws Exception {
        model.program(request -> new Failure(500, "down"));
        for (int run = 0; run < 8; run++) {
            assertEquals("model_unavailable",
                    SseClient.chat(chat, ask("Down " + run + "?")).last().data().path("code").asText());
        }
        int calls = model.chatRequests();
        assertEquals(1.0, metric("sqlagent_model_circuit_open{model=\"scripted-model\""));

        SseClient.Result refused = SseClient.chat(chat, ask("Still down?"));

        JsonNode error = refused.last().data();
        assertEquals("model_unavailable", error.path("code").asText());
        assertTrue(error.path("message").asText().contains("circuit breaker is open"), error.toString());
        assertEquals(calls, model.chatRequests(), "an open breaker still called the model");

        resilience.resetBreakers();
        model.reset();
        model.then(text("Up again."));
        assertEquals("done", SseClient.chat(chat, ask("Up?")).last().name());
        assertEquals(0.0, metric("sqlagent_model_circuit_open{model=\"scripted-model\""));
    }

    @Test
    void aFailureAfterAToolCallKeepsTheStepsAndTheNextQuestionIsServed() throws Exception {
        model.then(toolCalls(call("t1", "run_sql", "{\"sql\":\"SELECT 1 AS one\"}")));
        model.program(request -> new Failure(503, "gone"));

        SseClient.Result failed = SseClient.chat(chat, ask("One?"));

        assertEquals(List.of("conversation", "tool_call", "tool_result", "error"), failed.names(), failed.events().toString());
        JsonPath stored = stored(failed);
        // The question, the call and its result: every step that happened, whole, and no answer.
        assertEquals(List.of("user", "assistant", "tool"), stored.getList("messages.role"));
        assertEquals("model_unavailable", stored.getString("runs[0].error_code"));

        model.reset();
        model.then(text("Served."));
        assertEquals("done", SseClient.chat(chat, ask("Next?")).last().name());
    }

    @Test
    void questionsOneAfterAnotherReuseTheModelsConnections() throws Exception {
        for (int question = 0; question < 5; question++) {
            model.then(toolCalls(call("q" + question, "run_sql", "{\"sql\":\"SELECT 1 AS one\"}")), text("One."));
            assertEquals("done", SseClient.chat(chat, ask("One " + question + "?")).last().name());
        }

        assertEquals(10, model.chatRequests());
        assertTrue(model.connections() <= 2, model.connections() + " connections for 10 model calls");
    }

    @Inject
    io.vertx.mutiny.sqlclient.Pool store;

    /**
     * Ends every connection to {@code database} but this one, as a restart of PostgreSQL does to the
     * service's pools (the embedded server is shared by every test, so it is not itself restarted).
     */
    private void dropConnections(String database) {
        store.preparedQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                + " WHERE datname = $1 AND pid <> pg_backend_pid()")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(database)).await().atMost(Duration.ofSeconds(10));
    }

    @Test
    void theStoreDroppingItsConnectionsMidRunEndsTheRunCleanlyAndTheNextQuestionIsServed() throws Exception {
        model.then(toolCalls(call("s1", "run_sql", "{\"sql\":\"SELECT 2 AS two\"}")));
        model.program(request -> {
            dropConnections(io.sqlagent.embedded.EmbeddedDatabase.STORE_DATABASE);
            return text("Two.");
        });

        SseClient.Result result = SseClient.chat(chat, ask("Two?"));

        assertEndsCleanly(result);
        List<String> roles = stored(result).getList("messages.role");
        List<String> steps = List.of("user", "assistant", "tool", "assistant");
        // Whole steps only: all four after done; after an error, the steps stored before it and no answer.
        if ("done".equals(result.last().name())) {
            assertEquals(steps, roles);
        } else {
            assertEquals("store_unavailable", result.last().data().path("code").asText(), result.last().toString());
            assertTrue(!roles.isEmpty() && roles.size() < 4 && roles.equals(steps.subList(0, roles.size())), roles.toString());
        }
        model.reset();
        model.then(text("Still here."));
        assertEquals("done", SseClient.chat(chat, ask("Next?")).last().name());
    }

    @Test
    void aSourceDroppingItsConnectionsMidRunIsAToolResultAndTheNextQuestionIsServed() throws Exception {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        model.program(request -> {
            if (calls.getAndIncrement() == 0) {
                dropConnections(io.sqlagent.embedded.EmbeddedDatabase.DEMO_DATABASE);
                return toolCalls(call("d1", "run_sql", "{\"sql\":\"SELECT count(*) AS n FROM artist\"}"));
            }
            return text("Counted.");
        });

        SseClient.Result result = SseClient.chat(chat, ask("Artists?"));

        assertEquals("done", result.last().name(), result.events().toString());
        assertEquals(List.of("user", "assistant", "tool", "assistant"), stored(result).getList("messages.role"));
        model.reset();
        model.then(toolCalls(call("d2", "run_sql", "{\"sql\":\"SELECT count(*) AS n FROM artist\"}")), text("275."));
        SseClient.Result next = SseClient.chat(chat, ask("Artists again?"));
        assertEquals("done", next.last().name(), next.events().toString());
        assertTrue(next.first("tool_result").data().path("ok").asBoolean(), next.events().toString());
    }

    /** The run ended with {@code done} or one {@code error} with a code and a message, and nothing after it. */
    private static void assertEndsCleanly(SseClient.Result result) {
        String last = result.last().name();
        assertTrue(last.equals("done") || last.equals("error"), result.events().toString());
        assertEquals(1, result.named(last).size(), result.events().toString());
        if (last.equals("error")) {
            assertTrue(!result.last().data().path("code").asText().isEmpty(), result.last().toString());
            assertTrue(!result.last().data().path("message").asText().contains("Exception"), result.last().toString());
        }
    }

    private static String contentOf(SseClient.Result result) {
        StringBuilder text = new StringBuilder();
        result.named("content").forEach(event -> text.append(event.data().path("delta").asText()));
        return text.toString();
    }

    private static JsonPath stored(SseClient.Result result) {
        return given().when().get("/api/conversations/" + result.conversationId()).then().statusCode(200).extract()
                .jsonPath();
    }

    /** The run's record names the error, and the conversation holds the question and no answer. */
    private static void assertStored(SseClient.Result result, String code, int messages) {
        JsonPath stored = stored(result);
        assertEquals("error", stored.getString("runs[0].outcome"));
        assertEquals(code, stored.getString("runs[0].error_code"));
        assertEquals(messages, stored.getList("messages").size(), stored.prettify());
        assertEquals("user", stored.getString("messages[0].role"));
    }

    static double metric(String prefix) {
        String text = given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString();
        return text.lines().filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
