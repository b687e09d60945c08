package io.sqlagent.sql.engine;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.sqlagent.sql.guard.NamedParameters;
import io.sqlagent.sql.guard.StatementKind;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * What a source needs from its database engine, and nothing above it knows: the tools, the agent, REST,
 * MCP, declared tools, evaluations, schema search, audit and metrics stay engine-free. A source's URL
 * names its engine ({@code postgresql://}, {@code mysql://}, {@code mariadb://}); the engine opens its
 * pool, checks statements in its dialect, plans the session around each statement, stops a running
 * statement on the server, renders values, reads the schema and translates failures. How to add one, and
 * the tests an engine must pass: docs/engines.md.
 */
public interface Engine {

    /** The engine's name as shown to people and to the model: {@code postgresql}, {@code mysql}, {@code mariadb}. */
    String name();

    /** The URL schemes this engine serves, lower case, without {@code ://}. */
    Set<String> schemes();

    /**
     * How to reach a source's server.
     *
     * @param url the source's URL in its engine's own form ({@code SourceUrls.canonical}), credentials in it
     *        percent-encoded where they must be
     * @param username overrides the URL's user
     * @param password overrides the URL's password
     * @param connectTimeout how long to wait for a TCP connection
     */
    record Connect(String url, Optional<String> username, Optional<String> password, Duration connectTimeout) {
    }

    /**
     * A pool for the source {@code connect} reaches.
     *
     * @throws IllegalArgumentException when the URL cannot be used; the message names the problem, never
     *         the password
     */
    Pool pool(Vertx vertx, Connect connect, PoolOptions options);

    /** A pool for the source at {@code url} (credentials in it), with a connect timeout of 5 s. */
    default Pool pool(Vertx vertx, String url, PoolOptions options) {
        return pool(vertx, new Connect(url, Optional.empty(), Optional.empty(), Duration.ofSeconds(5)), options);
    }

    /** The statement whose one value is the server's version, as readiness shows it. */
    default String versionQuery() {
        return "SELECT VERSION()";
    }

    /** The statement check for the allowed kinds ({@code sqlagent.sql.allowed-statements}). */
    StatementCheck statementCheck(Set<StatementKind> allowed);

    /** The statements around each caller's statement. */
    SessionPlan session();

    /** How a running statement is stopped on the server when its caller goes away. */
    Cancellation cancellation();

    /** How a statement's result is described and read into the answer, values rendered exactly, within the caps. */
    ResultReader results();

    /** How the source's schema is read: tables, columns, keys, comments, and the statements for samples and value hints. */
    SchemaReader schema();

    /**
     * What a statement reads, for the table policy and hidden columns ({@link Guarantee#TABLE_POLICY_ON_PLAN},
     * {@link Guarantee#HIDDEN_COLUMNS}). PostgreSQL answers from its plan on its own path, so only the other engines
     * need it; an engine without it refuses those settings at start.
     */
    default StatementReads reads() {
        throw new UnsupportedOperationException(name() + " does not list what a statement reads");
    }

    /**
     * How a statement of this engine takes bound values: PostgreSQL's numbered {@code $1}, {@code $2} (a number may
     * be written more than once), or the marks of MySQL and MariaDB, {@code ?}, each taking the next value in the
     * order written.
     */
    enum Parameters {
        NUMBERED,
        MARKS
    }

    /** How this engine's statements take bound values (declared tools bind their arguments so). */
    default Parameters parameters() {
        return Parameters.NUMBERED;
    }

    /**
     * The {@code :name} placeholders of a statement written in this engine's dialect (a declared tool's), found by
     * this engine's token rules, so that one inside a string, a quoted name or a comment stays text.
     *
     * @throws IllegalArgumentException when the statement cannot be cut into tokens, naming where
     */
    default NamedParameters placeholders(String sql) {
        return NamedParameters.of(sql);
    }

    /** The server's refusal of a statement, engine-free; {@code null} when {@code failure} is not the server's. */
    EngineFailure translate(Throwable failure);

    /** How this engine gives each guarantee; every {@link Guarantee} is a key. */
    Map<Guarantee, Guarantee.Support> guarantees();
}
