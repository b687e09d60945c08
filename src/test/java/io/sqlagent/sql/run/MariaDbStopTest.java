package io.sqlagent.sql.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.subscription.Cancellable;
import io.sqlagent.Caller;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.sqlagent.sql.engine.mysql.MySqlEngine;
import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.source.Source;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * A MariaDB statement stops on the server when nobody needs its rows any more: once the row limit or the size cap is
 * reached (a cross join of ten billion rows answers its first rows at once), and when its caller goes away. Each time
 * {@code information_schema.PROCESSLIST} shows the statement gone, and the pool's one connection serves the next call.
 * Before, the server went on sending rows to be dropped until the statement's time limit (here 60 s).
 */
class MariaDbStopTest {

    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final EngineStatements STATEMENTS = new EngineStatements(2000,
            new EngineReadCheck(new TablePolicy(Optional.empty(), Optional.empty()), new ColumnPolicy(Optional.empty())));
    private static final Caller CALLER = Caller.of("dana", Set.of(), Map.of());
    /** 10^10 rows, from MariaDB's sequence engine: far more than any test waits for. */
    private static final String HUGE = "SELECT a.seq AS a, b.seq AS b, REPEAT('x', 500) AS w "
            + "FROM seq_1_to_100000 a, seq_1_to_100000 b";

    private static Vertx vertx;
    private static Source source;

    @BeforeAll
    static void pool() {
        vertx = Vertx.vertx();
        Engine engine = MySqlEngine.mariaDb();
        // One connection: the stop must not wait for a connection of the pool, which the statement holds.
        Pool pool = Pool.newInstance(engine.pool(vertx, MariaDbServer.get().agentUrl(), new PoolOptions().setMaxSize(1)));
        source = new Source("stop", "test", Optional.of(pool), Optional.empty(), new Source.PoolLimits(1, 10, LIMIT),
                new AtomicInteger(), engine);
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            source.requirePool().close().await().indefinitely();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static QueryResult run(String sql, Reading reading) {
        return STATEMENTS.run(source, sql, CALLER, LIMIT, reading, Optional.empty()).await().atMost(Duration.ofSeconds(20));
    }

    /** How many statements of the sequence tables run now, other than this count's own. */
    private static int running() {
        return MariaDbServer.get().running("seq_1_to_100000");
    }

    /** Waits up to two seconds for the server to finish stopping the statement (a kill is noticed between rows). */
    private static int runningAfterAWhile() {
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        int count = running();
        while (count > 0 && System.nanoTime() < until) {
            Pause.sleep(Duration.ofMillis(50));
            count = running();
        }
        return count;
    }

    @Test
    void theRowLimitStopsTheStatementOnTheServer() {
        long started = System.nanoTime();
        QueryResult result = run(HUGE, new Reading(10, 100, 10_000_000, true));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(result.rowCount()).isEqualTo(10);
        assertThat(result.totalRows()).isEqualTo(11);
        assertThat(result.truncated()).isTrue();
        assertThat(result.columnNames()).containsExactly("a", "b", "w");
        assertThat(runningAfterAWhile()).isZero();
        // The connection that was stopped serves the next call, inside a transaction of its own.
        assertThat(run("SELECT 40 + 2 AS n", new Reading(10, 100, 10_000, true)).rows().get(0).get(0).asInt())
                .isEqualTo(42);
    }

    @Test
    void theSizeCapStopsTheStatementOnTheServer() {
        QueryResult result = run(HUGE, new Reading(1_000_000, 100, 50_000, true));
        assertThat(result.truncated()).isTrue();
        assertThat(result.rowCount()).isBetween(10, 200);
        assertThat(runningAfterAWhile()).isZero();
        assertThat(run("SELECT 1 AS n", new Reading(10, 100, 10_000, true)).rowCount()).isEqualTo(1);
    }

    @Test
    void aResultWithinTheCapsIsNotStopped() {
        QueryResult result = run("SELECT seq FROM seq_1_to_10", new Reading(10, 100, 10_000, true));
        assertThat(result.truncated()).isFalse();
        assertThat(result.rowCount()).isEqualTo(10);
    }

    @Test
    void aCallerThatGoesAwayLeavesNothingRunning() {
        Cancellable gone = STATEMENTS.run(source, "SELECT COUNT(*) FROM seq_1_to_100000 a, seq_1_to_100000 b", CALLER,
                LIMIT, new Reading(10, 100, 10_000, true), Optional.empty()).subscribe().with(done -> {
                }, failure -> {
                });
        Pause.sleep(Duration.ofMillis(700));
        assertThat(running()).as("the statement runs before its caller goes").isEqualTo(1);
        gone.cancel();
        assertThat(runningAfterAWhile()).isZero();
        assertThat(run("SELECT 1 AS n", new Reading(10, 100, 10_000, true)).rowCount()).isEqualTo(1);
    }
}
