package io.sqlagent.it;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;

/**
 * The packaged service as a user runs it: pointed at an OpenAI-compatible server by environment
 * variables only, it answers a chat with real tool calls on Chinook; with no model configured it
 * still starts, and a chat gets one error event naming the settings.
 */
class AgentChatIT {

    private static final Duration READY_WITHIN = Duration.ofSeconds(60);

    @TempDir
    Path workDir;

    @Test
    void answersAQuestionThroughAnOpenAiCompatibleServerAndStartsWithoutOne() throws Exception {
        try (ScriptedOpenAiServer model = ScriptedOpenAiServer.start()) {
            model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT count(*) AS tracks FROM track\"}")),
                    text("There are 3503 tracks."));
            Map<String, String> env = Map.of(
                    "QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL", model.baseUrl(),
                    "QUARKUS_LANGCHAIN4J_OPENAI_CHAT_MODEL_MODEL_NAME", "llama3.1");
            try (ServiceProcess service = ServiceProcess.start(workDir, env)) {
                service.awaitStatus("/q/health/ready", 200, READY_WITHIN);

                SseClient.Result result = SseClient.chat(URI.create("http://localhost:" + service.httpPort + "/api/chat"),
                        "{\"question\":\"How many tracks are there?\"}");

                assertEquals(List.of("conversation", "tool_call", "tool_result", "content", "done"), result.names(),
                        result.events().toString());
                assertEquals(3503,
                        result.named("tool_result").get(0).data().path("result").path("rows").get(0).path("tracks").asInt());
                assertEquals("There are 3503 tracks.", result.content());
                assertEquals("llama3.1", model.requests().get(0).path("model").asText());
                assertFalse(service.logText().contains("ERROR"), service.logText());
            }
        }
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of())) {
            service.awaitStatus("/q/health/ready", 200, READY_WITHIN);

            SseClient.Result result = SseClient.chat(URI.create("http://localhost:" + service.httpPort + "/api/chat"),
                    "{\"question\":\"How many tracks are there?\"}");

            assertEquals(List.of("error"), result.names());
            assertEquals("model_not_configured", result.last().data().path("code").asText());
            assertTrue(result.last().data().path("message").asText().contains("QUARKUS_LANGCHAIN4J_OPENAI_API_KEY"));
        }
    }
}
