package io.sqlagent.it;

import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;
import io.sqlagent.embedded.EmbeddedDatabase;

/**
 * Two packaged services on one store and one source, as two replicas behind one Service: each has
 * a working directory of its own (its own local vector indexes), both read the same tool files
 * and workspace policy (one ConfigMap), and both use one PostgreSQL started here. A conversation
 * started on one continues on the other with its history, a learning saved on one is found on the
 * other, a vector written on one is searchable on the other within seconds, and both offer the
 * same tools.
 */
class ReplicasIT {

    private static final Duration READY_WITHIN = Duration.ofSeconds(90);
    private static final Duration SEARCHABLE_WITHIN = Duration.ofSeconds(10);

    @TempDir
    Path temp;

    @Test
    void twoReplicasOnOneStoreShareWhatAUserSees() throws Exception {
        EmbeddedDatabase.Endpoint postgres = EmbeddedDatabase.startOrReuse(
                new EmbeddedDatabase.Settings(temp.resolve("pgdata"), true, 0, Duration.ofSeconds(60)));
        Path configMap = Files.createDirectories(temp.resolve("config"));
        Files.copy(Path.of("config/tools/chinook.yaml"), configMap.resolve("chinook.yaml"));
        Files.writeString(configMap.resolve("policy.yaml"), """
                policy:
                  data:
                    vector:
                      allow: ["notes"]
                      allow_write: ["notes"]
                """);
        try (ScriptedOpenAiServer model = ScriptedOpenAiServer.start()) {
            model.then(text("The store has 3503 tracks."), text("Yes: 3503, as I said."));
            Map<String, String> env = new HashMap<>();
            env.put("QUARKUS_DATASOURCE_REACTIVE_URL", postgres.url(EmbeddedDatabase.STORE_DATABASE));
            env.put("QUARKUS_DATASOURCE_USERNAME", EmbeddedDatabase.USER);
            env.put("QUARKUS_DATASOURCE_PASSWORD", EmbeddedDatabase.USER);
            env.put("SQLAGENT_SOURCES_DEFAULT_URL", postgres.url(EmbeddedDatabase.DEMO_DATABASE));
            env.put("SQLAGENT_SOURCES_DEFAULT_USERNAME", EmbeddedDatabase.USER);
            env.put("SQLAGENT_TOOLS_PATHS", configMap.resolve("chinook.yaml").toString());
            env.put("SQLAGENT_POLICY_PATH", configMap.resolve("policy.yaml").toString());
            env.put("QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL", model.baseUrl());
            env.put("QUARKUS_LANGCHAIN4J_OPENAI_CHAT_MODEL_MODEL_NAME", "llama3.1");
            // One after the other, as a rollout starts pods: two cold JVMs at once on a small machine are slow to start.
            try (ServiceProcess one = ServiceProcess.start(Files.createDirectories(temp.resolve("one")), env)) {
                one.awaitStatus("/q/health/ready", 200, READY_WITHIN);
                try (ServiceProcess two = ServiceProcess.start(Files.createDirectories(temp.resolve("two")), env)) {
                    two.awaitStatus("/q/health/ready", 200, READY_WITHIN);
                    shareWhatAUserSees(one, two, model);
                }
            }
        }
    }

    private static void shareWhatAUserSees(ServiceProcess one, ServiceProcess two, ScriptedOpenAiServer model)
            throws Exception {
        aConversationStartedOnOneContinuesOnTheOther(one, two, model);
        aLearningSavedOnOneIsFoundOnTheOther(one, two);
        aVectorWrittenOnOneIsSearchableOnTheOtherWithinSeconds(one, two);
        bothOfferTheSameTools(one, two);

        assertFalse(one.logText().contains("ERROR"), one.logText());
        assertFalse(two.logText().contains("ERROR"), two.logText());
    }

