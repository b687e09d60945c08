package io.sqlagent.workspace.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Violation;
import io.sqlagent.tool.ExecutorOptions;
import io.sqlagent.tool.Outcome;
import io.sqlagent.tool.Tool;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolExecutor;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.ToolResult;
import io.sqlagent.workspace.PolicyManifest;

/** vector_search and vector_manage with real all-MiniLM-L6-v2 embeddings and real Lucene indexes on disk. */
class VectorToolsTest {

    private static final Embeddings EMBEDDINGS = Embeddings.inProcess();

    @TempDir
    Path temp;

    PolicyManifest policy;
    VectorStore store;
    VectorSearchTool search;
    VectorManageTool manage;

    @BeforeEach
    void setUp() throws Exception {
        policy = vectorPolicy(temp, "[\"health-*\", \"shared\"]", "[\"health-*\", \"inbox\"]",
                "{ default_top_k: 3, max_top_k: 5 }");
        open();
    }

    /** A workspace policy in {@code directory} with these vector globs (YAML flow lists) and limits. */
    static PolicyManifest vectorPolicy(Path directory, String allow, String allowWrite, String limits) throws Exception {
        Path manifest = directory.resolve("policy.yaml");
        Files.writeString(manifest,
                "policy:\n  data:\n    vector:\n      allow: " + allow + "\n      allow_write: " + allowWrite
                        + "\n  limits: " + limits + "\n");
        return PolicyManifest.load(manifest);
    }

