package io.sqlagent.workspace.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Violation;
import io.sqlagent.tool.ExecutorOptions;
import io.sqlagent.tool.Outcome;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolExecutor;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.ToolResult;

/**
 * The bounds on vector metadata (keys per document, key and value lengths, distinct keys per collection) as a caller
 * of {@code vector_manage} meets them through the executor, and a shutdown that a running Lucene merge cannot hold.
 */
class VectorMetadataLimitsTest {

    /** Small bounds, so a test reaches each: 3 keys a document, keys of 8, values of 10, 5 keys a collection. */
    private static final MetadataLimits LIMITS = new MetadataLimits(3, 8, 10, 5);

    @TempDir
    Path temp;

    VectorStore store;
    ToolExecutor executor;

    @BeforeEach
    void setUp() throws Exception {
        store = new VectorStore(temp.resolve("vectors"), LIMITS);
        ToolRegistry registry = new ToolRegistry();
        registry.register(new VectorManageTool(
                VectorToolsTest.vectorPolicy(temp, "[\"*\"]", "[\"*\"]", "{ default_top_k: 3, max_top_k: 5 }"), store,
                Embeddings.inProcess()));
        executor = new ToolExecutor(registry, List.of(), List.of(), List.of(), ExecutorOptions.defaults());
    }

    @AfterEach
    void close() {
        store.close();
    }

    private ToolResult manage(String json) throws Exception {
        return executor.execute(new ToolCall("c", "vector_manage", (ObjectNode) SnakeCaseJson.MAPPER.readTree(json)),
                ToolCallContext.of("test")).await().atMost(Duration.ofSeconds(60)).result();
    }

    private ToolResult.Failure refused(String json) throws Exception {
        ToolResult result = manage(json);
        assertTrue(result instanceof ToolResult.Failure, String.valueOf(result));
        ToolResult.Failure failure = (ToolResult.Failure) result;
        assertEquals(Outcome.INVALID_ARGUMENTS, failure.outcome(), failure.message());
        return failure;
    }

    private static String insert(String collection, String... metadata) {
        StringBuilder documents = new StringBuilder();
        for (int i = 0; i < metadata.length; i++) {
            documents.append(i == 0 ? "" : ", ").append("{\"id\": \"d").append(i).append("\", \"text\": \"t\", ")
                    .append("\"embedding\": [1, 0], \"metadata\": ").append(metadata[i]).append('}');
        }
        return "{\"collection\": \"" + collection + "\", \"operation\": \"insert\", \"documents\": [" + documents + "]}";
    }

    @Test
    void aDocumentWithTooManyKeysIsRefusedNamingTheLimitAndNothingIsWritten() throws Exception {
        ToolResult.Failure failure = refused(insert("notes", "{\"a\": 1}", "{\"a\": 1, \"b\": 2, \"c\": 3, \"d\": 4}"));

        assertEquals(List.of(new Violation("documents[1].metadata",
                "has 4 keys; the limit is 3 (sqlagent.vector.metadata.max-keys)")), failure.details());
        assertTrue(failure.message().contains("sqlagent.vector.metadata.max-keys"), failure.message());
        assertFalse(VectorCollection.exists(store.root().resolve("notes")), "nothing written, not even the collection");
    }

    @Test
    void longKeysAndLongValuesAreRefusedNamingTheirLimits() throws Exception {
        ToolResult.Failure failure = refused(insert("notes", "{\"muchtoolongkey\": 1}",
                "{\"k\": \"eleven chars\", \"n\": 12345678901, \"ok\": \"ten chars!\"}", "{\"b\": true}"));

        assertEquals(List.of(
                new Violation("documents[0].metadata",
                        "key 'muchtoolongkey…' has 14 characters; the limit is 8 (sqlagent.vector.metadata.max-key-length)"),
                new Violation("documents[1].metadata.k",
                        "has 12 characters; the limit is 10 (sqlagent.vector.metadata.max-value-length)"),
                new Violation("documents[1].metadata.n",
                        "has 11 characters; the limit is 10 (sqlagent.vector.metadata.max-value-length)")),
                failure.details());
        assertFalse(VectorCollection.exists(store.root().resolve("notes")));
    }

    @Test
    void aCollectionHoldsAtMostItsDistinctKeysOldKeysStayUsable() throws Exception {
        assertTrue(manage(insert("notes", "{\"a\": 1, \"b\": 2}", "{\"c\": 3, \"a\": 4}")) instanceof ToolResult.Success);
        // Two more new keys (d, e) reach five; a sixth (f) is one too many, in one call or over two.
        ToolResult.Failure failure = refused(insert("notes", "{\"d\": 1, \"e\": 2, \"f\": 3}")
                .replace("\"d0\"", "\"d9\""));
        assertEquals(List.of(new Violation("documents",
                "collection 'notes' would hold 6 distinct metadata keys (3 new); the limit is 5 (sqlagent.vector.metadata.max-distinct-keys)")),
                failure.details());
        assertEquals(Optional.empty(), present("d9"), "nothing written");

        assertTrue(manage(insert("notes", "{\"d\": 1, \"e\": 2}").replace("\"d0\"", "\"d8\"")) instanceof ToolResult.Success);
        refused(insert("notes", "{\"f\": 1}").replace("\"d0\"", "\"d7\""));
        refused("{\"collection\": \"notes\", \"operation\": \"update\", \"documents\": [{\"id\": \"d0\", \"text\": \"t\", "
                + "\"embedding\": [1, 0], \"metadata\": {\"g\": 1}}]}");
        assertTrue(
                manage(insert("notes", "{\"a\": 9, \"e\": 9, \"b\": 9}").replace("\"d0\"",
                        "\"d6\"")) instanceof ToolResult.Success,
                "keys the collection has stay usable");
    }

    private Optional<String> present(String id) throws Exception {
        return store.collection("notes", Optional.empty()).existing(List.of(id)).stream().findFirst();
    }

    @Test
    void aMergeRunningAtShutdownDoesNotHoldIt() throws Exception {
        // Documents with many distinct keys (the bounds are what prevents them; the index itself is built directly),
        // one segment each, so that merging them into one takes a while: 30 x 20 x 50 keys merge for ~45 s on a loaded
        // 2-core machine, far past the 2 s close; 300 keys took ~60 s to write, ~20 s to read back and minutes to merge.
        VectorCollection collection = store.collection("heavy", Optional.of(new VectorCollection.Info(2, "test")));
        for (int segment = 0; segment < 30; segment++) {
            List<VectorCollection.Entry> entries = new ArrayList<>();
            for (int doc = 0; doc < 20; doc++) {
                ObjectNode metadata = SnakeCaseJson.MAPPER.createObjectNode();
                for (int key = 0; key < 50; key++) {
                    metadata.put("k" + segment + "_" + doc + "_" + key, key);
                }
                entries.add(new VectorCollection.Entry(segment + "-" + doc, "t", metadata, new float[] { 1, doc + 1 }));
            }
            collection.put(entries);
        }
        collection.mergeInBackground();
        assertTrue(collection.merging(), "a merge is running");

        long start = System.nanoTime();
        store.closeWithin(Duration.ofSeconds(2));
        long took = Duration.ofNanos(System.nanoTime() - start).toMillis();

        assertTrue(took < 3000, "shutdown took " + took + " ms with a merge running");
        // What was committed is on disk, whatever the merge was doing (a reader needs no write lock).
        try (DirectoryReader committed = DirectoryReader.open(FSDirectory.open(collection.directory()))) {
            assertEquals(600, committed.numDocs());
        }
    }
}
