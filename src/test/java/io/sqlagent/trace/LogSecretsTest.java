package io.sqlagent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;

/**
 * Nothing secret reaches the log, read as the service wrote it (the test profile's log file, with
 * the console's filter and format): requests carrying a bearer token, an API key and a password in
 * a URL, and a model server whose error quotes them back, which the service logs. The line the
 * run logged names the run's trace.
 */
@QuarkusTest
@ScriptedModel
class LogSecretsTest {

    private static final Path LOG = Path.of("target/test-service.log");
    private static final List<String> SECRETS = List.of("sk-proj-LEAKEDkey0123456789", "hunter2-db-pw",
            "eyJhbGciOiJIUzI1NiJ9.leaked-bearer.sig", "topsecret-param-pw", "test-key-not-secret");

    @TestHTTPResource("/api/chat")
    URI chat;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    @Test
    void secretsInRequestsAndInWhatServersSendBackNeverReachTheLog() throws Exception {
        String echoed = "Incorrect API key provided: sk-proj-LEAKEDkey0123456789 (configured test-key-not-secret) for "
                + "postgresql://admin:hunter2-db-pw@db.internal/prod?sslmode=require&password=topsecret-param-pw, "
                + "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.leaked-bearer.sig";
        model.then(new ScriptedOpenAiServer.Failure(401, echoed));

        SseClient.Result result = SseClient.chat(chat,
                "{\"question\":\"Connect to postgresql://admin:hunter2-db-pw@db.internal/prod with key sk-proj-LEAKEDkey0123456789\"}",
                Map.of("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.leaked-bearer.sig", "X-Api-Key",
                        "sk-proj-LEAKEDkey0123456789"));

        assertEquals("error", result.last().name(), result.events().toString());
        String traceId = result.last().data().path("trace_id").asText();
        // The line the run logged, found by the trace id it carries (the file holds every test's lines).
        String line = awaitLine("The model call failed", "traceId=" + traceId);
        assertTrue(line.contains("admin:***@db.internal"), line);
        String log = Files.readString(LOG);
        for (String secret : SECRETS) {
            assertFalse(log.contains(secret), "the log holds " + secret + ":\n" + line);
        }
        for (String secret : SECRETS) {
            assertFalse(result.events().toString().contains(secret), "the events hold " + secret);
        }
    }

    private static String awaitLine(String marker, String trace) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(LOG)) {
                for (String line : Files.readAllLines(LOG)) {
                    if (line.contains(marker) && line.contains(trace)) {
                        return line;
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no log line with '" + marker + "' and '" + trace + "' in " + LOG);
    }
}
