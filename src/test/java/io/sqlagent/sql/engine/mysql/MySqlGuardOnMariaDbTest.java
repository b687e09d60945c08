package io.sqlagent.sql.engine.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.sqlagent.sql.engine.EngineFailure;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.sqlclient.PoolOptions;

/**
 * The statement check against a real MariaDB: every statement the corpus allows runs there, as the
 * source's account, inside the session the engine plans (pinned {@code sql_mode}, {@code START
 * TRANSACTION READ ONLY}, {@code SET STATEMENT max_statement_time … FOR}); and what it refuses is shown
 * to do harm when sent past it, as {@code root}, which people do connect sources as.
 */
class MySqlGuardOnMariaDbTest {

    private static final MySqlEngine ENGINE = MySqlEngine.mariaDb();
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private static MariaDbServer server;
    private static Vertx vertx;
    private static Pool agent;
    private static Pool root;

    @BeforeAll
    static void startServer() {
        server = MariaDbServer.get();
        server.root("""
                USE shop;
                CREATE TABLE IF NOT EXISTS customers (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(100),
                    email VARCHAR(200), meta JSON);
                CREATE TABLE IF NOT EXISTS orders (id INT PRIMARY KEY, customer_id INT, total DECIMAL(10,2),
                    placed DATETIME);
                CREATE OR REPLACE VIEW big_orders AS SELECT * FROM orders WHERE total > 100;
                DELETE FROM orders; DELETE FROM customers;
                INSERT INTO customers VALUES (1, 'Ada', 'ada@example.com', '{"tier": "gold"}'),
                    (2, 'Bob', 'bob@example.com', '{"tier": "tin"}');
                INSERT INTO orders VALUES (1, 1, 12.50, '2024-01-02 10:00:00'), (2, 1, 250.00, '2024-02-03 11:00:00'),
                    (3, 2, 5.00, '2024-03-04 12:00:00');
                """);
        vertx = Vertx.vertx();
        agent = Pool.newInstance(ENGINE.pool(vertx, server.agentUrl(), new PoolOptions().setMaxSize(4)));
        root = Pool.newInstance(ENGINE.pool(vertx, server.rootUrl(), new PoolOptions().setMaxSize(2)));
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            agent.close().await().indefinitely();
            root.close().await().indefinitely();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    static List<GuardCorpus.Case> allowed() {
        return GuardCorpus.allowed();
    }

    /** {@code sql} as a source runs it: the engine's session, read-only, always rolled back. */
    private static RowSet<Row> inSession(Pool pool, String sql) {
        return pool.withConnection(connection -> opened(connection)
                .flatMap(ignored -> connection.query(ENGINE.session().timed(sql, LIMIT)).execute())
                .eventually(() -> connection.query(ENGINE.session().rollback()).execute()))
                .await().atMost(Duration.ofSeconds(30));
    }

    private static io.smallrye.mutiny.Uni<Void> opened(SqlConnection connection) {
        io.smallrye.mutiny.Uni<Void> chain = io.smallrye.mutiny.Uni.createFrom().voidItem();
        for (String statement : ENGINE.session().open(true, LIMIT)) {
            chain = chain.flatMap(ignored -> connection.query(statement).execute().replaceWithVoid());
        }
        return chain;
    }

    private static List<String> firstColumn(RowSet<Row> rows) {
        List<String> values = new ArrayList<>();
        rows.forEach(row -> values.add(String.valueOf(row.getValue(0))));
        return values;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allowed")
    void everyAllowedStatementRunsOnMariaDbAsTheSourceAccount(GuardCorpus.Case example) {
        assertThat(new MySqlGuard().check(example.sql()).allowed()).as(example.sql()).isTrue();

        RowSet<Row> rows = inSession(agent, example.sql());

        assertThat(rows).as(example.sql()).isNotNull();
    }

    @Test
    void theStringsTheLexerReadsAreTheServersStrings() {
        assertThat(firstColumn(inSession(agent, "SELECT 'it\\'s'"))).containsExactly("it's");
        assertThat(firstColumn(inSession(agent, "SELECT \"a \"\"quoted\"\" word\""))).containsExactly("a \"quoted\" word");
        assertThat(firstColumn(inSession(agent, "SELECT 'C:\\\\'"))).containsExactly("C:\\");
        assertThat(firstColumn(inSession(agent, "SELECT '-- # /* */' # a comment"))).containsExactly("-- # /* */");
    }

    @Test
    void aReadOnlyTransactionRefusesWritesEvenForRoot() {
        assertThatThrownBy(() -> inSession(root, "INSERT INTO customers (name) VALUES ('Eve')"))
                .hasMessageContaining("READ ONLY");
        assertThat(server.root("SELECT COUNT(*) FROM shop.customers WHERE name = 'Eve'").strip()).isEqualTo("0");
    }

    @Test
    void theStatementTimeLimitStopsItOnTheServer() {
        long started = System.nanoTime();
        Throwable failure = catchFailure(() -> agent.withConnection(connection -> opened(connection)
                .flatMap(ignored -> connection.query(ENGINE.session().timed("SELECT SLEEP(30)", Duration.ofMillis(300)))
                        .execute())
                .eventually(() -> connection.query("ROLLBACK").execute()))
                .await().atMost(Duration.ofSeconds(20)));

        EngineFailure translated = ENGINE.translate(failure);
        assertThat(translated).as(String.valueOf(failure)).isNotNull();
        assertThat(translated.timedOut()).isTrue();
        assertThat(translated.code()).contains(1969);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void killQueryFromAnotherConnectionStopsARunningStatement() throws InterruptedException {
        SqlConnection running = agent.getConnection().await().atMost(Duration.ofSeconds(10));
        try {
            long id = ENGINE.cancellation().identify(running).await().atMost(Duration.ofSeconds(10));
            long started = System.nanoTime();
            var sleeping = running.query("SELECT SLEEP(30)").execute().subscribeAsCompletionStage();
            // The statement must have started: a KILL QUERY that arrives first is lost (as PostgreSQL's cancel is).
            waitUntil(() -> server.root("SELECT COUNT(*) FROM information_schema.processlist WHERE id = " + id
                    + " AND info LIKE 'SELECT SLEEP%'").strip().equals("1"));
            ENGINE.cancellation().cancel(agent, running, id).await().atMost(Duration.ofSeconds(10));

            // The statement fails as interrupted (1317); the connection stays usable.
            assertThatThrownBy(() -> sleeping.toCompletableFuture().join()).hasMessageContaining("1317");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
            assertThat(firstColumn(running.query("SELECT 7").execute().await().atMost(Duration.ofSeconds(5))))
                    .containsExactly("7");
        } finally {
            running.close().await().atMost(Duration.ofSeconds(5));
        }
    }

    @Test
    void whatTheGuardRefusesDoesHarmWhenSentPastIt() throws Exception {
        Path secret = server.files().resolve("secret.txt");
        Files.writeString(secret, "server-side secret");
        String dir = server.files().toString();

        // LOAD_FILE reads the server's files.
        assertThat(firstColumn(root.query("SELECT LOAD_FILE('" + secret + "')").execute().await().indefinitely()))
                .containsExactly("server-side secret");
        // INTO OUTFILE writes them.
        root.query("SELECT name FROM shop.customers INTO OUTFILE '" + dir + "/dump.txt'").execute().await().indefinitely();
        assertThat(Files.readString(server.files().resolve("dump.txt"))).contains("Ada");
        // mysql.user holds password hashes.
        assertThat(firstColumn(root.query("SELECT authentication_string FROM mysql.user WHERE user = 'agent'")
                .execute().await().indefinitely())).singleElement().asString().startsWith("*");
        // A versioned comment runs; "--" before a character is arithmetic, not a comment.
        assertThat(firstColumn(root.query("SELECT 1 /*! + 1 */").execute().await().indefinitely())).containsExactly("2");
        assertThat(firstColumn(root.query("SELECT 1--1").execute().await().indefinitely())).containsExactly("2");
        // A variable assigned in one statement is still there for the next caller of the pooled connection.
        List<String> carried = root.withConnection(connection -> connection.query("SELECT @leak := 'from caller A'")
                .execute().flatMap(ignored -> connection.query("SELECT @leak").execute()))
                .map(MySqlGuardOnMariaDbTest::firstColumn).await().indefinitely();
        assertThat(carried).containsExactly("from caller A");

        for (String sql : List.of("SELECT LOAD_FILE('" + secret + "')", "SELECT name FROM customers INTO OUTFILE '/x'",
                "SELECT authentication_string FROM mysql.user", "SELECT 1 /*! + 1 */", "SELECT 1--1",
                "SELECT @leak := 'x'")) {
            assertThat(new MySqlGuard().check(sql).allowed()).as(sql).isFalse();
        }
    }

    private static Throwable catchFailure(Runnable action) {
        try {
            action.run();
        } catch (Throwable failure) {
            return failure;
        }
        throw new AssertionError("expected a failure");
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.sleep(50);
        }
    }
}
