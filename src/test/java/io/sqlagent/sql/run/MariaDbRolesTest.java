package io.sqlagent.sql.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.sqlagent.Caller;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.SessionPlan;
import io.sqlagent.sql.engine.mysql.MariaDbRoles;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.sqlagent.sql.engine.mysql.MySqlEngine;
import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.source.Source;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * A caller's role on a real MariaDB ({@code role-claim}): {@code SET ROLE} lasts for the connection there, so each call
 * takes its role on and drops it before the connection goes back to a pool of one connection, and the next call on that
 * very connection ({@code CONNECTION_ID()} the same) never carries it, whether the call succeeded, failed on the server,
 * reached its time limit or lost its caller. The grants are {@link MariaDbRoles}': the account {@code role_agent} may
 * read {@code role_pub} itself; role {@code clerk_a} adds {@code role_a}, {@code clerk_b} adds {@code role_b};
 * {@code stranger} exists but is not granted to the account.
 */
class MariaDbRolesTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final EngineStatements STATEMENTS = new EngineStatements(2000,
            new EngineReadCheck(new TablePolicy(Optional.empty(), Optional.empty()), new ColumnPolicy(Optional.empty())));
    private static final Reading READING = new Reading(100, 100, 1_000_000, true);
    private static final Caller ALICE = Caller.of("alice", Set.of(), Map.of("db_role", "clerk_a"));
    private static final Caller BOB = Caller.of("bob", Set.of(), Map.of("db_role", "clerk_b"));
    private static final Caller CAROL = Caller.of("carol", Set.of(), Map.of());
    private static final String WHO = "SELECT CURRENT_ROLE() AS r, CONNECTION_ID() AS c";

    private static Vertx vertx;
    private static Source source;

    @BeforeAll
    static void accounts() {
        MariaDbRoles.create(MariaDbServer.get());
        vertx = Vertx.vertx();
        source = source(MySqlEngine.mariaDb());
    }

    private static Source source(Engine engine) {
        String url = MariaDbRoles.url(MariaDbServer.get());
        // One connection: every call below reuses the connection the call before it released.
        Pool pool = Pool.newInstance(engine.pool(vertx, url, new PoolOptions().setMaxSize(1)));
        return new Source("roles", "test", Optional.of(pool), Optional.empty(),
                new Source.PoolLimits(1, 10, LIMIT), new AtomicInteger(), engine);
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            source.requirePool().close().await().indefinitely();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static Uni<QueryResult> call(Source on, Caller caller, String sql, Duration timeout) {
        return STATEMENTS.run(on, sql, caller, timeout, READING, caller.attribute("db_role"));
    }

    private static List<JsonNode> first(Source on, Caller caller, String sql) {
        return call(on, caller, sql, LIMIT).await().atMost(LIMIT.plusSeconds(10)).rows().get(0);
    }

    private static Throwable failure(Caller caller, String sql) {
        return catchThrowable(() -> call(source, caller, sql, LIMIT).await().atMost(LIMIT.plusSeconds(10)));
    }

    /** The role and connection of a call without a role, on the pool's one connection. */
    private static List<JsonNode> noRole(Source on) {
        List<JsonNode> row = first(on, CAROL, WHO);
        assertThat(row.get(0).isNull()).as("CURRENT_ROLE() of a call without a role: " + row).isTrue();
        return row;
    }

    @Test
    void twoPrincipalsSeeWhatTheirRolesGrantAndTheNextCallCarriesNoRole() {
        long connection = noRole(source).get(1).asLong();
        assertThat(first(source, ALICE, "SELECT a FROM role_a").get(0).asText()).isEqualTo("only a");
        assertThat(first(source, ALICE, WHO).get(0).asText()).isEqualTo("clerk_a");
        // The server refuses alice's role what bob's grants.
        assertThat(failure(ALICE, "SELECT b FROM role_b")).isInstanceOf(SqlExecutionException.class)
                .hasMessageContaining("SELECT command denied").hasMessageContaining("role_b")
                .hasMessageContaining("error 1142");
        assertThat(noRole(source).get(1).asLong()).isEqualTo(connection);
        assertThat(first(source, BOB, "SELECT b FROM role_b").get(0).asText()).isEqualTo("only b");
        assertThat(failure(BOB, "SELECT a FROM role_a")).hasMessageContaining("SELECT command denied");
        // Without a role, neither table; the account's own table stays readable; still the same connection.
        assertThat(failure(CAROL, "SELECT a FROM role_a")).hasMessageContaining("SELECT command denied");
        assertThat(failure(CAROL, "SELECT b FROM role_b")).hasMessageContaining("SELECT command denied");
        assertThat(first(source, CAROL, "SELECT id FROM role_pub").get(0).asInt()).isEqualTo(1);
        assertThat(noRole(source).get(1).asLong()).isEqualTo(connection);
    }

    @Test
    void aRoleThatIsMissingOrNotGrantedIsRefusedAndNothingRuns() {
        for (String role : List.of("ghost", "stranger", "clerk`a")) {
            Caller mallory = Caller.of("mallory", Set.of(), Map.of("db_role", role));
            // role_pub is readable without any role: the call fails because nothing ran, not because of what it read.
            Throwable refused = catchThrowable(
                    () -> call(source, mallory, "SELECT id FROM role_pub", LIMIT).await().atMost(LIMIT.plusSeconds(10)));
            assertThat(refused).as(role).isInstanceOf(SqlExecutionException.class)
                    .hasMessageContaining(
                            "Source 'roles' could not take on the role '" + role + "' that caller 'mallory' names")
                    .hasMessageContaining("Invalid role specification")
                    .hasMessageContaining("must exist on the server and be granted to the source's account")
                    .hasMessageContaining("nothing was run");
            noRole(source);
        }
    }

    @Test
    void theRoleIsDroppedAfterTheTimeLimitAndAfterTheCallerWentAway() {
        long connection = noRole(source).get(1).asLong();
        Throwable late = catchThrowable(() -> call(source, ALICE, "SELECT SLEEP(5), a FROM role_a", Duration.ofSeconds(1))
                .await().atMost(LIMIT));
        assertThat(late).isInstanceOf(SqlExecutionException.class).hasMessageContaining("time limit");
        assertThat(noRole(source).get(1).asLong()).isEqualTo(connection);

        Cancellable gone = call(source, BOB, "SELECT SLEEP(5), b FROM role_b", LIMIT).subscribe().with(done -> {
        }, failure -> {
        });
        Pause.sleep(Duration.ofMillis(500));
        gone.cancel();
        // The next call waits for the one connection, which comes back only after the KILL QUERY, the rollback and the
        // role dropped; it is answered well before the 5 s the sleep would take.
        long started = System.nanoTime();
        assertThat(noRole(source).get(1).asLong()).isEqualTo(connection);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void aConnectionWhoseRoleCannotBeDroppedIsClosedNotReused() {
        // An engine whose drop always fails: the failed SET ROLE leaves clerk_a on, so the connection must go.
        Engine mariaDb = MySqlEngine.mariaDb();
        Source broken = source(new ForwardingEngine(mariaDb) {
            @Override
            public SessionPlan session() {
                return new ForwardingSession(mariaDb.session()) {
                    @Override
                    public String dropRole() {
                        return "SET ROLE no_such_role_to_drop";
                    }
                };
            }
        });
        try {
            long before = noRole(broken).get(1).asLong();
            assertThat(first(broken, ALICE, WHO)).satisfies(row -> {
                assertThat(row.get(0).asText()).isEqualTo("clerk_a");
                assertThat(row.get(1).asLong()).isEqualTo(before);
            });
            List<JsonNode> after = noRole(broken);
            assertThat(after.get(1).asLong()).as("a new connection").isNotEqualTo(before);
            assertThat(MariaDbServer.get().root("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + before)
                    .strip()).isEqualTo("0");
        } finally {
            broken.requirePool().close().await().indefinitely();
        }
    }

    /** An engine that does what {@code delegate} does, for overriding one part. */
    private static class ForwardingEngine implements Engine {

        private final Engine delegate;

        ForwardingEngine(Engine delegate) {
            this.delegate = delegate;
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public Set<String> schemes() {
            return delegate.schemes();
        }

        @Override
        public io.vertx.sqlclient.Pool pool(Vertx vertx, Connect connect, PoolOptions options) {
            return delegate.pool(vertx, connect, options);
        }

        @Override
        public io.sqlagent.sql.engine.StatementCheck statementCheck(Set<io.sqlagent.sql.guard.StatementKind> allowed) {
            return delegate.statementCheck(allowed);
        }

        @Override
        public SessionPlan session() {
            return delegate.session();
        }

        @Override
        public io.sqlagent.sql.engine.Cancellation cancellation() {
            return delegate.cancellation();
        }

        @Override
        public io.sqlagent.sql.engine.ResultReader results() {
            return delegate.results();
        }

        @Override
        public io.sqlagent.sql.engine.SchemaReader schema() {
            return delegate.schema();
        }

        @Override
        public io.sqlagent.sql.engine.StatementReads reads() {
            return delegate.reads();
        }

        @Override
        public io.sqlagent.sql.engine.EngineFailure translate(Throwable failure) {
            return delegate.translate(failure);
        }

        @Override
        public Map<io.sqlagent.sql.engine.Guarantee, io.sqlagent.sql.engine.Guarantee.Support> guarantees() {
            return delegate.guarantees();
        }
    }

    /** A session plan that does what {@code delegate} does, for overriding one statement. */
    private static class ForwardingSession implements SessionPlan {

        private final SessionPlan delegate;

        ForwardingSession(SessionPlan delegate) {
            this.delegate = delegate;
        }

        @Override
        public List<String> open(boolean readOnly, Duration timeout) {
            return delegate.open(readOnly, timeout);
        }

        @Override
        public String timed(String sql, Duration timeout) {
            return delegate.timed(sql, timeout);
        }

        @Override
        public Optional<String> identity() {
            return delegate.identity();
        }

        @Override
        public String rollback() {
            return delegate.rollback();
        }

        @Override
        public Optional<String> takeRole(String role) {
            return delegate.takeRole(role);
        }

        @Override
        public String dropRole() {
            return delegate.dropRole();
        }

        @Override
        public String discard() {
            return delegate.discard();
        }
    }
}
