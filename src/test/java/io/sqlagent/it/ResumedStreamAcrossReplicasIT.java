package io.sqlagent.it;

import static io.sqlagent.agent.ScriptedOpenAiServer.slowText;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * Two packaged service processes on one store, as two replicas behind one Service: a chat's
 * connection to the first drops mid-answer, the client reconnects to the second with
 * {@code Last-Event-ID} and gets the events it missed and then the live ones until {@code done},
 * while the first replica goes on running the chat. After the end, either replica replays it.
 */
class ResumedStreamAcrossReplicasIT {

    private static final Duration READY_WITHIN = Duration.ofSeconds(180);
    /** Longer than sqlagent.agent.thinking-lookahead: the answer streams as content from its first piece. */
    private static final String OPENING = "Counting to twelve, slowly and carefully, one number at a time, so that a client "
            + "whose connection drops somewhere in the middle has something left to resume: ";
    private static final String ANSWER = OPENING + "one two three four five six seven eight nine ten eleven twelve";

    @TempDir
    Path workDir;

    @Test
    void aStreamDroppedOnOneReplicaResumesOnTheOther() throws Exception {
        try (EmbeddedPostgres store = EmbeddedPostgres.builder().start();
                ScriptedOpenAiServer model = ScriptedOpenAiServer.start()) {
            List<String> pieces = new ArrayList<>(List.of(OPENING));
            pieces.addAll(List.of(ANSWER.substring(OPENING.length()).split("(?<= )")));
            model.program(request -> slowText(Duration.ofMillis(250), pieces.toArray(String[]::new)));
            // The test's server is the store and the source: no embedded server to start per process.
            Map<String, String> env = ServiceProcess.onExternalDatabase(store.getPort(), model.baseUrl());
            try (ServiceProcess first = ServiceProcess.start(Files.createDirectories(workDir.resolve("a")), env);
                    ServiceProcess second = ServiceProcess.start(Files.createDirectories(workDir.resolve("b")), env)) {
                first.awaitStatus("/q/health/ready", 200, READY_WITHIN);
                second.awaitStatus("/q/health/ready", 200, READY_WITHIN);

                List<SseClient.Event> seen = new ArrayList<>();
                try (SseClient dropped = SseClient.post(uri(first, "/api/chat"), "{\"question\":\"Count to twelve\"}")) {
                    seen.add(dropped.until(e -> e.name().equals("conversation")));
                    seen.add(dropped.until(e -> e.name().equals("content")));
                    seen.add(dropped.until(e -> e.name().equals("content")));
                } // the connection drops mid-answer
                SseClient.Event last = seen.get(seen.size() - 1);
                String runId = last.id().substring(0, last.id().indexOf(':'));
                int lastSeq = Integer.parseInt(last.id().substring(last.id().indexOf(':') + 1));

                SseClient.Result resumed;
                try (SseClient client = SseClient.get(uri(second, "/api/chat/runs/" + runId + "/events"),
                        Map.of("Last-Event-ID", last.id()))) {
                    assertEquals(200, client.status());
                    resumed = client.rest();
                }

                assertEquals("done", resumed.last().name(), resumed.events().toString());
                for (int i = 0; i < resumed.events().size(); i++) {
                    assertEquals(runId + ":" + (lastSeq + 1 + i), resumed.events().get(i).id(), "no event missed or repeated");
                }
                StringBuilder answer = new StringBuilder();
                seen.stream().filter(e -> e.name().equals("content"))
                        .forEach(e -> answer.append(e.data().path("delta").asText()));
                answer.append(resumed.content());
                assertEquals(ANSWER, answer.toString(), "the answer, whole, across two replicas");
                assertTrue(resumed.named("content").size() >= 5, "live events followed: " + resumed.events());

                SseClient.Result onFirst;
                try (SseClient client = SseClient.get(uri(first, "/api/chat/runs/" + runId + "/events"))) {
                    onFirst = client.rest();
                }
                assertEquals(seen, onFirst.events().subList(0, seen.size()));
                assertEquals(resumed.events(), onFirst.events().subList(lastSeq, onFirst.events().size()));
            }
        }
    }

    private static URI uri(ServiceProcess service, String path) {
        return URI.create("http://localhost:" + service.httpPort + path);
    }
}
