package io.sqlagent.sql.engine.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.sql.engine.EngineFailure;
import io.sqlagent.sql.engine.ResultReader;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * The shape and the caps of a result read through the engine on a real MariaDB, as for PostgreSQL: columns typed even
 * when no row comes, repeated names kept under keys of their own, the row limit with one row read past it, the size
 * cap, long values cut with a marker, statements other than queries ({@code SHOW}, {@code EXPLAIN}), and the server's
 * refusals and time limit translated.
 */
class MySqlResultsOnMariaDbTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final MySqlEngine ENGINE = MySqlEngine.mariaDb();

    private static Vertx vertx;
    private static Pool agent;
    private static EngineSession session;

    @BeforeAll
    static void fillTheTables() {
        MariaDbServer server = MariaDbServer.get();
        server.root("""
                CREATE OR REPLACE TABLE shop.numbers (n INT PRIMARY KEY, label VARCHAR(100), payload BLOB)
                    DEFAULT CHARSET = utf8mb4;
                INSERT INTO shop.numbers
                    WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10)
                    SELECT n, CONCAT('number ', n), NULL FROM s;
                UPDATE shop.numbers SET label = REPEAT('x', 50), payload = REPEAT(X'AB', 100) WHERE n = 10;
                """);
        vertx = Vertx.vertx();
        agent = Pool.newInstance(ENGINE.pool(vertx, server.agentUrl(), new PoolOptions().setMaxSize(2)));
        session = new EngineSession(ENGINE, agent, LIMIT);
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            agent.close().await().indefinitely();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static ResultReader.Caps caps(int maxRows) {
        return new ResultReader.Caps(maxRows, 1_000_000, 10_000);
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.get(field).asText()));
        return texts;
    }

    @Test
    void repeatedColumnNamesAreKeptUnderKeysOfTheirOwn() {
        JsonNode answer = session.answer("SELECT 1 AS a, 2 AS a, 3 AS a_2", caps(10));

        assertThat(texts(answer.get("columns"), "name")).containsExactly("a", "a", "a_2");
        assertThat(texts(answer.get("columns"), "key")).containsExactly("a", "a_3", "a_2");
        assertThat(answer.get("rows").toString()).isEqualTo("[{\"a\":1,\"a_3\":2,\"a_2\":3}]");
    }

    @Test
    void aResultWithoutRowsStillHasItsTypedColumns() {
        JsonNode answer = session.answer("SELECT n, label, payload FROM numbers WHERE n < 0", caps(10));

        assertThat(texts(answer.get("columns"), "type")).containsExactly("int", "varchar", "blob");
        assertThat(answer.get("rows")).isEmpty();
        assertThat(answer.get("row_count").asInt()).isZero();
        assertThat(answer.get("truncated").asBoolean()).isFalse();
    }

    @Test
    void theRowLimitKeepsThatManyAndReadsOneMore() {
        ResultReader.Result capped = session.read("SELECT n FROM numbers ORDER BY n", caps(3));
        ResultReader.Result exact = session.read("SELECT n FROM numbers ORDER BY n", caps(10));

        assertThat(capped.rowCount()).isEqualTo(3);
        assertThat(capped.totalRows()).isEqualTo(4);
        assertThat(capped.truncated()).isTrue();
        assertThat(new String(capped.written().json())).contains("\"rows\":[{\"n\":1},{\"n\":2},{\"n\":3}]");
        assertThat(exact.rowCount()).isEqualTo(10);
        assertThat(exact.totalRows()).isEqualTo(10);
        assertThat(exact.truncated()).isFalse();
    }

    @Test
    void theSizeCapEndsTheResultAtTheFirstRowThatDoesNotFit() {
        // Each row {"n":1,"label":"number 1"} counts 2 + (1 + 4 + 1) + (5 + 4 + 10) = 27 characters.
        ResultReader.Result result = session.read("SELECT n, label FROM numbers WHERE n < 10 ORDER BY n",
                new ResultReader.Caps(100, 60, 10_000));

        assertThat(result.rowCount()).isEqualTo(2);
        assertThat(result.truncated()).isTrue();
        assertThat(result.totalRows()).isEqualTo(3);
    }

    @Test
    void longValuesAreCutWithAMarkerSayingHowMuchWasLeftOut() {
        JsonNode row = session
                .answer("SELECT label, payload FROM numbers WHERE n = 10", new ResultReader.Caps(10, 1_000_000, 20))
                .get("rows").get(0);

        assertThat(row.get("label").textValue()).isEqualTo("x".repeat(20) + "…[cut: 30 more characters]");
        // 0x and 200 hex digits
        assertThat(row.get("payload").textValue()).isEqualTo("0xABABABABABABABABAB" + "…[cut: 182 more characters]");
    }

    @Test
    void showAndExplainAreReadLikeQueries() {
        JsonNode tables = session.answer("SHOW TABLES", caps(100));
        JsonNode plan = session.answer("EXPLAIN SELECT * FROM numbers WHERE n = 3", caps(100));
        JsonNode described = session.answer("DESCRIBE numbers", caps(100));

        assertThat(tables.get("rows").toString()).contains("\"numbers\"");
        assertThat(texts(plan.get("columns"), "name")).contains("select_type", "table", "key", "rows");
        assertThat(plan.get("rows").get(0).get("table").textValue()).isEqualTo("numbers");
        assertThat(texts(described.get("rows"), "Field")).containsExactly("n", "label", "payload");
    }

    @Test
    void theServersRefusalIsTranslated() {
        Throwable failure = catchThrowable(() -> session.read("SELECT * FROM no_such_table", caps(10)));

        EngineFailure translated = ENGINE.translate(failure);
        assertThat(translated).as(String.valueOf(failure)).isNotNull();
        assertThat(translated.code()).contains(1146);
        assertThat(translated.message()).contains("no_such_table");
        assertThat(translated.timedOut()).isFalse();
    }

    @Test
    void theTimeLimitStopsALongReadOnTheServer() {
        EngineSession hurried = new EngineSession(ENGINE, agent, Duration.ofMillis(300));
        long started = System.nanoTime();

        Throwable failure = catchThrowable(() -> hurried.read("SELECT SLEEP(20)", caps(10)));

        EngineFailure translated = ENGINE.translate(failure);
        assertThat(translated).as(String.valueOf(failure)).isNotNull();
        assertThat(translated.timedOut()).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }
}
