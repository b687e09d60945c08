package io.sqlagent.knowledge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.store.StoreSessions;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The knowledge entities round-trip through the real store: what an entity writes is what the
 * table holds (arrays, JSON, defaults, the generated search column), and store work runs whether
 * the caller is a plain thread, a worker or a Vert.x event loop.
 */
@QuarkusTest
@ScriptedModel
class KnowledgeEntitiesTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    StoreSessions sessions;

    @Inject
    KnowledgeStore knowledge;

    @Inject
    Pool store;

    @Inject
    Vertx vertx;

    private static String unique() {
        return "zq" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    @Test
    void aQueryPatternRoundTripsWithItsArrayAndJsonColumns() {
        String name = unique();
        QueryPattern pattern = new QueryPattern();
        pattern.name = name;
        pattern.question = "How many " + name + "?";
        pattern.sql = "SELECT count(*) FROM \"Track\"";
        pattern.summary = "Counts " + name;
        pattern.tablesUsed = new String[] { "Track", "Album, with comma" };
        pattern.source = "agent";
        pattern.status = "approved";
        pattern.resultColumns = "[{\"name\": \"count\", \"type\": \"int8\"}]";
        pattern.resultRows = 1;

        long id = sessions.withTransaction(() -> pattern.<QueryPattern> persist()).await().atMost(WAIT).id;

        QueryPattern read = sessions.withSession(() -> QueryPattern.<QueryPattern> findById(id)).await().atMost(WAIT);
        assertEquals(name, read.name);
        assertArrayEquals(new String[] { "Track", "Album, with comma" }, read.tablesUsed);
        assertEquals("[{\"name\": \"count\", \"type\": \"int8\"}]", read.resultColumns);
        assertNotNull(read.createdAt);
        assertNull(read.checkStatus);
        // The table holds real types, not text: the array has two elements, the JSON is jsonb.
        var row = store.preparedQuery(
                """
                        SELECT cardinality(tables_used) AS tables, jsonb_typeof(result_columns) AS kind FROM query_pattern WHERE id = $1""")
                .execute(Tuple.of(id)).await().atMost(WAIT).iterator().next();
        assertEquals(2, row.getInteger("tables"));
        assertEquals("array", row.getString("kind"));
        // The generated search column indexes what the entity wrote.
        List<KnowledgeStore.PatternHit> hits = knowledge.searchPatterns(name, 5).await().atMost(WAIT);
        assertEquals(List.of("Track", "Album, with comma"), hits.get(0).tablesUsed());
    }

    @Test
    void aLearningAndATableNoteRoundTripAndAreSearched() {
        String word = unique();
        Learning learning = new Learning();
        learning.title = "Prices of " + word + " are cents";
        learning.description = "Divide by 100.";
        learning.category = "data_quality";
        learning.source = "agent";
        learning.status = "approved";
        learning.proposedBy = "ann";
        KnowledgeDoc doc = new KnowledgeDoc();
        doc.kind = "table";
        doc.name = "table_" + word;
        doc.body = "Holds " + word + " rows.";

        sessions.withTransaction(() -> learning.persist().chain(doc::persist)).await().atMost(WAIT);

        Learning read = sessions.withSession(() -> Learning.<Learning> findById(learning.id)).await().atMost(WAIT);
        assertEquals("ann", read.proposedBy);
        assertEquals("approved", read.status);
        assertEquals("md5", store.preparedQuery("SELECT CASE WHEN dedup_key = md5(lower(btrim(title)) || '|' || category) "
                + "THEN 'md5' END AS k FROM learning WHERE id = $1").execute(Tuple.of(learning.id)).await().atMost(WAIT)
                .iterator().next().getString("k"));
        List<String> titles = knowledge.searchLearnings(word, 10, true).await().atMost(WAIT).stream()
                .map(KnowledgeStore.LearningHit::title).toList();
        assertTrue(titles.contains(learning.title), titles.toString());
        assertTrue(titles.contains("table_" + word), titles.toString());
    }

    @Test
    void storeWorkRunsFromAnEventLoopAndFromAWorker() throws Exception {
        String word = unique();
        knowledge.upsertDoc("rule", "rule_" + word, "Rule about " + word, "test").await().atMost(WAIT);

        // From a Vert.x event loop (a REST request's or a model client's thread): never awaited there.
        CompletableFuture<Integer> onEventLoop = new CompletableFuture<>();
        vertx.runOnContext(ignored -> knowledge.searchLearnings(word, 5, false)
                .subscribe().with(hits -> onEventLoop.complete(hits.size()), onEventLoop::completeExceptionally));
        assertEquals(1, onEventLoop.get(30, TimeUnit.SECONDS));

        // From a worker (a blocking tool, an observer) inside an unrelated Mutiny chain.
        CompletableFuture<Integer> onWorker = new CompletableFuture<>();
        vertx.executeBlocking(() -> Uni.createFrom().item(word)
                .flatMap(query -> knowledge.searchLearnings(query, 5, false))
                .await().atMost(WAIT).size())
                .onComplete(result -> {
                    if (result.succeeded()) {
                        onWorker.complete(result.result());
                    } else {
                        onWorker.completeExceptionally(result.cause());
                    }
                });
        assertEquals(1, onWorker.get(30, TimeUnit.SECONDS));
    }
}
