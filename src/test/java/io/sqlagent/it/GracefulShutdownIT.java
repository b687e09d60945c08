package io.sqlagent.it;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.slowText;
import static io.sqlagent.agent.ScriptedOpenAiServer.stall;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * SIGTERM to the packaged service with two chats streaming and tool calls just made: readiness
 * goes DOWN while the chats still stream, a new chat is refused (503 {@code shutting_down} with
 * Retry-After), the chat that finishes within {@code sqlagent.shutdown.grace-period} ends with
 * {@code done}, the one that would not ends with {@code error shutting_down}, the process exits cleanly,
 * and every audit record of the calls made before SIGTERM is in the store afterwards (the audit
 * log's timer is set to an hour, so only the shutdown's drain writes them).
 */
class GracefulShutdownIT {

    private static final Duration READY_WITHIN = Duration.ofSeconds(180);
    private static final int REST_CALLS = 25;

    @TempDir
    Path workDir;

    @Test
    void finishesRunningChatsRefusesNewOnesAndWritesEveryAuditRecordBeforeExiting() throws Exception {
        try (EmbeddedPostgres store = EmbeddedPostgres.builder().start();
                ScriptedOpenAiServer model = ScriptedOpenAiServer.start()) {
            model.program(GracefulShutdownIT::turn);
            // The test's server is the store and the source: no embedded server to start per process.
            Map<String, String> env = ServiceProcess.onExternalDatabase(store.getPort(), model.baseUrl(),
                    "SQLAGENT_SHUTDOWN_GRACE_PERIOD", "5s", "SQLAGENT_AUDIT_FLUSH_INTERVAL", "1h");
            try (ServiceProcess service = ServiceProcess.start(workDir, env)) {
                service.awaitStatus("/q/health/ready", 200, READY_WITHIN);
                URI chat = URI.create("http://localhost:" + service.httpPort + "/api/chat");

                for (int i = 0; i < REST_CALLS; i++) {
                    HttpResponse<String> call = service.postJson("/api/tools/run_sql", "{\"sql\":\"SELECT " + i + " AS n\"}",
                            Duration.ofSeconds(10));
                    assertEquals(200, call.statusCode(), call.body());
                }
                SseClient quick = SseClient.post(chat, "{\"question\":\"quick\"}");
                SseClient slow = SseClient.post(chat, "{\"question\":\"slow\"}");
                quick.until(e -> e.name().equals("tool_result"));
                slow.until(e -> e.name().equals("tool_result"));
                CompletableFuture<SseClient.Result> quickRest = rest(quick);
                CompletableFuture<SseClient.Result> slowRest = rest(slow);

                long sigterm = System.nanoTime();
                service.terminate();

                // Quarkus' own "Graceful Shutdown" check and the service's flip on the same signal, a moment apart.
                HttpResponse<String> ready = awaitReadiness(service, 503, "\"shutting_down\"");
                assertTrue(ready.body().contains("\"shutting_down\""), ready.body());
                assertTrue(!slowRest.isDone(), "readiness is DOWN while the chat still streams");
                HttpResponse<String> refused = service.postJson("/api/chat", "{\"question\":\"another\"}",
                        Duration.ofSeconds(5));
                assertEquals(503, refused.statusCode(), refused.body());
                assertEquals("shutting_down", SnakeCaseJson.MAPPER.readTree(refused.body()).path("error").asText(),
                        refused.body());
                assertTrue(refused.headers().firstValue("Retry-After").isPresent(), refused.headers().toString());

                SseClient.Result quickEnd = quickRest.get(30, TimeUnit.SECONDS);
                assertEquals("done", quickEnd.last().name(), quickEnd.events().toString());
                assertEquals("one two three four", contentOf(quickEnd));
                SseClient.Result slowEnd = slowRest.get(30, TimeUnit.SECONDS);
                JsonNode error = slowEnd.last().data();
                assertEquals("error", slowEnd.last().name(), slowEnd.events().toString());
                assertEquals("shutting_down", error.path("code").asText(), error.toString());
                Duration took = Duration.ofNanos(System.nanoTime() - sigterm);
                assertTrue(took.compareTo(Duration.ofSeconds(4)) > 0 && took.compareTo(Duration.ofSeconds(15)) < 0,
                        "the slow chat ended after the grace period: " + took);

                // 143 = 128 + SIGTERM: how a JVM reports a shutdown on SIGTERM whose hooks all ran to the end.
                assertEquals(143, service.awaitExit(Duration.ofSeconds(30)), service.logText());
                assertTrue(service.logText().contains("sqlagent stopped in"), service.logText());
                assertTrue(service.logText().contains("Shutting down: 2 chat run(s) in progress"), service.logText());
                assertFalse(service.logText().contains("audit records were not written"), service.logText());
            }

            try (Connection connection = store.getPostgresDatabase().getConnection();
                    Statement statement = connection.createStatement()) {
                assertEquals(REST_CALLS + 2, count(statement, "SELECT count(*) FROM tool_call_audit"),
                        "every audited call is stored");
                assertEquals(2, count(statement, "SELECT count(*) FROM conversation_run"));
                assertEquals(1, count(statement, "SELECT count(*) FROM conversation_run WHERE error_code = 'shutting_down'"));
                assertEquals(2, count(statement, "SELECT count(*) FROM chat_run WHERE ended_at IS NOT NULL"),
                        "both runs' last events are stored for a resumed stream");
            }
        }
    }

    /** Each chat calls run_sql first; then "quick" answers in about two seconds and "slow" never does. */
    private static ScriptedOpenAiServer.Turn turn(JsonNode request) {
        JsonNode messages = request.path("messages");
        String question = messages.get(1).path("content").asText();
        boolean toolDone = messages.get(messages.size() - 1).path("role").asText().equals("tool");
        if (!toolDone) {
            return toolCalls(call("c-" + question, "run_sql", "{\"sql\":\"SELECT 1 AS one\"}"));
        }
        return question.equals("quick") ? slowText(Duration.ofMillis(600), "one ", "two ", "three ", "four")
                : stall(Duration.ofSeconds(60));
    }

    private static CompletableFuture<SseClient.Result> rest(SseClient client) {
        return CompletableFuture.supplyAsync(() -> {
            try (client) {
                return client.rest();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static HttpResponse<String> awaitReadiness(ServiceProcess service, int status, String saying) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        Optional<HttpResponse<String>> last = Optional.empty();
        while (System.nanoTime() < deadline) {
            last = service.get("/q/health/ready");
            if (last.isPresent() && last.get().statusCode() == status && last.get().body().contains(saying)) {
                return last.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("readiness did not answer " + status + " saying " + saying + " after SIGTERM: "
                + last.map(HttpResponse::body).orElse("no answer") + "\n" + service.logText());
    }

    private static String contentOf(SseClient.Result result) {
        return result.content();
    }

    private static long count(Statement statement, String sql) throws Exception {
        try (ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
