package io.sqlagent.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.sqlagent.Caller;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.run.QueryResult;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.run.SqlExecutionException;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;
import io.sqlagent.tool.ToolUnavailableException;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * No principal can starve a source: one principal holding its whole share of the default source's pool with slow
 * statements has one more wait in its own line (run when one of its statements ends, refused as {@code busy}, naming
 * the setting, when none ends within the acquire timeout or its line is full), while another principal's short
 * statement answers as usual, and refusals are counted in {@code sqlagent_source_busy_total}.
 */
@QuarkusTest
@ScriptedModel
class PrincipalShareTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Pattern REFUSED = Pattern.compile(
            // The text format may end a label set with a comma ({source="default",}).
            "\nsqlagent_source_busy_total\\{reason=\"principal_share\",source=\"default\",?} (\\d+)\\.\\d+\n");

    @Inject
    SourceRegistry sources;

    @Inject
    Pool store;

    @Inject
    QueryRunner runner;
    private final String marker = "share_probe_" + System.nanoTime();

    private Source chinook() {
        return sources.find("default").orElseThrow();
    }

    @BeforeEach
    void roles() {
        DatabaseRolesTest.representativeRoles(chinook());
    }

    @AfterEach
    void stopTheSlowStatements() throws InterruptedException {
        store.preparedQuery("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE $1"
                + " AND query NOT LIKE '%pg_stat_activity%'").execute(Tuple.of("%" + marker + "%")).await().atMost(WAIT);
        awaitActive(0);
    }

    private static Map<String, String> restCaller(int rep) {
        return TestIdentities.headers("rep" + rep + "@example.com", "sql:read", "pg_role=support_rep_" + rep);
    }

    private static Response runSql(Map<String, String> caller, String sql) {
        return given().headers(caller).contentType(ContentType.JSON).body(Map.of("sql", sql))
                .when().post("/api/tools/run_sql");
    }

    @Test
    void aPrincipalHoldingItsShareIsRefusedOneMoreWhileAnotherIsServed() throws Exception {
        // Given one principal running as many slow statements as its share of the default source allows
        int share = chinook().limits().perPrincipal();
        assertTrue(share < chinook().limits().maxSize(), "the default share leaves a connection: " + share);
        // (through the runner: the guard refuses pg_sleep over REST)
        List<CompletableFuture<QueryResult>> slow = new ArrayList<>();
        for (int i = 0; i < share; i++) {
            slow.add(runner.run(chinook(), "SELECT pg_sleep(30) AS slept, '" + marker + "' AS marker", rep3())
                    .subscribeAsCompletionStage());
        }
        awaitActive(share);
        long refusedBefore = refusals();

        // When it asks for one more, and another principal asks for a short one
        long started = System.nanoTime();
        ToolUnavailableException oneMore = assertThrows(ToolUnavailableException.class,
                () -> runner.run(chinook(), "SELECT 1 AS one", rep3()).await().atMost(WAIT));
        Response other = runSql(restCaller(4), "SELECT 1 AS one, current_user AS acting_as");

        // Then the first is refused once it waited the acquire timeout, naming its share and the setting; the other
        // answers, as itself
        assertTrue(oneMore.getMessage().contains("Source 'default' is busy for you"), oneMore.getMessage());
        assertTrue(oneMore.getMessage().contains(share + " statements"), oneMore.getMessage());
        assertTrue(oneMore.getMessage().contains("sqlagent.sources.default.max-statements-per-principal"),
                oneMore.getMessage());
        other.then().statusCode(200)
                .body("result.rows[0].one", is(1))
                .body("result.rows[0].acting_as", is("support_rep_4"));
        assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(20)) < 0,
                "both answered well within the slow statements' 30 s");
        // and the refusal is counted, by source and reason
        assertEquals(refusedBefore + 1, refusals());
        // while the slow statements are still running
        assertEquals(share, active());

        // When they end, the principal's share is whole again
        store.preparedQuery("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE $1"
                + " AND query NOT LIKE '%pg_stat_activity%'").execute(Tuple.of("%" + marker + "%")).await().atMost(WAIT);
        for (CompletableFuture<QueryResult> call : slow) {
            ExecutionException cancelled = assertThrows(ExecutionException.class, () -> call.get(20, TimeUnit.SECONDS));
            assertTrue(cancelled.getCause() instanceof SqlExecutionException, cancelled.toString());
        }
        List<CompletableFuture<QueryResult>> again = new ArrayList<>();
        for (int i = 0; i < share; i++) {
            again.add(runner.run(chinook(), "SELECT 1 AS one", rep3()).subscribeAsCompletionStage());
        }
        for (CompletableFuture<QueryResult> call : again) {
            assertEquals(1, call.get(20, TimeUnit.SECONDS).rows().get(0).get(0).asInt());
        }
    }

    @Test
    void anotherPrincipalOverItsOwnShareIsRefusedAlone() throws Exception {
        // Given one principal holding its share
        int share = chinook().limits().perPrincipal();
        for (int i = 0; i < share; i++) {
            runner.run(chinook(), "SELECT pg_sleep(30) AS slept, '" + marker + "' AS marker", rep3())
                    .subscribeAsCompletionStage();
        }
        awaitActive(share);
        // When a second principal asks while the first is refused, and the service itself asks
        assertThrows(ToolUnavailableException.class, () -> runner.run(chinook(), "SELECT 1", rep3()).await().atMost(WAIT));
        // Then the second and the service are served: the share is the principal's, not the source's
        assertEquals(1, runner.run(chinook(), "SELECT 1 AS one", rep5()).await().atMost(WAIT).rows().get(0).get(0).asInt());
        assertEquals(1, runner.run(chinook(), "SELECT 1 AS one").await().atMost(WAIT).rows().get(0).get(0).asInt());
    }

    @Test
    void oneMoreWaitsInItsOwnLineAndRunsWhenOneOfItsStatementsEnds() throws Exception {
        // Given one principal holding its share with slow statements
        int share = chinook().limits().perPrincipal();
        for (int i = 0; i < share; i++) {
            runner.run(chinook(), "SELECT pg_sleep(30) AS slept, '" + marker + "' AS marker", rep3())
                    .subscribeAsCompletionStage();
        }
        awaitActive(share);

        // When it asks for one more (as an agent turn calling more tools at once than its share does)
        CompletableFuture<QueryResult> waiting = runner.run(chinook(), "SELECT 2 AS two", rep3())
                .subscribeAsCompletionStage();
        Thread.sleep(1000);

        // Then it waits, while another principal is served at once
        assertFalse(waiting.isDone(), "one more of the principal's statements is neither run nor refused while it waits");
        assertEquals(1, runner.run(chinook(), "SELECT 1 AS one", rep5()).await().atMost(WAIT).rows().get(0).get(0).asInt());
        // and it runs as soon as one of the principal's own statements ends
        store.preparedQuery("SELECT pg_cancel_backend(pid) FROM (SELECT pid FROM pg_stat_activity WHERE query LIKE $1"
                + " AND query NOT LIKE '%pg_stat_activity%' LIMIT 1) AS one").execute(Tuple.of("%" + marker + "%"))
                .await().atMost(WAIT);
        assertEquals(2, waiting.get(5, TimeUnit.SECONDS).rows().get(0).get(0).asInt());
    }

    @Test
    void aFullLineIsRefusedAtOnce() throws Exception {
        // Given one principal holding its share, and as many of its statements waiting
        int share = chinook().limits().perPrincipal();
        for (int i = 0; i < share; i++) {
            runner.run(chinook(), "SELECT pg_sleep(30) AS slept, '" + marker + "' AS marker", rep3())
                    .subscribeAsCompletionStage();
        }
        awaitActive(share);
        List<CompletableFuture<QueryResult>> waiting = new ArrayList<>();
        for (int i = 0; i < share; i++) {
            waiting.add(runner.run(chinook(), "SELECT 2 AS two", rep3()).subscribeAsCompletionStage());
        }
        Thread.sleep(500);
        long refusedBefore = refusals();

        // When it asks for one more, it is refused at once, naming its share and the setting
        long started = System.nanoTime();
        ToolUnavailableException oneMore = assertThrows(ToolUnavailableException.class,
                () -> runner.run(chinook(), "SELECT 1 AS one", rep3()).await().atMost(WAIT));
        assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(5)) < 0,
                "refused without waiting for the acquire timeout");
        assertTrue(oneMore.getMessage().contains("you already have " + share + " statements running and as many waiting"),
                oneMore.getMessage());
        assertTrue(oneMore.getMessage().contains("sqlagent.sources.default.max-statements-per-principal"),
                oneMore.getMessage());
        assertEquals(refusedBefore + 1, refusals());
        // and the waiting ones still run once the slow ones end
        store.preparedQuery("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE $1"
                + " AND query NOT LIKE '%pg_stat_activity%'").execute(Tuple.of("%" + marker + "%")).await().atMost(WAIT);
        for (CompletableFuture<QueryResult> call : waiting) {
            assertEquals(2, call.get(20, TimeUnit.SECONDS).rows().get(0).get(0).asInt());
        }
    }

    private static Caller rep3() {
        return Caller.of("rep3@example.com", Set.of("sql:read"), Map.of("pg_role", "support_rep_3"));
    }

    private static Caller rep5() {
        return Caller.of("rep5@example.com", Set.of("sql:read"), Map.of("pg_role", "support_rep_5"));
    }

    private long refusals() {
        String scrape = given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher count = REFUSED.matcher(scrape);
        assertTrue(count.find(), "no sqlagent_source_busy_total{reason=principal_share,source=default} in the scrape");
        return Long.parseLong(count.group(1));
    }

    private void awaitActive(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        long active = -1;
        while (System.nanoTime() < deadline) {
            active = active();
            if (active == expected) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(active + " statements with " + marker + " running, expected " + expected);
    }

    /** Asked through the store's pool (same embedded server): the source's pool may be full. */
    private long active() {
        return store.preparedQuery("SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1"
                + " AND query NOT LIKE '%pg_stat_activity%'")
                .execute(Tuple.of("%" + marker + "%")).await().atMost(WAIT).iterator().next().getLong("n");
    }
}