    private void open() {
        store = new VectorStore(temp.resolve("vectors"));
        search = new VectorSearchTool(policy, store, EMBEDDINGS);
        manage = new VectorManageTool(policy, store, EMBEDDINGS);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static JsonNode call(Tool tool, String json) {
        ToolResult result = tool
                .invoke(new ToolCall("c", tool.descriptor().name(),
                        (com.fasterxml.jackson.databind.node.ObjectNode) read(json)),
                        ToolCallContext.of("test"))
                .await().atMost(Duration.ofSeconds(120));
        return ((ToolResult.Success) result).value();
    }

    private static JsonNode read(String json) {
        try {
            return SnakeCaseJson.MAPPER.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static ToolException failure(Tool tool, String json) {
        return assertThrows(ToolException.class, () -> call(tool, json));
    }

    private void insertActivities() {
        call(manage,
                """
                        {"collection": "health-activities", "operation": "insert", "documents": [
                          {"id": "act-1", "text": "30 minute morning run, 5km", "metadata": {"type": "running", "km": 5}},
                          {"id": "act-2", "text": "Evening yoga session, 45 minutes", "metadata": {"type": "yoga"}},
                          {"id": "act-3", "text": "Filed the quarterly sales tax return with the accountant", "metadata": {"type": "admin"}},
                          {"id": "act-4", "text": "Swam 40 lengths at the public pool before work", "metadata": {"type": "swimming"}}]}""");
    }

    @Test
    void aQueryIsClosestToItsParaphraseWithScoresFromZeroToOneBestFirst() {
        insertActivities();

        JsonNode results = call(search, "{\"collection\": \"health-activities\", \"query\": \"jogging early in the day\"}")
                .path("results");

        assertEquals(3, results.size(), "default_top_k");
        assertEquals("act-1", results.get(0).path("id").asText());
        assertEquals("30 minute morning run, 5km", results.get(0).path("text").asText());
        assertEquals("running", results.get(0).path("metadata").path("type").asText());
        double best = results.get(0).path("score").asDouble();
        for (JsonNode result : results) {
            double score = result.path("score").asDouble();
            assertTrue(score >= 0 && score <= best, results.toString());
        }
        JsonNode tax = call(search,
                "{\"collection\": \"health-activities\", \"query\": \"jogging early in the day\", \"top_k\": 5}")
                .path("results").get(3);
        assertEquals("act-3", tax.path("id").asText(), "the unrelated text comes last");
        assertTrue(best - tax.path("score").asDouble() > 0.1, "the paraphrase is clearly closer than unrelated text");
    }

    @Test
    void filtersMatchMetadataExactlyAndTopKIsCappedByThePolicy() {
        insertActivities();

        JsonNode yoga = call(search,
                "{\"collection\": \"health-activities\", \"query\": \"exercise\", \"filters\": {\"type\": \"yoga\"}}");
        JsonNode fiveKm = call(search,
                "{\"collection\": \"health-activities\", \"query\": \"exercise\", \"filters\": {\"km\": 5.0}}");
        JsonNode none = call(search,
                "{\"collection\": \"health-activities\", \"query\": \"exercise\", \"filters\": {\"km\": \"5\"}}");
        JsonNode capped = call(search, "{\"collection\": \"health-activities\", \"query\": \"exercise\", \"top_k\": 50}");

        assertEquals(List.of("act-2"), ids(yoga));
        assertEquals(List.of("act-1"), ids(fiveKm));
        assertEquals(List.of(), ids(none), "a string is not a number");
        assertEquals(4, capped.path("results").size(), "max_top_k 5, four documents");
    }

    @Test
    void insertUpdateAndDeleteRoundTripAndARestartKeepsTheCollection() {
        JsonNode inserted = call(manage,
                """
                        {"collection": "inbox", "operation": "insert", "documents": [{"text": "Buy oat milk"}, {"id": "n2", "text": "Call the plumber"}]}""");
        assertEquals(2, inserted.path("inserted").asInt());
        String generated = inserted.path("ids").get(0).asText();
        assertEquals(36, generated.length(), "an id is generated when absent");

        JsonNode updated = call(manage,
                """
                        {"collection": "inbox", "operation": "update", "documents": [{"id": "n2", "text": "Call the electrician", "metadata": {"done": true}}]}""");
        assertEquals(1, updated.path("updated").asInt());
        failure(manage,
                "{\"collection\": \"inbox\", \"operation\": \"update\", \"documents\": [{\"id\": \"nope\", \"text\": \"x\"}]}");
        ToolException duplicate = failure(manage,
                "{\"collection\": \"inbox\", \"operation\": \"insert\", \"documents\": [{\"id\": \"n2\", \"text\": \"again\"}]}");
        assertTrue(duplicate.getMessage().contains("[n2] already exist in 'inbox'; use update"), duplicate.getMessage());

        store.close();
        open();

        // inbox is write-only for this policy: read it back through a policy that may read it.
        PolicyManifest reader = new PolicyManifest(policy.file(), List.of(), List.of(), List.of(), List.of("inbox"), List.of(),
                policy.limits());
        VectorSearchTool readerSearch = new VectorSearchTool(reader, store, EMBEDDINGS);
        JsonNode found = call(readerSearch, "{\"collection\": \"inbox\", \"query\": \"electrician\", \"top_k\": 1}")
                .path("results").get(0);
        assertEquals("n2", found.path("id").asText());
        assertEquals("Call the electrician", found.path("text").asText());
        assertTrue(found.path("metadata").path("done").asBoolean());

        JsonNode deleted = call(manage, "{\"collection\": \"inbox\", \"operation\": \"delete\", \"ids\": [\"n2\", \"ghost\"]}");
        assertEquals(1, deleted.path("deleted").asInt());
        assertEquals("[\"ghost\"]", deleted.path("not_found").toString());
        assertEquals(List.of(generated), ids(call(readerSearch, "{\"collection\": \"inbox\", \"query\": \"anything\"}")));
    }

    @Test
    void writeAccessGrantsNoReadingAndReadAccessNoWriting() {
        assertRefused(search, "{\"collection\": \"inbox\", \"query\": \"milk\"}",
                "'inbox' is not a collection vector_search may search (policy.data.vector.allow in the workspace policy)");
        assertRefused(manage, "{\"collection\": \"shared\", \"operation\": \"insert\", \"documents\": [{\"text\": \"x\"}]}",
                "'shared' is not a collection vector_manage may change (policy.data.vector.allow_write in the workspace policy)");
        assertRefused(search, "{\"collection\": \"other\", \"query\": \"x\"}",
                "'other' is not a collection vector_search may search");
    }

    @Test
    void badRequestsAreClearFailures() {
        insertActivities();

        assertEquals("Give either query (text) or query_vector (numbers), not neither",
                failure(search, "{\"collection\": \"health-activities\"}").getMessage());
        assertEquals("Give either query (text) or query_vector (numbers), not both",
                failure(search, "{\"collection\": \"health-activities\", \"query\": \"x\", \"query_vector\": [1.0]}")
                        .getMessage());
        assertEquals("Collection 'health-activities' holds vectors of 384 dimensions; this one has 3",
                failure(search, "{\"collection\": \"health-activities\", \"query_vector\": [0.1, 0.2, 0.3]}").getMessage());
        assertEquals("No collection named 'health-empty' exists; vector_manage insert creates one",
                failure(search, "{\"collection\": \"health-empty\", \"query\": \"x\"}").getMessage());
        assertEquals("Invalid documents: documents[1].id: 'x' appears twice in this call; "
                + "documents[2].id: update needs the id of the document to replace",
                failure(manage, """
                        {"collection": "health-activities", "operation": "update", "documents": [
                          {"id": "x", "text": "a"}, {"id": "x", "text": "b"}, {"text": "c"}]}""").getMessage());
        // Even a policy that allows every name ("**" crosses separators) lets no path reach the store.
        PolicyManifest anything = new PolicyManifest(policy.file(), List.of(), List.of(), List.of(), List.of("**"), List.of(),
                policy.limits());
        assertEquals("'../health-activities' is not a collection name: letters, digits, '.', '_' and '-', at most 100",
                failure(new VectorSearchTool(anything, store, EMBEDDINGS),
                        "{\"collection\": \"../health-activities\", \"query\": \"x\"}")
                        .getMessage());
        assertEquals("delete needs ids: the documents to delete",
                failure(manage, "{\"collection\": \"health-activities\", \"operation\": \"delete\"}").getMessage());
        assertEquals(4,
                call(search, "{\"collection\": \"health-activities\", \"query\": \"x\", \"top_k\": 5}").path("results").size(),
                "a refused change changes nothing");
    }

    @Test
    void badDocumentsAreTheExecutorsInvalidArgumentsNamingEachPath() {
        insertActivities();
        ToolRegistry registry = new ToolRegistry();
        registry.register(manage);
        ToolExecutor executor = new ToolExecutor(registry, List.of(), List.of(), List.of(), ExecutorOptions.defaults());

        ToolResult result = executor.execute(new ToolCall("c", "vector_manage", (ObjectNode) read("""
                {"collection": "health-activities", "operation": "insert", "documents": [
                  {"text": " ", "colour": "red"}, {"id": 7, "text": "ok", "metadata": {"nested": {"a": 1}, "gone": null}},
                  {"id": "x", "text": "a", "embedding": [1, "two"]}, {"id": "y\\u0000", "text": "b"}]}""")),
                ToolCallContext.of("test")).await().atMost(Duration.ofSeconds(30))
                .result();

        ToolResult.Failure failure = (ToolResult.Failure) result;
        assertEquals(Outcome.INVALID_ARGUMENTS, failure.outcome());
        assertEquals(List.of(
                new Violation("documents[0].text", "must match the pattern \\S"),
                new Violation("documents[0].colour", "is not a known argument; known arguments: id, text, metadata, embedding"),
                new Violation("documents[1].id", "must be a string or null, not an integer"),
                new Violation("documents[1].metadata.nested", "must be a string, a number or a boolean, not an object"),
                new Violation("documents[1].metadata.gone", "must be a string, a number or a boolean, not null"),
                new Violation("documents[2].embedding[1]", "must be a number, not a string"),
                new Violation("documents[3].id", "must match the pattern ^[^\\p{Cntrl}]{1,200}$")), failure.details());
        assertTrue(failure.message().startsWith("Invalid arguments for tool 'vector_manage': documents[0].text "),
                failure.message());
        assertEquals(4,
                call(search, "{\"collection\": \"health-activities\", \"query\": \"x\", \"top_k\": 5}").path("results").size(),
                "nothing was written");
    }

    @Test
    void nullOptionalFieldsOfADocumentAreLeftOut() {
        JsonNode answer = call(manage, """
                {"collection": "health-nulls", "operation": "insert", "documents": [
                  {"id": null, "text": "a walk in the park", "metadata": null, "embedding": null}]}""");

        assertEquals(1, answer.path("inserted").asInt());
    }

    @Test
    void givenEmbeddingsAreStoredAsGivenAndSearchedByVector() {
        call(manage,
                """
                        {"collection": "health-vectors", "operation": "insert", "documents": [
                          {"id": "east", "text": "east", "embedding": [1, 0, 0]}, {"id": "north", "text": "north", "embedding": [0, 1, 0]}]}""");

        JsonNode answer = call(search, "{\"collection\": \"health-vectors\", \"query_vector\": [0.9, 0.1, 0]}");
        JsonNode results = answer.path("results");

        assertEquals(List.of("east", "north"), ids(answer));
        assertTrue(results.get(0).path("score").asDouble() > 0.99);
        assertEquals(0.5, results.get(1).path("score").asDouble(), 0.07, "orthogonal vectors score about 0.5");
        assertEquals("A vector of zeros has no direction; it cannot be compared",
                failure(search, "{\"collection\": \"health-vectors\", \"query_vector\": [0, 0, 0]}").getMessage());
    }

    @Test
    void concurrentWritersAndReadersLoseNothing() throws Exception {
        call(manage,
                "{\"collection\": \"health-load\", \"operation\": \"insert\", \"documents\": [{\"id\": \"seed\", \"text\": \"x\", \"embedding\": [1, 1]}]}");
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int writer = 0; writer < 3; writer++) {
                int w = writer;
                work.add(pool.submit(() -> {
                    for (int i = 0; i < 20; i++) {
                        call(manage,
                                "{\"collection\": \"health-load\", \"operation\": \"insert\", \"documents\": [{\"id\": \"w" + w
                                        + "-" + i
                                        + "\", \"text\": \"t\", \"embedding\": [" + (i + 1) + ", " + (w + 1) + "]}]}");
                    }
                }));
            }
            for (int reader = 0; reader < 3; reader++) {
                work.add(pool.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        call(search, "{\"collection\": \"health-load\", \"query_vector\": [1, 2], \"top_k\": 5}");
                    }
                }));
            }
            for (Future<?> future : work) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        JsonNode deleted = call(manage, "{\"collection\": \"health-load\", \"operation\": \"delete\", \"ids\": ["
                + String.join(",", allIds()) + "]}");
        assertEquals(61, deleted.path("deleted").asInt(), deleted.toString());
    }

    private static List<String> allIds() {
        List<String> ids = new ArrayList<>(List.of("\"seed\""));
        for (int w = 0; w < 3; w++) {
            for (int i = 0; i < 20; i++) {
                ids.add("\"w" + w + "-" + i + "\"");
            }
        }
        return ids;
    }

    private static void assertRefused(Tool tool, String json, String message) {
        ToolException e = failure(tool, json);
        assertSame(ToolRefusedException.class, e.getClass());
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    private static List<String> ids(JsonNode answer) {
        List<String> ids = new ArrayList<>();
        answer.path("results").forEach(result -> ids.add(result.path("id").asText()));
        return ids;
    }

    @Test
    void anUnknownEmbeddingSettingStopsTheStartNamingIt() {
        VectorConfig config = new TestVectorConfig(temp, "word2vec", Duration.ofSeconds(1), Duration.ofDays(7));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Embeddings(config, null));
        assertEquals("sqlagent.vector.embedding must be local or openai, was 'word2vec'", e.getMessage());
    }
}
