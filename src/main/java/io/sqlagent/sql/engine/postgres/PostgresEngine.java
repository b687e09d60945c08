package io.sqlagent.sql.engine.postgres;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.quarkus.logging.Log;
import io.sqlagent.sql.engine.Cancellation;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.EngineFailure;
import io.sqlagent.sql.engine.Guarantee;
import io.sqlagent.sql.engine.SchemaReader;
import io.sqlagent.sql.engine.SessionPlan;
import io.sqlagent.sql.engine.StatementCheck;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.guard.StatementKind;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * PostgreSQL sources ({@code postgresql://}), the contract's first engine: the Vert.x PostgreSQL client, the
 * {@link SqlGuard}, the session of {@link PgSession} (settings and the caller's role for the transaction only), the
 * cancel request ({@link PgCancellation}), the results ({@link PgResults}), the catalog ({@link PgSchema}) and
 * {@link PgException}'s fields. Every guarantee holds. The service's query path for PostgreSQL ({@code QueryRunner})
 * sends the session's statements itself, pipelined with the caller's, checks the plan against the table policy and
 * reads the result through {@link #results()}; other engines go through the contract alone.
 */
public final class PostgresEngine implements Engine {

    /** Prepared statements one source connection keeps, least recently used dropped first. */
    public static final int PREPARED_STATEMENTS_PER_CONNECTION = 64;

    /** PostgreSQL's SQLSTATE of a statement cancelled, by its timeout or a cancel request. */
    private static final String QUERY_CANCELED = "57014";

    private static final SchemaReader SCHEMA = new PgSchema();

    /** One reader for every PostgreSQL source: the kinds of the columns of the statements run lately are shared. */
    private static final PgResults RESULTS = new PgResults();

    private static final SessionPlan SESSION = new SessionPlan() {
        @Override
        public List<String> open(boolean readOnly, Duration timeout) {
            return List.of(PgSession.opening(readOnly, timeout));
        }

        @Override
        public String timed(String sql, Duration timeout) {
            return sql;
        }

        @Override
        public Optional<String> identity() {
            return Optional.of("SELECT set_config('role', $1, true)");
        }

        @Override
        public String rollback() {
            return PgSession.ROLLBACK;
        }
    };

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("postgresql");
    }

    @Override
    public Pool pool(Vertx vertx, Connect source, PoolOptions options) {
        PgConnectOptions connect = PgConnectOptions.fromUri(source.url());
        source.username().ifPresent(connect::setUser);
        source.password().ifPresent(connect::setPassword);
        connect.setConnectTimeout((int) source.connectTimeout().toMillis());
        // Each connection keeps the rows statements it prepared (by their text, a bounded number), so a statement
        // asked again is not parsed and planned again; only those whose result's shape cannot change with the schema.
        connect.setCachePreparedStatements(true)
                .setPreparedStatementCacheMaxSize(PREPARED_STATEMENTS_PER_CONNECTION)
                .setPreparedStatementCacheSqlFilter(PgStatementCache::keeps);
        return PgBuilder.pool()
                .with(options)
                .connectingTo(connect)
                .withConnectHandler(connection -> connection.query(PgSession.SESSION_DEFAULTS).execute().onComplete(set -> {
                    if (set.failed()) {
                        Log.warnf("Pool '%s': a new connection's session defaults could not be set: %s", options.getName(),
                                set.cause().toString());
                    }
                    connection.close();
                }))
                .using(vertx)
                .build();
    }

    @Override
    public String versionQuery() {
        return "SHOW server_version";
    }

    @Override
    public StatementCheck statementCheck(Set<StatementKind> allowed) {
        return new SqlGuard(allowed)::check;
    }

    @Override
    public SessionPlan session() {
        return SESSION;
    }

    @Override
    public Cancellation cancellation() {
        return new PgCancellation();
    }

    /**
     * PostgreSQL renders the values itself, the statement run as a subquery, and a cursor reads the rows ({@link PgResults});
     * {@code QueryRunner} reads every PostgreSQL statement through it, bound parameters and writing statements included.
     */
    @Override
    public PgResults results() {
        return RESULTS;
    }

    @Override
    public SchemaReader schema() {
        return SCHEMA;
    }

    @Override
    public EngineFailure translate(Throwable failure) {
        if (!(failure instanceof PgException pg)) {
            return null;
        }
        Optional<Integer> position = Optional.ofNullable(pg.getPosition()).flatMap(PostgresEngine::integer);
        return new EngineFailure(pg.getErrorMessage(), pg.getSqlState(), Optional.empty(), position,
                QUERY_CANCELED.equals(pg.getSqlState()));
    }

    private static Optional<Integer> integer(String text) {
        try {
            return Optional.of(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public Map<Guarantee, Guarantee.Support> guarantees() {
        Map<Guarantee, Guarantee.Support> support = new EnumMap<>(Guarantee.class);
        for (Guarantee guarantee : Guarantee.values()) {
            support.put(guarantee, Guarantee.Support.HOLDS);
        }
        return Map.copyOf(support);
    }
}
