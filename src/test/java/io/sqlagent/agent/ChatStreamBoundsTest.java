package io.sqlagent.agent;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.Collections;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What one model turn may stream is bounded ({@code sqlagent.agent.max-answer-chars}, 200,000 by
 * default): a model that streams megabytes is stopped at the cap, with a clear error, instead of
 * being read into memory to the end.
 */
@QuarkusTest
@ScriptedModel
class ChatStreamBoundsTest {

    private static final int CAP = 200_000;

    @TestHTTPResource("/api/chat")
    URI chat;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    /** 20 MB of text in 10,000-character pieces (one string, many times). */
    private static String[] twentyMegabytes() {
        return Collections.nCopies(2_000, "x".repeat(10_000)).toArray(String[]::new);
    }

    @Test
    void aModelThatStreamsAHugeAnswerIsStoppedAtTheCapWithAnError() throws Exception {
        model.then(text(twentyMegabytes()));

        long started = System.nanoTime();
        SseClient.Result result = SseClient.chat(chat, AgentChatTest.ask("Write forever"));

        assertEquals("error", result.last().name(), result.names().stream().distinct().toList().toString());
        assertEquals("answer_too_long", result.last().data().path("code").asText());
        assertTrue(result.last().data().path("message").asText().contains("sqlagent.agent.max-answer-chars"),
                result.last().toString());
        assertTrue(result.content().length() <= CAP, "content sent: " + result.content().length());
        assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(10)) < 0,
                "stopped, not read to the end");
    }

    @Test
    void hugeToolCallArgumentsCountAgainstTheCapToo() throws Exception {
        String sql = "SELECT '" + "y".repeat(CAP) + "' AS big";
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"" + sql + "\"}")));

        SseClient.Result result = SseClient.chat(chat, AgentChatTest.ask("Run a huge statement"));

        assertEquals("answer_too_long", result.last().data().path("code").asText(),
                result.events().toString().substring(0, 200));
        assertTrue(result.named("tool_call").isEmpty(), "the call was never run");
    }
}
