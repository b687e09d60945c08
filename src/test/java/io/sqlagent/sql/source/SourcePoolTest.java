package io.sqlagent.sql.source;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.run.QueryResult;
import io.sqlagent.sql.run.QueryRunner;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The source pool under callers that give up and callers that find it full: a caller that goes
 * away while it waits for a connection leaves none checked out, and a full wait queue is refused
 * at once with 503 rather than queued without end.
 */
@QuarkusTest
@ScriptedModel
class SourcePoolTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int POOL_SIZE = 5;

    @Inject
    QueryRunner runner;

    @Inject
    SourceRegistry sources;

    @Inject
    Pool store;

    private final List<Cancellable> running = new ArrayList<>();

    @AfterEach
    void cancelEverything() throws InterruptedException {
        running.forEach(Cancellable::cancel);
        running.clear();
        awaitNoneActive("pool_probe_");
    }

    private Source chinook() {
        return sources.find("default").orElseThrow();
    }

    private void start(String sql) {
        running.add(runner.run(chinook(), sql).subscribe().with(r -> {
        }, f -> {
        }));
    }

    private void occupyThePool(String marker) throws InterruptedException {
        for (int i = 0; i < POOL_SIZE; i++) {
            start("SELECT pg_sleep(30), '" + marker + "'");
        }
        awaitActive(marker, POOL_SIZE);
    }

    @Test
    void callersThatGiveUpWhileWaitingForAConnectionLeaveNoneCheckedOut() throws Exception {
        // Given a pool whose five connections are busy
        String marker = "pool_probe_" + System.nanoTime();
        occupyThePool(marker);
        // and ten callers waiting for one of them, who give up
        List<Cancellable> impatient = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            impatient.add(runner.run(chinook(), "SELECT 1").subscribe().with(r -> {
            }, f -> {
            }));
        }
        Thread.sleep(200);
        impatient.forEach(Cancellable::cancel);

        // When the busy statements end
        running.forEach(Cancellable::cancel);
        running.clear();
        awaitNoneActive(marker);

        // Then the whole pool serves again, at once
        List<Uni<QueryResult>> concurrent = new ArrayList<>();
        for (int i = 0; i < POOL_SIZE; i++) {
            concurrent.add(runner.run(chinook(), "SELECT 1 AS one"));
        }
        List<QueryResult> results = Uni.join().all(concurrent).andFailFast().await().atMost(Duration.ofSeconds(5));
        assertEquals(POOL_SIZE, results.size());
        results.forEach(result -> assertEquals(1, result.rows().get(0).get(0).asInt()));
    }

    @Test
    void aFullWaitQueueIsRefusedAtOnceWith503AndRetryAfter() throws Exception {
        // Given a pool whose five connections are busy and whose wait queue (50) is full
        String marker = "pool_probe_" + System.nanoTime();
        occupyThePool(marker);
        for (int i = 0; i < chinook().limits().maxWaitQueueSize(); i++) {
            start("SELECT 1");
        }

        // When one more caller asks over REST
        long started = System.nanoTime();
        given().contentType(ContentType.JSON).body("{\"sql\": \"SELECT 1\"}")
                .when().post("/api/tools/run_sql")
                // Then it is refused at once, with a body that says why and which settings to change
                .then().statusCode(503)
                .header("Retry-After", "2")
                .body("error", is("busy"))
                .body("message", containsString("Source 'default' is busy"))
                .body("message", containsString("sqlagent.sources.default.max-wait-queue-size"));
        // refused rather than queued: before the acquire timeout (10 s) a waiting call would have ended at (a cold
        // first request on a loaded machine took 3-4 s, so the bound is the timeout, not a speed)
        assertEquals(true, Duration.ofNanos(System.nanoTime() - started).compareTo(chinook().limits().acquireTimeout()) < 0,
                "refused before the acquire timeout");
        // while readiness stays UP: the source answers, it is only saturated (it was DOWN, so under load Kubernetes took
        // every replica out of its Service)
        given().when().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'sqlagent sources' }.status", is("UP"))
                .body("checks.find { it.name == 'sqlagent sources' }.data.default",
                        startsWith("UP, busy: every one of its 5 connections is in use"));
        // and so are the schema tools, whose catalog reads take a connection of the same pool (they answered 422
        // "failed unexpectedly" with the pool's own exception)
        for (String body : List.of("{}", "{\"table_name\": \"artist\"}")) {
            given().contentType(ContentType.JSON).body(body)
                    .when().post("/api/tools/introspect_schema")
                    .then().statusCode(503)
                    .header("Retry-After", "2")
                    .body("error", is("busy"))
                    .body("message", containsString("Source 'default' is busy"))
                    .body("message", containsString("sqlagent.sources.default.max-wait-queue-size"));
        }
    }

    @Test
    void waitsPastTheAcquireTimeoutAreRefusedAndLeaveNoConnectionCheckedOut() {
        // Given a source of one connection and a 200 ms acquire timeout, its pool built as SourceRegistry builds one
        // (the pool times no wait itself), and its one connection held
        io.vertx.mutiny.core.Vertx vertx = io.vertx.mutiny.core.Vertx.vertx();
        String url = org.eclipse.microprofile.config.ConfigProvider.getConfig().getValue("sqlagent.sources.default.url",
                String.class);
        io.vertx.pgclient.PgConnectOptions options = io.vertx.pgclient.PgConnectOptions.fromUri(SourceUrls.normalise(url))
                .setUser(org.eclipse.microprofile.config.ConfigProvider.getConfig()
                        .getValue("sqlagent.sources.default.username", String.class))
                .setPassword(org.eclipse.microprofile.config.ConfigProvider.getConfig()
                        .getOptionalValue("sqlagent.sources.default.password", String.class).orElse("unused"));
        Pool pool = Pool.newInstance(io.vertx.pgclient.PgBuilder.pool()
                .with(new io.vertx.sqlclient.PoolOptions().setMaxSize(1).setMaxWaitQueueSize(100).setConnectionTimeout(0))
                .connectingTo(options).using(vertx.getDelegate()).build());
        try {
            Source tiny = new Source("tiny", "test", java.util.Optional.of(pool), java.util.Optional.empty(),
                    new Source.PoolLimits(1, 100, Duration.ofMillis(200)), new java.util.concurrent.atomic.AtomicInteger());
            io.vertx.mutiny.sqlclient.SqlConnection held = tiny.connection().await().atMost(WAIT);

            // When thirty callers wait for a connection at once and the timeout passes
            List<Uni<Object>> waits = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                waits.add(tiny.connection().map(Object.class::cast).onFailure().recoverWithItem(failure -> failure));
            }
            List<Object> outcomes = Uni.join().all(waits).andFailFast().await().atMost(WAIT);

            // Then every one of them is refused as busy, naming the setting, and none counts as waiting any more
            org.assertj.core.api.Assertions.assertThat(outcomes).hasSize(30)
                    .allSatisfy(outcome -> org.assertj.core.api.Assertions
                            .assertThat(outcome).isInstanceOf(io.sqlagent.tool.ToolUnavailableException.class)
                            .extracting(failure -> ((Throwable) failure).getMessage()).asString()
                            .contains("Source 'tiny' is busy: no connection became free within 200 ms",
                                    "sqlagent.sources.tiny.acquire-timeout"));
            assertEquals(0, tiny.waiting().get(), "callers counted as waiting");
            // A probe then finds the pool saturated but serving (its connection was handed out moments ago): UP, busy,
            // so readiness does not take a replica out of its Service for its load
            SourceStatus saturated = tiny.probe(Duration.ofSeconds(2)).await().atMost(WAIT);
            assertEquals(true, saturated.up(), saturated.toString());
            assertEquals(true, saturated.busy(), saturated.toString());
            org.assertj.core.api.Assertions.assertThat(saturated.detail())
                    .startsWith("busy: every one of its 1 connections is in use");
            // and so it is when the probe's own time runs out first, while it waits in line
            SourceStatus waitedOut = tiny.probe(Duration.ofMillis(50)).await().atMost(WAIT);
            assertEquals(true, waitedOut.busy(), waitedOut.toString());
            // while the same pool with no connection handed out for longer than the window is a server that stopped
            // answering: DOWN, naming the wait
            Source stuck = new Source("tiny", "test", java.util.Optional.of(pool), java.util.Optional.empty(), tiny.limits(),
                    new java.util.concurrent.atomic.AtomicInteger(), tiny.shares(), tiny.engine(),
                    new java.util.concurrent.atomic.AtomicLong(System.nanoTime() - Source.SERVING_WINDOW.toNanos() - 1));
            SourceStatus down = stuck.probe(Duration.ofSeconds(2)).await().atMost(WAIT);
            assertEquals(false, down.up(), down.toString());
            org.assertj.core.api.Assertions.assertThat(down.detail()).contains("no connection became free within 200 ms");
            // and once the held connection is back, the pool's one connection serves caller after caller: none of
            // the given-up waits kept it
            held.closeAndAwait();
            for (int i = 0; i < 5; i++) {
                assertEquals(1, tiny.withConnection(connection -> connection.query("SELECT 1 AS one").execute())
                        .await().atMost(Duration.ofSeconds(5)).iterator().next().getInteger("one"));
            }
        } finally {
            pool.closeAndAwait();
            vertx.closeAndAwait();
        }
    }

    private void awaitActive(String marker, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        long active = -1;
        while (System.nanoTime() < deadline) {
            active = active(marker);
            if (active == expected) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(active + " statements with " + marker + " running, expected " + expected);
    }

    private void awaitNoneActive(String marker) throws InterruptedException {
        awaitActive(marker, 0);
    }

    /** Asked through the store's pool (same embedded server): the source's pool may be full. */
    private long active(String marker) {
        return store.preparedQuery("SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1"
                + " AND query NOT LIKE '%pg_stat_activity%'")
                .execute(Tuple.of("%" + marker + "%")).await().atMost(WAIT).iterator().next().getLong("n");
    }
}
