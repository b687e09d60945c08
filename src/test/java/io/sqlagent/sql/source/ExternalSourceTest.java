package io.sqlagent.sql.source;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.embedded.EmbeddedDatabase;
import io.sqlagent.knowledge.KnowledgeLoader;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.vertx.mutiny.sqlclient.Pool;

/** Setting source {@code default} to an external PostgreSQL makes the service query it instead of the demo. */
@QuarkusTest
@WithTestResource(ExternalPostgresResource.class)
class ExternalSourceTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    SourceRegistry sources;

    @Inject
    Pool store;

    @Test
    void defaultSourceQueriesTheConfiguredDatabase() {
        Pool source = sources.find("default").orElseThrow().requirePool();

        long tracks = source.query("SELECT count(*) FROM track").execute()
                .map(rows -> rows.iterator().next().getLong(0))
                .await().atMost(WAIT);
        String user = source.query("SELECT current_user").execute()
                .map(rows -> rows.iterator().next().getString(0))
                .await().atMost(WAIT);

        assertEquals(ExternalPostgresResource.TRACKS, tracks);
        assertEquals("shop_reader", user);
    }

    @Inject
    KnowledgeLoader knowledge;

    @Test
    void theShippedChinookKnowledgeIsNotLoadedForADatabaseOfTheUsersOwn() {
        // Its patterns' SQL is the demo's, and its table names (customer, invoice) would steer search_schema here.
        assertThat(knowledge.documents()).extracting(KnowledgeLoader.Document::name)
                .noneMatch(name -> name.startsWith("classpath:"));
    }

    @Test
    void whatTheShippedKnowledgeLoadedOnAnEarlierStartIsRemovedAndTheUsersOwnStays() {
        // A store that served the demo before holds its patterns and notes, and a file of the user's own.
        knowledge.load(KnowledgeLoader.shipped().get(0)).await().atMost(WAIT);
        knowledge.load(new KnowledgeLoader.Document("own-shop.json", """
                {"query_patterns": [{"name": "own_shop_tracks", "question": "How many tracks does the shop have?",
                  "sql": "SELECT count(*) FROM track", "summary": "Tracks in the shop."}]}
                """)).await().atMost(WAIT);
        assertThat(shipped()).isPositive();

        knowledge.loadAll().await().atMost(WAIT);

        assertThat(shipped()).isZero();
        assertEquals(1L, count("SELECT count(*) FROM query_pattern WHERE name = 'own_shop_tracks'"));
    }

    private long shipped() {
        return count("SELECT (SELECT count(*) FROM query_pattern WHERE source_file LIKE 'classpath:%')"
                + " + (SELECT count(*) FROM knowledge_doc WHERE source_file LIKE 'classpath:%')");
    }

    private long count(String sql) {
        return store.query(sql).execute().map(rows -> rows.iterator().next().getLong(0)).await().atMost(WAIT);
    }

    @Test
    void storeStaysOnTheEmbeddedServer() {
        String storeDatabase = store.query("SELECT current_database()").execute()
                .map(rows -> rows.iterator().next().getString(0))
                .await().atMost(WAIT);

        assertEquals(EmbeddedDatabase.STORE_DATABASE, storeDatabase);
    }

    @Test
    void onlyTheConfiguredSourcesExistAndAreReady() {
        assertEquals(
                MariaDbServer.available() ? List.of("default", "flaky", "gadgets", "music", "roles", "stock")
                        : List.of("default", "stock"),
                sources.all().stream().map(Source::name).toList());
        given().when().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("checks.find { it.name == 'sqlagent sources' }.data.default", is("UP"))
                // shop_reader may only SELECT: no warning about its role.
                .body("checks.find { it.name == 'sqlagent sources' }.data['default warning']", nullValue());
    }
}
