package io.sqlagent.sql.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.sqlagent.TestProfiles;
import io.sqlagent.sql.source.SourceRegistry;

/** The configured limits: statement timeout, row limit, value length, result size. */
@QuarkusTest
@TestProfile(TestProfiles.Restricted.class)
class SqlLimitsTest {

    @Inject
    QueryRunner runner;

    @Inject
    SourceRegistry sources;

    private QueryResult run(String sql) {
        return runner.run(sources.find("default").orElseThrow(), sql).await().atMost(Duration.ofSeconds(20));
    }

    @Test
    void aStatementPastTheTimeoutIsCancelledByTheServer() {
        SqlExecutionException error = assertThrows(SqlExecutionException.class, () -> run("SELECT pg_sleep(10)"));

        assertEquals("57014", error.sqlState());
        assertTrue(error.getMessage().startsWith("canceling statement due to statement timeout"), error.getMessage());
    }

    @Test
    void theRowLimitApplies() {
        QueryResult result = run("SELECT track_id FROM track ORDER BY track_id");

        assertEquals(5, result.rowCount());
        assertEquals(6, result.totalRows());
        assertTrue(result.truncated());
    }

    @Test
    void longValuesAreCutWithAMarker() {
        QueryResult result = run("SELECT repeat('a', 25) AS long_text");

        assertEquals("aaaaaaaaaa…[cut: 15 more characters]", result.rows().get(0).get(0).asText());
    }

    @Test
    void rowsPastTheResultSizeAreLeftOutAndTheResultMarkedTruncated() {
        QueryResult result = run(
                "SELECT t.name, t.composer, a.title FROM track t JOIN album a USING (album_id) ORDER BY track_id LIMIT 5");

        assertTrue(result.truncated());
        assertTrue(result.rowCount() < 5, "rows: " + result.rowCount());
        assertTrue(result.rowCount() >= 1);
        assertEquals(5, result.totalRows());
    }
}
