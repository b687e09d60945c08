package io.sqlagent.agent;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.slowText;
import static io.sqlagent.agent.ScriptedOpenAiServer.stall;
import static io.sqlagent.agent.ScriptedOpenAiServer.stallAfter;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.sqlagent.TestProfiles;
import io.vertx.mutiny.sqlclient.Pool;

/** The limits of a run: the iteration cap, the model's timeout and the run's timeout. */
@QuarkusTest
@TestProfile(TestProfiles.TightAgent.class)
@ScriptedModel(timeout = "1s")
class AgentLimitsTest {

    @TestHTTPResource("/api/chat")
    URI chat;

    @Inject
    Pool store;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    @Test
    void atTheIterationCapTheModelIsAskedToAnswerWithoutTools() throws Exception {
        model.then(toolCalls(call("i1", "introspect_schema", "{}")),
                toolCalls(call("i2", "introspect_schema", "{\"table_name\":\"album\"}")),
                text("Albums belong to artists."));

        SseClient.Result result = SseClient.chat(chat, AgentChatTest.ask("Explain the albums"));

        assertEquals(3, model.requests().size());
        assertFalse(model.requests().get(1).path("tools").isEmpty());
        assertTrue(model.requests().get(2).path("tools").isEmpty(), "the last call offers no tools");
        assertEquals("Albums belong to artists.", result.content());
        JsonNode done = result.last().data();
        assertEquals("done", result.last().name());
        assertEquals("max_iterations", done.path("stop_reason").asText());
        assertEquals(3, done.path("iterations").asInt());
    }

    @Test
    void toolCallsPastTheCapAreNotRun() throws Exception {
        model.then(toolCalls(call("i1", "introspect_schema", "{}")), toolCalls(call("i2", "introspect_schema", "{}")),
                toolCalls(call("i3", "run_sql", "{\"sql\":\"SELECT 1\"}")));

        SseClient.Result result = SseClient.chat(chat, AgentChatTest.ask("Keep going"));

        assertEquals(List.of("i1", "i2"), result.named("tool_call").stream().map(e -> e.data().path("id").asText()).toList());
        assertEquals("max_iterations", result.last().data().path("stop_reason").asText());
        assertEquals(3, model.requests().size());
    }

