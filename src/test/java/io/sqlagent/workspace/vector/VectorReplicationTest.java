package io.sqlagent.workspace.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.store.StoreMigrations;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolResult;
import io.sqlagent.tool.TypedTool;
import io.sqlagent.workspace.PolicyManifest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Replicas of the vector collections on one real store: each "replica" is a {@link VectorStore} with a
 * directory of its own, as each pod has, following the store's record of changes every 200 ms. What
 * one writes the others find, a new one rebuilds from the store, an old directory is copied into it,
 * and two replicas inserting the same id at once store it once.
 */
@QuarkusTest
@ScriptedModel
class VectorReplicationTest {

    private static final Embeddings EMBEDDINGS = Embeddings.inProcess();
    private static final Duration WITHIN = Duration.ofSeconds(10);

    @Inject
    Pool store;

    @Inject
    StoreMigrations migrations;

    @TempDir
    Path temp;

    PolicyManifest policy;
    final List<VectorStore> replicas = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        policy = VectorToolsTest.vectorPolicy(temp, "[\"replica-*\"]", "[\"replica-*\"]", "{}");
    }

    @AfterEach
    void stopReplicas() {
        replicas.forEach(VectorStore::shutDown);
    }

    private VectorStore replica(String directory) {
        VectorStore replica = new VectorStore(TestVectorConfig.at(temp.resolve(directory)), store, migrations);
        replica.followTheStore(null);
        replicas.add(replica);
        return replica;
    }

    private JsonNode manage(VectorStore replica, String json) {
        return call(new VectorManageTool(policy, replica, EMBEDDINGS), json);
    }

    private JsonNode search(VectorStore replica, String json) {
        return call(new VectorSearchTool(policy, replica, EMBEDDINGS), json);
    }

    private static JsonNode call(TypedTool<?> tool, String json) {
        try {
            ToolResult result = tool
                    .invoke(new ToolCall("c", tool.descriptor().name(), (ObjectNode) SnakeCaseJson.MAPPER.readTree(json)),
                            ToolCallContext.of("test"))
                    .await().atMost(Duration.ofSeconds(60));
            return ((ToolResult.Success) result).value();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Asks again until {@code ids} answers {@code expected} (polled, with a deadline). */
    private static void eventually(List<String> expected, Supplier<List<String>> ids) throws InterruptedException {
        long deadline = System.nanoTime() + WITHIN.toNanos();
        List<String> seen = null;
        while (System.nanoTime() < deadline) {
            try {
                seen = ids.get();
            } catch (ToolException notYet) {
                seen = List.of(notYet.getMessage());
            }
            // A refusal can be what is expected too (a collection that must be gone): it ends the wait as well.
            if (seen.equals(expected)) {
                return;
            }
            Thread.sleep(50);
        }
        assertEquals(expected, seen, "not within " + WITHIN);
    }

    private List<String> ids(VectorStore replica, String collection, String queryVector) {
        List<String> ids = new ArrayList<>();
        search(replica, "{\"collection\": \"" + collection + "\", \"query_vector\": " + queryVector + ", \"top_k\": 10}")
                .path("results").forEach(result -> ids.add(result.path("id").asText()));
        return ids;
    }

    @Test
    void whatOneReplicaWritesTheOthersFindAndANewOneRebuildsFromTheStore() throws Exception {
        VectorStore a = replica("a");
        VectorStore b = replica("b");

        manage(a, """
                {"collection": "replica-shared", "operation": "insert", "documents": [
                  {"id": "east", "text": "east", "embedding": [1, 0, 0], "metadata": {"side": "right"}},
                  {"id": "north", "text": "north", "embedding": [0, 1, 0]}]}""");
        assertEquals(List.of("east", "north"), ids(a, "replica-shared", "[1, 0.1, 0]"), "the writer finds it at once");
        eventually(List.of("east", "north"), () -> ids(b, "replica-shared", "[1, 0.1, 0]"));

        manage(b, """
                {"collection": "replica-shared", "operation": "update", "documents": [
                  {"id": "north", "text": "now west", "embedding": [-1, 0, 0]}]}""");
        manage(b, "{\"collection\": \"replica-shared\", \"operation\": \"insert\", \"documents\": "
                + "[{\"id\": \"up\", \"text\": \"up\", \"embedding\": [0, 0, 1]}]}");
        eventually(List.of("up", "east", "north"), () -> ids(a, "replica-shared", "[0.1, 0, 1]"));
        JsonNode west = search(a, "{\"collection\": \"replica-shared\", \"query_vector\": [-1, 0, 0], \"top_k\": 1}")
                .path("results").get(0);
        assertEquals("now west", west.path("text").asText());
        JsonNode east = search(b, "{\"collection\": \"replica-shared\", \"query_vector\": [1, 0, 0], \"top_k\": 1}")
                .path("results").get(0);
        assertEquals("right", east.path("metadata").path("side").asText(), "metadata travels with the document");

        JsonNode deleted = manage(a,
                "{\"collection\": \"replica-shared\", \"operation\": \"delete\", \"ids\": [\"up\", \"ghost\"]}");
        assertEquals("[\"ghost\"]", deleted.path("not_found").toString());
        eventually(List.of("east", "north"), () -> ids(b, "replica-shared", "[0.1, 0, 1]"));

        VectorStore c = replica("c");
        eventually(List.of("north", "east"), () -> ids(c, "replica-shared", "[-1, 0.1, 0]"));
        assertTrue(Files.isRegularFile(temp.resolve("c").resolve(VectorSync.MARKER)), "the new replica records where it is");
    }

    @Test
    void refusedChangesChangeNothingOnAnyReplica() throws Exception {
        VectorStore a = replica("a");
        VectorStore b = replica("b");
        manage(a, "{\"collection\": \"replica-refusals\", \"operation\": \"insert\", \"documents\": "
                + "[{\"id\": \"one\", \"text\": \"one\", \"embedding\": [1, 0]}]}");

        ToolException taken = assertThrows(ToolException.class, () -> manage(b, "{\"collection\": \"replica-refusals\", "
                + "\"operation\": \"insert\", \"documents\": [{\"id\": \"two\", \"text\": \"two\", \"embedding\": [0, 1]}, "
                + "{\"id\": \"one\", \"text\": \"again\", \"embedding\": [0, 1]}]}"));
        ToolException missing = assertThrows(ToolException.class, () -> manage(b, "{\"collection\": \"replica-refusals\", "
                + "\"operation\": \"update\", \"documents\": [{\"id\": \"nope\", \"text\": \"x\", \"embedding\": [0, 1]}]}"));
        ToolException shape = assertThrows(ToolException.class, () -> manage(b, "{\"collection\": \"replica-refusals\", "
                + "\"operation\": \"insert\", \"documents\": [{\"id\": \"three\", \"text\": \"x\", \"embedding\": [0, 1, 0]}]}"));
        ToolException none = assertThrows(ToolException.class,
                () -> manage(b, "{\"collection\": \"replica-none\", \"operation\": \"delete\", \"ids\": [\"x\"]}"));

        assertEquals("Documents [one] already exist in 'replica-refusals'; use update to replace them", taken.getMessage());
        assertEquals("Documents [nope] do not exist in 'replica-refusals'; use insert to add them", missing.getMessage());
        assertEquals("Collection 'replica-refusals' holds vectors of 2 dimensions; this one has 3", shape.getMessage());
        assertEquals("No collection named 'replica-none' exists; vector_manage insert creates one", none.getMessage());
        eventually(List.of("one"), () -> ids(b, "replica-refusals", "[0, 1]"));
        assertEquals(0, store.preparedQuery("SELECT count(*) AS n FROM vector_document WHERE collection = $1 AND id <> 'one'")
                .execute(Tuple.of("replica-refusals")).await().atMost(WITHIN).iterator().next().getLong("n"));
    }

    @Test
    void twoReplicasInsertingTheSameIdAtOnceStoreItOnce() throws Exception {
        VectorStore a = replica("a");
        VectorStore b = replica("b");
        manage(a, "{\"collection\": \"replica-race\", \"operation\": \"insert\", \"documents\": "
                + "[{\"id\": \"seed\", \"text\": \"seed\", \"embedding\": [1, 1]}]}");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> attempts = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                VectorStore replica = i % 2 == 0 ? a : b;
                Callable<Boolean> attempt = () -> {
                    try {
                        manage(replica, "{\"collection\": \"replica-race\", \"operation\": \"insert\", \"documents\": "
                                + "[{\"id\": \"same\", \"text\": \"same\", \"embedding\": [1, 2]}]}");
                        return true;
                    } catch (ToolException e) {
                        assertTrue(e.getMessage().startsWith("Documents [same] already exist"), e.getMessage());
                        return false;
                    }
                };
                attempts.add(pool.submit(attempt));
            }
            int won = 0;
            for (Future<Boolean> attempt : attempts) {
                won += attempt.get() ? 1 : 0;
            }
            assertEquals(1, won, "exactly one insert wins");
        } finally {
            pool.shutdownNow();
        }
        eventually(List.of("same", "seed"), () -> ids(b, "replica-race", "[1, 2]"));
        eventually(List.of("same", "seed"), () -> ids(a, "replica-race", "[1, 2]"));
    }

    @Test
    void collectionsWrittenBeforeTheStoreHeldThemAreCopiedIntoIt() throws Exception {
        // A directory from before this version: collections on disk, no record of a store.
        VectorStore old = new VectorStore(temp.resolve("old"));
        call(new VectorManageTool(policy, old, EMBEDDINGS), "{\"collection\": \"replica-legacy\", \"operation\": \"insert\", "
                + "\"documents\": [{\"id\": \"kept\", \"text\": \"kept\", \"embedding\": [0.5, 0.5]}]}");
        old.close();

        VectorStore upgraded = replica("old");
        VectorStore other = replica("other");

        eventually(List.of("kept"), () -> ids(other, "replica-legacy", "[1, 1]"));
        eventually(List.of("kept"), () -> ids(upgraded, "replica-legacy", "[1, 1]"));
    }

    @Test
    void aDirectoryThatFollowedAnotherStoreIsRebuilt() throws Exception {
        Path directory = temp.resolve("stale");
        VectorStore elsewhere = new VectorStore(directory);
        call(new VectorManageTool(policy, elsewhere, EMBEDDINGS), "{\"collection\": \"replica-elsewhere\", \"operation\": "
                + "\"insert\", \"documents\": [{\"id\": \"foreign\", \"text\": \"x\", \"embedding\": [1, 0]}]}");
        elsewhere.close();
        Files.writeString(directory.resolve(VectorSync.MARKER), "{\"store\": \"another-store\", \"seq\": 3}");

        VectorStore replica = replica("stale");

        eventually(List.of("No collection named 'replica-elsewhere' exists; vector_manage insert creates one"),
                () -> ids(replica, "replica-elsewhere", "[1, 0]"));
    }
}
