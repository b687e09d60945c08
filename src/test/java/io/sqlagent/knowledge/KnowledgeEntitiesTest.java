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
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The knowledge items round-trip through the real store: what a review writes ({@link KnowledgeItems#update}) is what
 * the table holds and what is read back (arrays, JSON, defaults, the generated search column), and store work runs
 * whether the caller is a plain thread, a worker or a Vert.x event loop.
 */
@QuarkusTest
@ScriptedModel
class KnowledgeEntitiesTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

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
        long id = store
                .preparedQuery(
                        """
                                INSERT INTO query_pattern (name, question, sql, summary, source, status) VALUES ($1, $2, 'SELECT 1', '', 'agent',
                                    'proposed') RETURNING id""")
                .execute(Tuple.of(name, "How many " + name + "?")).await().atMost(WAIT)
                .iterator().next().getLong("id");
        QueryPattern pattern = patternNamed(name);
        assertArrayEquals(new String[0], pattern.tablesUsed);
        pattern.sql = "SELECT count(*) FROM \"Track\"";
        pattern.summary = "Counts " + name;
        pattern.tablesUsed = new String[] { "Track", "Album, with comma" };
        pattern.status = "approved";
        pattern.resultColumns = "[{\"name\": \"count\", \"type\": \"int8\"}]";
        pattern.resultRows = 1;

        KnowledgeItems.update(store, pattern).await().atMost(WAIT);

        QueryPattern read = patternNamed(name);
        assertEquals(id, read.id);
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
        store.preparedQuery("""
                INSERT INTO learning (title, description, category, source, status, proposed_by)
                VALUES ($1, 'Divide by 100.', 'data_quality', 'agent', 'proposed', 'ann')""")
                .execute(Tuple.of("Prices of " + word + " are cents")).await().atMost(WAIT);
        Learning learning = KnowledgeItems.learnings(store, "title = $1", "Prices of " + word + " are cents").await()
                .atMost(WAIT).get(0);
        learning.status = "approved";
        KnowledgeItems.update(store, learning).await().atMost(WAIT);
        knowledge.upsertDoc("table", "table_" + word, "Holds " + word + " rows.", null).await().atMost(WAIT);

        Learning read = KnowledgeItems.find(store, KnowledgeItemId.learning(learning.id), false).await().atMost(WAIT)
                .map(Learning.class::cast).orElseThrow();
        assertNotNull(read.createdAt);
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

    private QueryPattern patternNamed(String name) {
        return KnowledgeItems.patterns(store, "name = $1", name).await().atMost(WAIT).get(0);
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