    private static void aConversationStartedOnOneContinuesOnTheOther(ServiceProcess one, ServiceProcess two,
            ScriptedOpenAiServer model) throws Exception {
        SseClient.Result first = SseClient.chat(URI.create("http://localhost:" + one.httpPort + "/api/chat"),
                "{\"question\":\"How many tracks are there?\"}");
        assertEquals("done", first.last().name(), first.events().toString());
        String conversation = first.conversationId();

        SseClient.Result second = SseClient.chat(URI.create("http://localhost:" + two.httpPort + "/api/chat"),
                "{\"question\":\"Are you sure?\",\"conversation_id\":\"" + conversation + "\"}");

        assertEquals("done", second.last().name(), second.events().toString());
        assertEquals("Yes: 3503, as I said.", second.content());
        List<String> sent = new ArrayList<>();
        model.requests().get(1).path("messages").forEach(message -> sent.add(message.path("content").asText()));
        assertTrue(sent.contains("How many tracks are there?"), "the other replica sent the first question: " + sent);
        assertTrue(sent.contains("The store has 3503 tracks."), "and the first answer: " + sent);
        JsonNode history = json(one.get("/api/conversations/" + conversation).orElseThrow());
        assertEquals(4, history.path("messages").size(), history.toString());
        assertEquals(2, history.path("runs").size(), history.toString());
    }

    private static void aLearningSavedOnOneIsFoundOnTheOther(ServiceProcess one, ServiceProcess two) throws Exception {
        HttpResponse<String> saved = one.postJson("/api/tools/save_learning",
                """
                        {"title": "Invoice totals include tax", "description": "The zebracorn column total of invoice already includes tax.",
                         "category": "business_logic"}""",
                // The first save loads the embedding model on this replica, which takes longer on a loaded machine.
                Duration.ofSeconds(40));
        assertEquals(200, saved.statusCode(), saved.body());

        JsonNode found = json(
                two.postJson("/api/tools/search_knowledge", "{\"query\": \"zebracorn\"}", Duration.ofSeconds(10)));

        assertTrue(found.toString().contains("Invoice totals include tax"), found.toString());
    }

    private static void aVectorWrittenOnOneIsSearchableOnTheOtherWithinSeconds(ServiceProcess one, ServiceProcess two)
            throws Exception {
        HttpResponse<String> written = one.postJson("/api/tools/vector_manage",
                """
                        {"collection": "notes", "operation": "insert", "documents": [
                          {"id": "east", "text": "east", "embedding": [1, 0, 0]}, {"id": "north", "text": "north", "embedding": [0, 1, 0]}]}""",
                Duration.ofSeconds(30));
        assertEquals(200, written.statusCode(), written.body());
        long deadline = System.nanoTime() + SEARCHABLE_WITHIN.toNanos();
        String seen = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> search = two.postJson("/api/tools/vector_search",
                    "{\"collection\": \"notes\", \"query_vector\": [0.9, 0.1, 0]}", Duration.ofSeconds(10));
            seen = search.body();
            // Until the change arrives the other replica answers 503 busy, 422 (no such collection yet) or 200 with
            // no results: keep asking.
            JsonNode results = search.statusCode() == 200 ? json(search).path("result").path("results")
                    : SnakeCaseJson.MAPPER.nullNode();
            if (results.size() > 0) {
                assertEquals("east", results.get(0).path("id").asText(), seen);
                assertEquals(2, results.size(), seen);
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the other replica did not find the vectors within " + SEARCHABLE_WITHIN + ": " + seen);
    }

    private static void bothOfferTheSameTools(ServiceProcess one, ServiceProcess two) throws Exception {
        JsonNode onOne = json(one.get("/api/tools").orElseThrow());
        JsonNode onTwo = json(two.get("/api/tools").orElseThrow());

        List<String> names = new ArrayList<>();
        onOne.forEach(tool -> names.add(tool.path("name").asText()));
        assertTrue(names.containsAll(List.of("search_tracks", "top_customers", "vector_search", "run_sql")), names.toString());
        assertEquals(onOne, onTwo);
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        assertEquals(200, response.statusCode(), response.body());
        return SnakeCaseJson.MAPPER.readTree(response.body());
    }
}
