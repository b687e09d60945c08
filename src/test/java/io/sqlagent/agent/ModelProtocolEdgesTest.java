package io.sqlagent.agent;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What a model server sends that it should not: a tool name with a NUL, a stream that cannot be
 * read, an error that echoes the request's API key. Each ends as something a person can act on,
 * read from the SSE wire, and no key reaches a client or the log.
 */
@QuarkusTest
@ScriptedModel
class ModelProtocolEdgesTest {

    @TestHTTPResource("/api/chat")
    URI chat;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    /** Every log line of the service while a test runs, formatted. */
    final List<String> log = new CopyOnWriteArrayList<>();
    final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            log.add(record instanceof org.jboss.logmanager.ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void reset() {
        Logger.getLogger("io.sqlagent").addHandler(capture);
    }

    @AfterEach
    void stopCapturing() {
        Logger.getLogger("io.sqlagent").removeHandler(capture);
    }

    static String ask(String question) {
        return "{\"question\":\"" + question + "\"}";
    }

    @Test
    void aToolNameWithANulIsAnUnknownToolTheModelSeesAndTheRunGoesOn() throws Exception {
        model.then(toolCalls(call("n1", "run_sql\u0000", "{\"sql\":\"SELECT 1\"}"),
                call("n2", "run_sql", "{\"sql\":\"SELECT 'a\u0000b' AS nul\"}")), text("Sorry, fixed."));

        SseClient.Result result = SseClient.chat(chat, ask("Call a strange tool"));

        assertEquals(List.of("conversation", "tool_call", "tool_call", "tool_result", "tool_result", "content", "done"),
                result.names(),
                result.events().toString());
        JsonNode unknown = result.named("tool_result").get(0).data();
        assertEquals("unknown_tool", unknown.path("outcome").asText());
        assertTrue(unknown.path("error").asText().startsWith("No tool is named 'run_sql\uFFFD'"), unknown.toString());
        assertEquals("answer", result.last().data().path("stop_reason").asText());
        // The model got the failure, and so can fix its call.
        String sent = model.requests().get(1).path("messages").toString();
        assertTrue(sent.contains("No tool is named"), sent);
    }

    @Test
    void aStreamThatCannotBeReadIsAModelErrorNotAnEmptyAnswer() throws Exception {
        model.then(new ScriptedOpenAiServer.Raw(List.of(
                "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\n\n",
                "data: [DONE]\n\n")));

        SseClient.Result result = SseClient.chat(chat, ask("Say something"));

        assertEquals(List.of("conversation", "error"), result.names(), result.events().toString());
        JsonNode error = result.last().data();
        assertEquals("model_error", error.path("code").asText());
        assertTrue(error.path("message").asText().startsWith("The model server sent "), error.toString());
    }

    @Test
    void aModelServerThatDoesNotAnswerWithinTheClientsTimeoutIsAModelTimeout() throws Exception {
        // The answer's head comes after 6 s; the client gives up at its 5 s (quarkus.langchain4j.openai.timeout).
        model.latency(java.time.Duration.ofSeconds(6)).then(text("Too late."));

        SseClient.Result result = SseClient.chat(chat, ask("Are you there?"));

        assertEquals(List.of("conversation", "error"), result.names(), result.events().toString());
        assertEquals(new AgentEvent.Error("model_timeout", "The model server did not answer in time "
                + "(quarkus.langchain4j.openai.timeout)").toString(), new AgentEvent.Error(
                        result.last().data().path("code")
                                .asText(),
                        result.last().data().path("message").asText()).toString());
    }

    @Test
    void anErrorThatEchoesTheApiKeyReachesNeitherTheClientNorTheLog() throws Exception {
        model.then(
                new ScriptedOpenAiServer.Failure(401, "Incorrect API key provided in header Authorization: {authorization}"));

        SseClient.Result result = SseClient.chat(chat, ask("Who am I?"));

        assertEquals(List.of("conversation", "error"), result.names());
        JsonNode error = result.last().data();
        assertEquals("model_error", error.path("code").asText());
        assertTrue(error.path("message").asText().contains("Authorization: Bearer ***"), error.toString());
        assertFalse(result.events().toString().contains("test-key-not-secret"), "the API key reached the client");
        assertTrue(log.stream().anyMatch(line -> line.contains("Bearer ***")), log.toString());
        assertFalse(log.stream().anyMatch(line -> line.contains("test-key-not-secret")), "the API key reached the log: " + log);
    }
}
