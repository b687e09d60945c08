package io.sqlagent.knowledge.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.knowledge.KnowledgeStore;
import io.sqlagent.knowledge.LearningConfig;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.schema.SchemaIntrospector;
import io.sqlagent.sql.source.SourceRegistry;
import io.sqlagent.workspace.vector.Embeddings;
import io.vertx.mutiny.core.Vertx;

/**
 * The schema index as a replica starts it (build at start, on Chinook): the word index first, the vectors only once
 * someone searches, unless {@code embed-at-start} asks for them at once. Each test starts its own {@link SchemaSearch}
 * with the application's parts, as the start does, so what other tests searched does not count.
 */
@QuarkusTest
@ScriptedModel
class SchemaSearchStartTest {

    @Inject
    SchemaIntrospector introspector;
    @Inject
    SourceRegistry sources;
    @Inject
    SqlConfig sql;
    @Inject
    TablePolicy tables;
    @Inject
    ColumnPolicy columns;
    @Inject
    KnowledgeStore knowledge;
    @Inject
    LearningConfig learning;
    @Inject
    Embeddings embeddings;
    @Inject
    SchemaSearchConfig config;
    @Inject
    Vertx vertx;

    private SchemaSearch started;

    @AfterEach
    void stop() {
        if (started != null) {
            started.stop();
        }
    }

    /** The application's settings, with the index built at start, embedded at start or not, and no schedule. */
    private SchemaSearch start(boolean embedAtStart) {
        return start(embedAtStart, Duration.ZERO);
    }

    private SchemaSearch start(boolean embedAtStart, Duration startDelay) {
        SchemaSearchConfig.Index index = config.index();
        SchemaSearchConfig.Index atStart = new SchemaSearchConfig.Index() {
            @Override
            public boolean buildAtStart() {
                return true;
            }

            @Override
            public boolean embedAtStart() {
                return embedAtStart;
            }

            @Override
            public Duration startDelay() {
                return startDelay;
            }

            @Override
            public Duration refreshInterval() {
                return Duration.ZERO;
            }

            @Override
            public boolean semantic() {
                return index.semantic();
            }

            @Override
            public int maxTables() {
                return index.maxTables();
            }

            @Override
            public boolean columnValues() {
                return index.columnValues();
            }

            @Override
            public int columnValuesMaxDistinct() {
                return index.columnValuesMaxDistinct();
            }
        };
        SchemaSearchConfig settings = new SchemaSearchConfig() {
            @Override
            public Index index() {
                return atStart;
            }

            @Override
            public Listing listing() {
                return config.listing();
            }

            @Override
            public ValueHints valueHints() {
                return config.valueHints();
            }
        };
        started = new SchemaSearch(introspector, sources, sql, tables, columns, knowledge, learning, embeddings, settings,
                vertx);
        started.onStart(new StartupEvent());
        return started;
    }

    private static void awaitState(SchemaSearch search, boolean semantic) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!(search.status().state().equals("ready") && search.status().semantic() == semantic)) {
            assertTrue(System.nanoTime() < deadline, "the index never became ready with semantic=" + semantic + ": "
                    + search.status());
            Thread.sleep(50);
        }
    }

    private static List<String> found(SchemaSearch search, String query) {
        return search.search(query, 5).await().atMost(Duration.ofSeconds(60)).stream().map(SchemaIndex.Hit::table).toList();
    }

    @Test
    void aStartBuildsTheWordIndexOnlyAndTheFirstSearchStillFindsTablesThenAddsTheVectors() throws Exception {
        SchemaSearch search = start(false);

        search.index().await().atMost(Duration.ofSeconds(60));
        awaitState(search, false);
        SchemaSearch.Status afterStart = search.status();
        assertEquals(11, afterStart.tables(), afterStart.toString());
        assertFalse(afterStart.semantic(), "no vectors before the first search: " + afterStart);
        assertNull(afterStart.embeddingMillis(), afterStart.toString());

        // The first search is answered at once, by words, and starts the vectors.
        List<String> first = found(search, "Which artists released the most albums?");
        assertTrue(first.containsAll(List.of("public.artist", "public.album")), first.toString());

        awaitState(search, true);
        assertTrue(search.status().embeddingMillis() != null, search.status().toString());
        // No table is named after songs or music styles: found by meaning, now that the vectors are in.
        List<String> byMeaning = found(search, "songs by music style");
        assertTrue(byMeaning.containsAll(List.of("public.track", "public.genre")), byMeaning.toString());
    }

    @Test
    void theStartsBuildWaitsItsDelayYetNeedsNoSearchAndASearchMeanwhileBuildsAtOnce() throws Exception {
        // The start's build begins after its delay, not during the start, and without anyone searching
        SchemaSearch idle = start(false, Duration.ofSeconds(1));
        assertEquals("not built", idle.status().state(), idle.status().toString());
        awaitState(idle, false);
        assertEquals(11, idle.status().tables(), idle.status().toString());
        idle.stop();

        // and a search before the delay is over builds and is answered at once
        SchemaSearch asked = start(false, Duration.ofMinutes(10));
        List<String> first = found(asked, "Which artists released the most albums?");
        assertTrue(first.containsAll(List.of("public.artist", "public.album")), first.toString());
    }

    @Test
    void withEmbedAtStartTheVectorsComeWithoutASearch() throws Exception {
        SchemaSearch search = start(true);

        awaitState(search, true);

        assertEquals(11, search.status().tables(), search.status().toString());
        assertTrue(search.status().embeddingMillis() != null, search.status().toString());
    }

    @Test
    void aListingNeedsNoVectors() throws Exception {
        SchemaSearch search = start(false);

        assertEquals(11, search.summaries().await().atMost(Duration.ofSeconds(60)).size());
        awaitState(search, false);

        assertFalse(search.status().semantic(), search.status().toString());
    }
}
