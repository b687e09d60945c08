package io.sqlagent.embedded;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.mutiny.sqlclient.Pool;

/** With nothing configured, the embedded server serves the store and the Chinook demo source. */
@QuarkusTest
@ScriptedModel
class EmbeddedDefaultsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    SourceRegistry sources;

    @Inject
    Pool store;

    @ConfigProperty(name = "sqlagent.sources.default.url")
    String defaultSourceUrl;

    @Test
    void defaultSourceIsTheChinookDemo() {
        Pool chinook = sources.find("default").orElseThrow().requirePool();

        long tracks = chinook.query("SELECT count(*) FROM track").execute()
                .map(rows -> rows.iterator().next().getLong(0))
                .await().atMost(WAIT);

        assertEquals(3503, tracks);
    }

    @Test
    void storeAndSourceAreDifferentDatabases() {
        String storeDatabase = store.query("SELECT current_database()").execute()
                .map(rows -> rows.iterator().next().getString(0))
                .await().atMost(WAIT);
        boolean storeHasChinookTables = store.query("SELECT to_regclass('public.track') IS NOT NULL").execute()
                .map(rows -> rows.iterator().next().getBoolean(0))
                .await().atMost(WAIT);

        assertEquals(EmbeddedDatabase.STORE_DATABASE, storeDatabase);
        assertNotEquals(EmbeddedDatabase.DEMO_DATABASE, storeDatabase);
        assertFalse(storeHasChinookTables);
    }

    @Test
    void loadingChinookAgainChangesNothing() throws Exception {
        PGSimpleDataSource chinook = new PGSimpleDataSource();
        chinook.setURL("jdbc:" + defaultSourceUrl);
        chinook.setUser(EmbeddedDatabase.USER);

        boolean loaded = ChinookLoader.loadIfMissing(chinook);

        assertFalse(loaded);
        try (Connection connection = chinook.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement
                        .executeQuery("SELECT (SELECT count(*) FROM track), (SELECT count(*) FROM invoice_line)")) {
            rows.next();
            assertEquals(3503, rows.getLong(1));
            assertEquals(2240, rows.getLong(2));
        }
    }

    @Test
    void readinessChecksTheStoreAndEverySource() {
        given().when().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", is("UP"))
                .body("checks.name", hasItems("sqlagent sources", "Reactive PostgreSQL connections health check"))
                .body("checks.find { it.name == 'sqlagent sources' }.data.default", is("UP"));
    }

    @Test
    void livenessIsUp() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", is("UP"));
    }

    @Test
    void metricsArePublishedInPrometheusFormat() {
        given().accept("text/plain").when().get("/q/metrics")
                .then()
                .statusCode(200)
                .contentType(containsString("text/plain"))
                .body(containsString("# TYPE jvm_memory_used_bytes gauge"))
                .body(containsString("# TYPE process_uptime_seconds gauge"));
    }

    @Test
    void openApiAndSwaggerUiAreServed() {
        given().when().get("/q/openapi?format=json").then().statusCode(200).body("info.title", is("sqlagent API"));
        given().when().get("/q/swagger-ui/").then().statusCode(200).body(containsString("swagger"));
    }
}
