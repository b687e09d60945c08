package io.sqlagent.sql.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.subscription.Cancellable;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.engine.postgres.PgStatementCache;
import io.sqlagent.sql.engine.postgres.PostgresEngine;
import io.sqlagent.sql.result.ResultColumn;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.mutiny.sqlclient.Pool;

/** The second safety layer and the result shaping, against the real Chinook database. */
@QuarkusTest
@ScriptedModel
class QueryRunnerTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    /** The statement that learns a statement's columns, kept too: it holds the statement's text. */
    private static final String LEARNING = PgStatementCache.NAMES_PREFIX;

    @Inject
    QueryRunner runner;

    @Inject
    SourceRegistry sources;

    private Source chinook() {
        return sources.find("default").orElseThrow();
    }

    private QueryResult run(String sql) {
        return runner.run(chinook(), sql).await().atMost(WAIT);
    }

    private long count(String sql) {
        return run(sql).rows().get(0).get(0).asLong();
    }

    @Test
    void answersAnAnalyticalQueryWithRowsAsObjects() {
        QueryResult result = run("""
                SELECT g.name AS genre, count(*) AS tracks
                FROM track t JOIN genre g ON g.genre_id = t.genre_id
                GROUP BY g.name ORDER BY tracks DESC LIMIT 3""");

        assertEquals(List.of("genre", "tracks"), result.columnNames());
        assertEquals(List.of("character varying", "bigint"), result.columns().stream().map(ResultColumn::type).toList());
        assertEquals("{\"genre\":\"Rock\",\"tracks\":1297}", result.rowObjects().get(0).toString());
        assertEquals(3, result.rowCount());
        assertEquals(3, result.totalRows());
        assertFalse(result.truncated());
    }

    @Test
    void aTableWhoseColumnsChangeIsReadWithItsNewColumnsOnEveryConnection() {
        // Given a statement every connection of the pool has run (and may keep prepared)
        execute("DROP TABLE IF EXISTS reshaped");
        execute("CREATE TABLE reshaped (id int)");
        execute("INSERT INTO reshaped VALUES (1)");
        try {
            for (int i = 0; i < 12; i++) {
                assertEquals(List.of("id"), run("SELECT * FROM reshaped").columnNames());
            }

            // When the table gets another column
            execute("ALTER TABLE reshaped ADD COLUMN name text DEFAULT 'one'");

            // Then every call answers with both columns, none fails on a statement prepared for the old shape
            for (int i = 0; i < 12; i++) {
                QueryResult result = run("SELECT * FROM reshaped");
                assertEquals(List.of("id", "name"), result.columnNames());
                assertEquals("{\"id\":1,\"name\":\"one\"}", result.rowObjects().get(0).toString());
            }
        } finally {
            execute("DROP TABLE reshaped");
        }
    }

    @Test
    void aValueLongerThanJacksonsStringLimitIsCutNotFailed() {
        // 20 million characters is Jackson's default limit on one string; PostgreSQL's JSON of a row holding a
        // longer value failed the call. The first run reads the row's JSON, the second each column as text.
        String sql = "SELECT repeat('x', 20000100) AS big, 'small' AS small";
        for (int run = 0; run < 2; run++) {
            QueryResult result = run(sql);
            String big = result.rows().get(0).get(0).asText();
            assertTrue(big.startsWith("xxx") && big.contains("[cut: "), big.substring(0, Math.min(200, big.length())));
            assertTrue(big.length() < 20_000, "run " + run + ": " + big.length() + " characters kept");
            assertEquals("small", result.rows().get(0).get(1).asText());
        }
    }

    @Test
    void aCallLeavesOnItsConnectionOnlyTheStatementsOfSmallResultsABoundedNumberOfThem() {
        // Given calls of every kind: first and later runs of small results, of a result too wide to be read without a
        // cursor, an EXPLAIN
        for (int i = 0; i < 30; i++) {
            run("SELECT count(*) FROM track WHERE track_id > " + i);
            run("SELECT t.*, t.name AS again, t.composer AS composer_again FROM track t WHERE track_id < " + (i % 3 + 2));
        }
        run("EXPLAIN SELECT * FROM track");

        // Then a connection keeps only the statements of small results, a bounded number: PostgreSQL holds each for as
        // long as the connection lives; none of a cursor's
        Pool pool = chinook().requirePool();
        for (int i = 0; i < 4; i++) {
            List<String> kept = pool.withConnection(connection -> connection.query("""
                    SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%track%'""").execute())
                    .await().atMost(WAIT).stream().map(row -> row.getString(0)).toList();
            assertThat(kept).hasSizeLessThanOrEqualTo(PostgresEngine.PREPARED_STATEMENTS_PER_CONNECTION)
                    .allMatch(statement -> statement.startsWith(PgStatementCache.COLUMNS_PREFIX)
                            || statement.startsWith(PgStatementCache.NAMES_PREFIX)
                            || statement.startsWith(PgStatementCache.AS_IS_PREFIX), "columns, names and as-is statements");
        }
    }

    @Test
    void aSmallResultIsReadByAStatementItsConnectionKeptPrepared() {
        // Given a small result asked again and again: the statement counts its own plans, as PostgreSQL keeps it
        String sql = "SELECT generic_plans + custom_plans AS plans FROM pg_prepared_statements"
                + " WHERE statement LIKE '%plans of a kept statement%' AND statement NOT LIKE '" + LEARNING + "%'";

        // When it runs more often than the pool has connections
        long most = mostPlans(sql);

        // Then a connection ran it from the statement it prepared before: PostgreSQL parsed it once, not once a call
        assertThat(most).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aResultOfNumericValuesIsNeverReadInOneGo() {
        // Given a result with a numeric column, whose values PostgreSQL sends whole at any length (a thousand rows
        // of 100,000 digits would be 100 MB in one read), asked again and again: it counts its own plans
        String sql = "SELECT (generic_plans + custom_plans)::numeric AS plans FROM pg_prepared_statements"
                + " WHERE statement LIKE '%plans of a numeric statement%' AND statement NOT LIKE '" + LEARNING + "%'";

        // When it runs more often than the pool has connections
        long most = mostPlans(sql);

        // Then every call read it through a cursor, by a statement prepared for that call alone
        assertThat(most).isLessThanOrEqualTo(1);
    }

    /** The most plans {@code sql} (which counts its own plans, in at most one row) saw in 12 runs. */
    private long mostPlans(String sql) {
        long most = 0;
        for (int i = 0; i < 12; i++) {
            QueryResult result = run(sql);
            assertThat(result.rowCount()).isLessThanOrEqualTo(1);
            most = Math.max(most, result.rowCount() == 0 ? 0 : result.rows().get(0).get(0).asLong());
        }
        return most;
    }

    private void execute(String sql) {
        chinook().executeWriting(sql).await().atMost(WAIT);
    }

    @Test
    void aHugeResultStopsAtTheRowLimitAtOnce() {
        // In the select list, so PostgreSQL streams the rows: in FROM it first materialises all fifty
        // million (seconds, the same with or without a row limit), which under load outlasted the wait.
        QueryResult result = run("SELECT generate_series(1, 50000000) AS g");

        assertTrue(result.truncated());
        assertEquals(1000, result.rowCount());
        assertEquals(1001, result.totalRows());
    }

    @Test
    void anEndlessRecursiveQueryStopsAtTheRowLimit() {
        QueryResult result = run("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT n FROM t");

        assertTrue(result.truncated());
        assertEquals(1000, result.rowCount());
        assertEquals(1000, result.rows().get(999).get(0).asInt());
    }

    @Test
    void writesAreRefusedByTheDatabaseEvenWithoutTheGuard() {
        SqlExecutionException create = assertThrows(SqlExecutionException.class, () -> run("CREATE TABLE intruder (a int)"));
        SqlExecutionException delete = assertThrows(SqlExecutionException.class, () -> run("DELETE FROM track"));
        SqlExecutionException cte = assertThrows(SqlExecutionException.class,
                () -> run("WITH gone AS (DELETE FROM invoice_line RETURNING *) SELECT count(*) FROM gone"));

        assertEquals("25006", create.sqlState());
        assertTrue(create.getMessage().startsWith("cannot execute CREATE TABLE in a read-only transaction"),
                create.getMessage());
        assertEquals("25006", delete.sqlState());
        // Run as a subquery, a data-modifying WITH is refused before it could even reach the read-only check.
        assertTrue(List.of("25006", "0A000").contains(cte.sqlState()), cte.getMessage());
        assertEquals(3503, count("SELECT count(*) FROM track"));
        assertEquals(2240, count("SELECT count(*) FROM invoice_line"));
        assertEquals(0, count("SELECT count(*) FROM pg_class WHERE relname = 'intruder'"));
    }

    @Test
    void theSourcesConnectionsAreReadOnlyEvenOutsideTheServicesTransactions() {
        // Given the source's pooled connections as the service set them up
        QueryResult defaults = run("SELECT current_setting('default_transaction_read_only') AS read_only, "
                + "current_setting('standard_conforming_strings') AS strings");

        // When a write reaches one without the service's transaction (as one would if its opening had failed)
        io.vertx.pgclient.PgException refused = assertThrows(io.vertx.pgclient.PgException.class,
                () -> chinook().requirePool().query("CREATE TABLE intruder_outside (a int)").execute().await().atMost(WAIT));

        // Then it is refused, while an operator's fixture may still write, and the default is back after it
        assertEquals("on", defaults.rows().get(0).get(0).asText());
        assertEquals("on", defaults.rows().get(0).get(1).asText());
        assertEquals("25006", refused.getSqlState());
        execute("CREATE TABLE IF NOT EXISTS fixture_written (a int); DROP TABLE fixture_written");
        for (int i = 0; i < 10; i++) {
            assertEquals("on", run("SELECT current_setting('default_transaction_read_only')").rows().get(0).get(0).asText());
        }
        assertEquals(0, count("SELECT count(*) FROM pg_class WHERE relname IN ('intruder_outside', 'fixture_written')"));
    }

    @Test
    void onlyOneStatementReachesTheServer() {
        SqlExecutionException error = assertThrows(SqlExecutionException.class, () -> run("SELECT 1; SELECT 2"));

        assertEquals("42601", error.sqlState());
        assertTrue(error.getMessage().startsWith("cannot insert multiple commands into a prepared statement"),
                error.getMessage());
    }

    @Test
    void aStatementThatEndsTooSoonIsSaidToEndThereNotInTheTextItIsWrappedIn() {
        SqlExecutionException error = assertThrows(SqlExecutionException.class, () -> run("SELECT 1 +"));

        assertEquals("42601", error.sqlState());
        assertTrue(error.getMessage().startsWith("syntax error at end of input (SQLSTATE 42601) at character 11"),
                error.getMessage());
    }

    @Test
    void errorsCarryPostgresMessageCodeAndPosition() {
        SqlExecutionException error = assertThrows(SqlExecutionException.class, () -> run("SELECT nme FROM artist"));

        assertEquals("42703", error.sqlState());
        assertEquals(8, error.position().orElseThrow());
        assertTrue(
                error.getMessage()
                        .startsWith("column \"nme\" does not exist (SQLSTATE 42703) at character 8: 'SELECT nme FROM artist'"),
                error.getMessage());
    }

    @Test
    void valuesAreRenderedAsPostgresMeansThem() {
        String row = run("""
                SELECT 7::int AS i, 2.50::numeric(5,2) AS d, 'x'::text AS t, DATE '2024-01-02' AS day,
                       TIMESTAMPTZ '2024-01-02 03:04:05+00' AS ts, '{"a": 1}'::jsonb AS j, ARRAY[1, 2] AS arr,
                       '\\x0102'::bytea AS bin, NULL::text AS nothing, true AS yes, INTERVAL '1 day' AS span""")
                .rowObjects().get(0).toString();

        assertEquals("{\"i\":7,\"d\":2.50,\"t\":\"x\",\"day\":\"2024-01-02\",\"ts\":\"2024-01-02T03:04:05+00:00\","
                + "\"j\":{\"a\":1},\"arr\":[1,2],\"bin\":\"\\\\x0102\",\"nothing\":null,\"yes\":true,\"span\":\"1 day\"}", row);
    }

    @Test
    void theAnswerIsWrittenOnceAsTheTreeOfItsValuesWrote() throws Exception {
        QueryResult result = run("""
                SELECT 1e20::float8 AS n, 0.00000015 AS n, 270.00 AS d, NULL::int AS nothing, 'Motörhead — 東京 🎸' AS u,
                       E'tab\\t quote " backslash \\\\' AS esc, chr(1) AS ctl, '{"a" : 1, "a" : 2}'::json AS dup,
                       ROW(1, 'a, b') AS r, ARRAY['a', NULL] AS arr, repeat('x', 2003) AS long_text""");

        // The bytes the service answered with before they were written while the rows were read (compared with
        // that build over REST and MCP for this statement and others: docs/benchmarks.md).
        String expected = "{\"columns\":[{\"name\":\"n\",\"type\":\"double precision\",\"key\":\"n\"},"
                + "{\"name\":\"n\",\"type\":\"numeric\",\"key\":\"n_2\"},{\"name\":\"d\",\"type\":\"numeric\",\"key\":\"d\"},"
                + "{\"name\":\"nothing\",\"type\":\"integer\",\"key\":\"nothing\"},{\"name\":\"u\",\"type\":\"text\",\"key\":\"u\"},"
                + "{\"name\":\"esc\",\"type\":\"text\",\"key\":\"esc\"},{\"name\":\"ctl\",\"type\":\"text\",\"key\":\"ctl\"},"
                + "{\"name\":\"dup\",\"type\":\"json\",\"key\":\"dup\"},{\"name\":\"r\",\"type\":\"record\",\"key\":\"r\"},"
                + "{\"name\":\"arr\",\"type\":\"text[]\",\"key\":\"arr\"},{\"name\":\"long_text\",\"type\":\"text\",\"key\":\"long_text\"}],"
                + "\"rows\":[{\"n\":1e+20,\"n_2\":0.00000015,\"d\":270.00,\"nothing\":null,"
                + "\"u\":\"Motörhead — 東京 \\uD83C\\uDFB8\",\"esc\":\"tab\\t quote \\\" backslash \\\\\",\"ctl\":\"\\u0001\","
                + "\"dup\":{\"a\":2},\"r\":{\"f1\":1,\"f2\":\"a, b\"},\"arr\":[\"a\",null],"
                + "\"long_text\":\"" + "x".repeat(2000) + "…[cut: 3 more characters]\"}],"
                + "\"row_count\":1,\"total_rows\":1,\"truncated\":false}";
        assertEquals(expected, new String(result.json(), StandardCharsets.UTF_8));
        // Read back for the readers of values, each value is what the tree held: written again, the same bytes.
        assertEquals(expected, new String(SnakeCaseJson.MAPPER.writeValueAsBytes(result.toJson()), StandardCharsets.UTF_8));
        List<JsonNode> row = result.rows().get(0);
        assertEquals(List.of("1e+20", "0.00000015", "270.00"), row.subList(0, 3).stream().map(JsonNode::asText).toList());
        assertTrue(row.get(3).isNull());
        assertEquals("Motörhead — 東京 🎸", row.get(4).asText());
        assertEquals(2, row.get(7).path("a").asInt());
    }

    @Test
    void aCallerThatGoesAwayCancelsTheStatementInTheDatabase() throws Exception {
        String marker = "cancel_probe_" + System.nanoTime();
        Cancellable running = runner.run(chinook(), "SELECT pg_sleep(30), '" + marker + "'").subscribe().with(r -> {
        }, f -> {
        });
        awaitActive(marker, true);

        running.cancel();

        awaitActive(marker, false);
    }

    private void awaitActive(String marker, boolean expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            long active = count("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%" + marker
                    + "%' AND query NOT LIKE '%pg_stat_activity%'");
            if ((active > 0) == expected) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the statement was " + (expected ? "never seen running" : "still running after the cancel"));
    }
}
