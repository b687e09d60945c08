package io.sqlagent.sql.engine.mysql;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.sqlagent.sql.engine.Cancellation;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.EngineFailure;
import io.sqlagent.sql.engine.Guarantee;
import io.sqlagent.sql.engine.ResultReader;
import io.sqlagent.sql.engine.SchemaReader;
import io.sqlagent.sql.engine.SessionPlan;
import io.sqlagent.sql.engine.StatementCheck;
import io.sqlagent.sql.engine.StatementReads;
import io.sqlagent.sql.guard.NamedParameters;
import io.sqlagent.sql.guard.StatementKind;
import io.vertx.core.Vertx;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.mysqlclient.MySQLException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * MySQL and MariaDB sources ({@code mysql://}, {@code mariadb://}): the Vert.x MySQL client, the
 * {@link MySqlGuard}, the session of {@link MySqlSession}, {@code KILL QUERY} for cancellation ({@link MySqlKill}). The two
 * servers differ where {@link MySqlSession} says (the time limit); everything else is shared.
 */
public final class MySqlEngine implements Engine {

    /** MySQL error 3024: the statement reached {@code max_execution_time}. */
    private static final int MYSQL_TIMED_OUT = 3024;
    /** MariaDB error 1969: the statement reached {@code max_statement_time}. */
    private static final int MARIADB_TIMED_OUT = 1969;

    private final boolean mariaDb;
    private final MySqlSession session;
    private final MySqlResults results = new MySqlResults();
    private final MySqlSchema schema = new MySqlSchema();
    private final MySqlReads reads = new MySqlReads();
    private final MySqlKill kill = new MySqlKill();

    private MySqlEngine(boolean mariaDb) {
        this.mariaDb = mariaDb;
        this.session = new MySqlSession(mariaDb);
    }

    /** The engine of {@code mariadb://} sources. */
    public static MySqlEngine mariaDb() {
        return new MySqlEngine(true);
    }

    /** The engine of {@code mysql://} sources. */
    public static MySqlEngine mySql() {
        return new MySqlEngine(false);
    }

    @Override
    public String name() {
        return mariaDb ? "mariadb" : "mysql";
    }

    @Override
    public Set<String> schemes() {
        return Set.of(name());
    }

    @Override
    public Pool pool(Vertx vertx, Connect source, PoolOptions options) {
        String url = source.url();
        String scheme = url.substring(0, Math.max(0, url.indexOf("://"))).toLowerCase(java.util.Locale.ROOT);
        if (!schemes().contains(scheme)) {
            throw new IllegalArgumentException("not a " + name() + ":// URL");
        }
        // The Vert.x client reads mysql:// and mariadb:// alike.
        MySQLConnectOptions connect = MySQLConnectOptions.fromUri("mysql" + url.substring(scheme.length()));
        source.username().ifPresent(connect::setUser);
        source.password().ifPresent(connect::setPassword);
        connect.setConnectTimeout((int) source.connectTimeout().toMillis());
        // Server-side prepared statements are not cached across calls: each call's statement is new text.
        connect.setCachePreparedStatements(false);
        return kill.remember(MySQLBuilder.pool().with(options).connectingTo(connect).using(vertx).build(), vertx, connect);
    }

    @Override
    public StatementCheck statementCheck(Set<StatementKind> allowed) {
        return new MySqlGuard(allowed);
    }

    @Override
    public SessionPlan session() {
        return session;
    }

    @Override
    public Cancellation cancellation() {
        return kill;
    }

    @Override
    public ResultReader results() {
        return results;
    }

    @Override
    public SchemaReader schema() {
        return schema;
    }

    @Override
    public StatementReads reads() {
        return reads;
    }

    @Override
    public Parameters parameters() {
        return Parameters.MARKS;
    }

    @Override
    public NamedParameters placeholders(String sql) {
        return MySqlPlaceholders.of(sql);
    }

    @Override
    public EngineFailure translate(Throwable failure) {
        if (!(failure instanceof MySQLException mysql)) {
            return null;
        }
        boolean timedOut = mysql.getErrorCode() == MYSQL_TIMED_OUT || mysql.getErrorCode() == MARIADB_TIMED_OUT;
        return new EngineFailure(mysql.getMessage(), mysql.getSqlState(), Optional.of(mysql.getErrorCode()),
                Optional.empty(), timedOut);
    }

    @Override
    public Map<Guarantee, Guarantee.Support> guarantees() {
        Map<Guarantee, Guarantee.Support> support = new EnumMap<>(Guarantee.class);
        support.put(Guarantee.STATEMENT_CHECK, Guarantee.Support.HOLDS);
        support.put(Guarantee.READ_ONLY_TRANSACTION, Guarantee.Support.HOLDS);
        support.put(Guarantee.TIME_LIMIT, Guarantee.Support.HOLDS);
        support.put(Guarantee.CANCELLATION, Guarantee.Support.HOLDS);
        // What a statement reads comes from its names and the views' stored definitions (MySqlReads), not a plan.
        support.put(Guarantee.TABLE_POLICY_ON_PLAN, Guarantee.Support.HOLDS);
        support.put(Guarantee.HIDDEN_COLUMNS, Guarantee.Support.HOLDS);
        // SET ROLE lasts for the session: taken on per call and dropped before release (MySqlSession, EngineStatements).
        support.put(Guarantee.CALLER_ROLE, Guarantee.Support.HOLDS);
        // run_sql reads through MySqlResults, which renders every value exactly (MariaDbResultFidelityTest, TwoEnginesTest).
        support.put(Guarantee.EXACT_VALUES, Guarantee.Support.HOLDS);
        return Map.copyOf(support);
    }
}
