package io.sqlagent.agent;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.slowText;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.live.RunEvent;
import io.sqlagent.security.TestIdentities;

/**
 * Resumable chat streams, read from the wire: every event of {@code POST /api/chat} has an id
 * {@code <run id>:<seq>}; {@code GET /api/chat/runs/{id}/events} with {@code Last-Event-ID} gives
 * the events after it, live ones included, then ends with the run. Bad ids and other callers' runs
 * are refused with the one error body.
 */
@QuarkusTest
@ScriptedModel
class ChatResumeTest {

    @TestHTTPResource("/api/chat")
    URI chat;

    @TestHTTPResource("/")
    URI root;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    private URI events(String runId) {
        return root.resolve("/api/chat/runs/" + runId + "/events");
    }

    private static String runOf(SseClient.Event event) {
        return event.id().substring(0, event.id().indexOf(':'));
    }

    @Test
    void everyEventHasAnIdAndAFinishedRunReplaysTheRestAfterLastEventId() throws Exception {
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT count(*) AS tracks FROM track\"}")),
                text("There are ", "3503 tracks."));
        SseClient.Result original = SseClient.chat(chat, "{\"question\":\"How many tracks?\"}");
        assertEquals("done", original.last().name(), original.events().toString());

        String runId = runOf(original.events().get(0));
        for (int i = 0; i < original.events().size(); i++) {
            assertEquals(runId + ":" + (i + 1), original.events().get(i).id(), original.events().toString());
        }

        SseClient.Result rest = read(events(runId), Map.of("Last-Event-ID", original.events().get(1).id()));
        assertEquals(200, rest.status());
        assertEquals(original.events().subList(2, original.events().size()), rest.events());

        SseClient.Result all = read(events(runId), Map.of());
        assertEquals(original.events(), all.events());

        // An ended run resumed at its last event: 204, so that an EventSource stops reconnecting
        try (SseClient nothingLeft = SseClient.get(events(runId), Map.of("Last-Event-ID", original.last().id()))) {
            assertEquals(204, nothingLeft.status());
            assertEquals("", nothingLeft.body());
        }
    }

    @Test
    void everyLineOnTheWireIsAnSseField() throws Exception {
        model.then(text("There are 3503 tracks."));
        try (SseClient client = SseClient.post(chat, "{\"question\":\"How many tracks?\"}")) {
            SseClient.Result result = client.rest();
            assertEquals("done", result.last().name(), result.events().toString());
            assertEquals(List.of(), client.foreignLines());
            try (SseClient resumed = SseClient.get(events(runOf(result.events().get(0))), Map.of())) {
                assertEquals(result.events(), resumed.rest().events());
                assertEquals(List.of(), resumed.foreignLines());
            }
        }
    }

    @Test
    void resumesALiveRunInTheMiddleAndFollowsItToItsEnd() throws Exception {
        // Longer than sqlagent.agent.thinking-lookahead: the answer streams as content from its first piece.
        String opening = "Counting slowly, one number at a time, so that a second connection opened in the middle of "
                + "the answer has something left to follow while the run goes on: ";
        model.then(slowText(Duration.ofMillis(150), opening, "one ", "two ", "three ", "four ", "five ", "six ", "seven ",
                "eight"));
        try (SseClient first = SseClient.post(chat, "{\"question\":\"Count slowly\"}")) {
            List<SseClient.Event> seen = new ArrayList<>();
            seen.add(first.until(e -> e.name().equals("conversation")));
            seen.add(first.until(e -> e.name().equals("content")));

            // A second connection while the run streams: what the first has not seen yet, then the live rest.
            SseClient.Result resumed = read(events(runOf(seen.get(1))), Map.of("Last-Event-ID", seen.get(1).id()));
            SseClient.Result rest = first.rest();

            assertEquals(rest.events(), resumed.events(), "the resumed stream is the rest of the original");
            assertEquals("done", resumed.last().name());
            assertTrue(resumed.named("content").size() >= 5, resumed.events().toString());
            StringBuilder answer = new StringBuilder(seen.get(1).data().path("delta").asText());
            resumed.named("content").forEach(e -> answer.append(e.data().path("delta").asText()));
            assertEquals(opening + "one two three four five six seven eight", answer.toString());
        }
    }

    @Test
    void aRunWhoseClientWentAwayIsCancelledAndItsStoredStreamSaysSo() throws Exception {
        // The test profile sets sqlagent.chat.resume.detached-timeout=0s: no waiting for a client to come back.
        // A first piece longer than sqlagent.agent.thinking-lookahead streams as content at once, while the run goes on.
        model.then(slowText(Duration.ofMillis(300), "Counting slowly: " + "one, ".repeat(40), "b", "c", "d", "e", "f", "g",
                "h", "i", "j"));
        String runId;
        try (SseClient client = SseClient.post(chat, "{\"question\":\"Count very slowly\"}")) {
            runId = runOf(client.until(e -> e.name().equals("content")));
        }
        SseClient.Result resumed = awaitEnded(runId);
        assertEquals("error", resumed.last().name(), resumed.events().toString());
        assertEquals("client_gone", resumed.last().data().path("code").asText());
        assertTrue(resumed.named("content").size() < 10, resumed.events().toString());
    }

    @Test
    void aRunIsCancelledByItsCallerWhileItsStreamIsOpen() throws Exception {
        model.then(slowText(Duration.ofMillis(300), "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"));
        try (SseClient client = SseClient.post(chat, "{\"question\":\"Count very slowly\"}",
                Map.of(TestIdentities.PRINCIPAL, "alice"))) {
            String runId = runOf(client.until(e -> e.name().equals("conversation")));
            URI run = root.resolve("/api/chat/runs/" + runId);

            assertEquals(404, delete(run, "bob"), "another caller's run is not found");
            assertEquals(204, delete(run, "alice"));

            SseClient.Result rest = client.rest();
            assertEquals("error", rest.last().name(), rest.events().toString());
            assertEquals("cancelled", rest.last().data().path("code").asText());
            assertEquals(409, delete(run, "alice"), "an ended run cannot be cancelled again");
            assertEquals(400, delete(root.resolve("/api/chat/runs/nope"), "alice"));
        }
    }

    private static int delete(URI uri, String principal) throws Exception {
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(uri).header(TestIdentities.PRINCIPAL, principal).DELETE().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        return response.statusCode();
    }

    @Test
    void refusesBadIdsWithTheOneErrorBody() throws Exception {
        model.then(text("Done."));
        SseClient.Result run = SseClient.chat(chat, "{\"question\":\"Hi\"}");
        String runId = runOf(run.events().get(0));

        assertError(events("not-a-uuid"), Map.of(), 400, "invalid_run_id");
        assertError(events(runId), Map.of("Last-Event-ID", "garbage"), 400, "invalid_last_event_id");
        assertError(events(runId), Map.of("Last-Event-ID", runId + ":-1"), 400, "invalid_last_event_id");
        assertError(events(runId), Map.of("Last-Event-ID", UUID.randomUUID() + ":1"), 400, "invalid_last_event_id");
        assertError(events(runId), Map.of("Last-Event-ID", runId + ":999"), 400, "invalid_last_event_id");
        assertError(events(UUID.randomUUID().toString()), Map.of(), 404, "run_not_found");
    }

    @Test
    void aCallerResumesOnlyItsOwnRuns() throws Exception {
        model.then(text("Alice's answer."));
        SseClient.Result alices = SseClient.chat(chat, "{\"question\":\"Mine\"}", Map.of(TestIdentities.PRINCIPAL, "alice"));
        String runId = runOf(alices.events().get(0));

        assertError(events(runId), Map.of(TestIdentities.PRINCIPAL, "bob"), 404, "run_not_found");
        assertError(events(runId), Map.of(), 404, "run_not_found");
        assertEquals(alices.events(), read(events(runId), Map.of(TestIdentities.PRINCIPAL, "alice")).events());
    }

    private static SseClient.Result read(URI uri, Map<String, String> headers) throws Exception {
        try (SseClient client = SseClient.get(uri, headers)) {
            assertEquals(200, client.status(), () -> body(client));
            return client.rest();
        }
    }

    /** The stored stream of a run, once it has its last event. */
    private SseClient.Result awaitEnded(String runId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            SseClient.Result stored = read(events(runId), Map.of());
            if (!stored.events().isEmpty() && RunEvent.isLast(stored.last().name())) {
                return stored;
            }
            assertTrue(System.nanoTime() < deadline, "the run did not end: " + stored.events());
            Thread.sleep(100);
        }
    }

    private static void assertError(URI uri, Map<String, String> headers, int status, String code) throws Exception {
        try (SseClient client = SseClient.get(uri, headers)) {
            String body = client.body();
            assertEquals(status, client.status(), body);
            assertTrue(client.contentType().startsWith("application/json"), client.contentType());
            JsonNode error = SnakeCaseJson.MAPPER.readTree(body);
            assertEquals(code, error.path("error").asText(), body);
            assertTrue(error.path("message").asText().length() > 10, body);
        }
    }

    private static String body(SseClient client) {
        try {
            return client.body();
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
