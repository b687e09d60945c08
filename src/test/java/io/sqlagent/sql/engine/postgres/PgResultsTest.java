package io.sqlagent.sql.engine.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.engine.ResultReader;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.source.Engines;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * PostgreSQL's results through the engine contract ({@code Engine.results()}), on Chinook: inside a read-only
 * transaction of the caller's, the reader answers byte for byte what {@code run_sql}'s path answers (the first run of a
 * statement, whose rows come as {@code to_json}, and the next, by its columns' kinds, small or through a cursor), with
 * the caps it is given, and the server's refusal at the caller's character.
 */
@QuarkusTest
@ScriptedModel
class PgResultsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    QueryRunner runner;

    @Inject
    SourceRegistry sources;

    @Inject
    SqlConfig config;

    private Source chinook() {
        return sources.find("default").orElseThrow();
    }

    private ResultReader.Caps settings() {
        return new ResultReader.Caps(config.maxRows(), config.maxResultSize().asLongValue(), config.maxCellChars());
    }

    /** {@code sql} read by the engine's reader in a read-only transaction, always rolled back. */
    private ResultReader.Result read(String sql, ResultReader.Caps caps) {
        return chinook().requirePool().withConnection(connection -> connection.query("BEGIN READ ONLY").execute()
                .flatMap(begun -> Engines.POSTGRESQL.results().read(connection, sql, caps))
                .onTermination().call(() -> rollback(connection)))
                .await().atMost(WAIT);
    }

    private static Uni<Void> rollback(SqlConnection connection) {
        return connection.query("ROLLBACK").execute().replaceWithVoid().onFailure().recoverWithNull();
    }

    private static String json(ResultReader.Result result) {
        return new String(result.written().json(), StandardCharsets.UTF_8);
    }

    private String runSql(String sql) {
        return new String(runner.run(chinook(), sql).await().atMost(WAIT).json(), StandardCharsets.UTF_8);
    }

    @Test
    void answersWhatRunSqlAnswersOnTheFirstRunAndTheNext() {
        String[] statements = {
                // Small once its columns are known: read without a cursor.
                "SELECT g.name AS genre, count(*) AS tracks FROM track t JOIN genre g USING (genre_id)"
                        + " GROUP BY g.name ORDER BY tracks DESC, genre LIMIT 5 /* PgResultsTest small */",
                // A numeric column: always a cursor; more rows than the row limit.
                "SELECT track_id, name, unit_price, milliseconds FROM track ORDER BY track_id /* PgResultsTest wide */",
                // Repeated names, NULLs, dates, JSON and an array.
                "SELECT 1 AS a, 'x' AS a, NULL::int AS n, date '2024-02-29' AS d, '{\"k\": [1, 2.50]}'::jsonb AS j,"
                        + " ARRAY[1, 2] AS arr /* PgResultsTest values */" };
        for (String sql : statements) {
            String first = json(read(sql, settings()));
            String second = json(read(sql, settings()));

            assertThat(second).isEqualTo(first);
            assertThat(runSql(sql)).isEqualTo(first);
        }
    }

    @Test
    void keepsToTheCapsItIsGiven() {
        String sql = "SELECT track_id, name FROM track ORDER BY track_id /* PgResultsTest caps */";

        ResultReader.Result rows = read(sql, new ResultReader.Caps(3, 1_000_000, 4));
        assertThat(rows.rowCount()).isEqualTo(3);
        assertThat(rows.totalRows()).isEqualTo(4);
        assertThat(rows.truncated()).isTrue();
        assertThat(json(rows)).contains("\"track_id\":1", "\"track_id\":3").doesNotContain("\"track_id\":4")
                .contains("For ");

        ResultReader.Result size = read(sql, new ResultReader.Caps(1000, 200, 10_000));
        assertThat(size.truncated()).isTrue();
        assertThat(size.rowCount()).isBetween(1, 5);
        assertThat(size.totalRows()).isGreaterThan(size.rowCount());
    }

    @Test
    void theServersRefusalPointsAtTheCallersCharacter() {
        String sql = "SELECT name, no_such_column FROM track /* PgResultsTest refusal */";

        Throwable failure = catchThrowable(() -> read(sql, settings()));

        assertThat(failure).isInstanceOf(PgRefusal.class);
        PgRefusal refusal = (PgRefusal) failure;
        assertThat(refusal.failure().getSqlState()).isEqualTo("42703");
        assertThat(Integer.parseInt(refusal.failure().getPosition()) + refusal.shift())
                .isEqualTo(sql.indexOf("no_such_column") + 1);
    }
}