    @Test
    void aModelThatStopsAnsweringTimesOut() throws Exception {
        model.then(stall(Duration.ofSeconds(5)));

        long started = System.nanoTime();
        SseClient.Result result = SseClient.chat(chat, AgentChatTest.ask("Hello?"));

        assertEquals(List.of("conversation", "error"), result.names(), result.events().toString());
        assertEquals("model_timeout", result.last().data().path("code").asText(), result.last().toString());
        assertTrue(result.last().data().path("message").asText().contains("sqlagent.agent.model-timeout"));
        assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(3)) < 0,
                "the model's 1 s silence ends it, not the 3 s run timeout");
    }

    @Test
    void aModelThatStallsMidAnswerTimesOutAfterWhatItSent() throws Exception {
        // Past the 160-character lookahead, so the client sees the answer begin before the model goes silent.
        String begun = "The answer begins ".repeat(10);
        model.then(stallAfter(Duration.ofSeconds(5), begun, "and then"));
        String question = "Tell me slowly " + System.nanoTime();

        long started = System.nanoTime();
        SseClient.Result result = SseClient.chat(chat, AgentChatTest.ask(question));

        assertEquals(List.of("conversation", "content", "content", "error"), result.names(), result.events().toString());
        assertEquals(begun + "and then", result.content());
        assertEquals("model_timeout", result.last().data().path("code").asText(), result.last().toString());
        assertEquals("The model server sent nothing for 1 s (sqlagent.agent.model-timeout)",
                result.last().data().path("message").asText());
        assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(3)) < 0,
                "the model's 1 s silence ends it, not the 3 s run timeout");
        var run = store.preparedQuery("SELECT outcome, error_code FROM conversation_run WHERE question = $1")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(question)).await().atMost(Duration.ofSeconds(5)).iterator().next();
        assertEquals("error model_timeout", run.getString("outcome") + " " + run.getString("error_code"));
    }

    @Test
    void aModelThatPausesBetweenPiecesForLessThanItsTimeoutIsWaitedFor() throws Exception {
        // 1.2 s in all, longer than the 1 s model timeout, which counts only the silence before a piece
        // (pauses far below it, so a loaded machine does not stretch one past it). A first question warms the client:
        // the first call after a start can itself take a second on a busy machine, which is not what this checks.
        model.then(text("Warm."));
        SseClient.chat(chat, AgentChatTest.ask("Warm up"));
        model.reset();
        model.then(slowText(Duration.ofMillis(150), "Slow ", "but ", "steady ", "all ", "along ", "the ", "way ", "home."));

        SseClient.Result result = SseClient.chat(chat, AgentChatTest.ask("Take your time"));

        assertEquals("done", result.last().name(), result.events().toString());
        assertEquals("Slow but steady all along the way home.", result.content());
    }

    @Test
    void aClientThatStopsReadingIsDroppedAndItsRunCancelledNotTimedOut() throws Exception {
        // A long answer (3 MB, under this profile's answer cap) for a client that reads nothing: 6,000 content events of 500.
        model.then(text(java.util.Collections.nCopies(6_000, "word ".repeat(100)).toArray(String[]::new)));
        String question = "Tell me everything " + System.nanoTime();

        try (java.net.Socket socket = new java.net.Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(new java.net.InetSocketAddress(chat.getHost(), chat.getPort()));
            byte[] body = AgentChatTest.ask(question).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            socket.getOutputStream().write(("POST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Accept: text/event-stream\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            socket.getOutputStream().write(body);
            socket.getOutputStream().flush();

            // The client never reads: the service drops it once 16 events wait beyond what the socket holds,
            // and records the run as cancelled (not model_timeout: the model kept sending all along).
            String outcome = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (outcome == null && System.nanoTime() < deadline) {
                var rows = store.preparedQuery("SELECT outcome, error_code FROM conversation_run WHERE question = $1")
                        .execute(io.vertx.mutiny.sqlclient.Tuple.of(question)).await().atMost(Duration.ofSeconds(5));
                if (rows.size() > 0) {
                    var row = rows.iterator().next();
                    outcome = row.getString("outcome")
                            + (row.getString("error_code") == null ? "" : " " + row.getString("error_code"));
                } else {
                    Thread.sleep(100);
                }
            }
            assertEquals("cancelled", outcome);
        }
    }

    @Test
    void aRunOverItsTimeIsStoppedWithItsStatement() throws Exception {
        model.then(toolCalls(call("slow", "run_sql", "{\"sql\":\"" + ChatRequestsTest.ENDLESS_SQL + "\"}")));

        SseClient.Result result = SseClient.chat(chat, AgentChatTest.ask("Count everything"));

        assertEquals("error", result.last().name(), result.events().toString());
        assertEquals("timeout", result.last().data().path("code").asText(), result.events().toString());
        assertTrue(result.last().data().path("message").asText().contains("sqlagent.agent.timeout"));
        long running = store
                .preparedQuery("SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of("%track a CROSS JOIN track b%"))
                .await().atMost(Duration.ofSeconds(5)).iterator().next().getLong("n");
        for (int attempt = 0; running > 0 && attempt < 100; attempt++) {
            Thread.sleep(50);
            running = store.preparedQuery("SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1")
                    .execute(io.vertx.mutiny.sqlclient.Tuple.of("%track a CROSS JOIN track b%"))
                    .await().atMost(Duration.ofSeconds(5)).iterator().next().getLong("n");
        }
        assertEquals(0, running, "the statement was cancelled with the run");
    }
}
