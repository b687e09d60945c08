package io.sqlagent.sql.run;

import java.time.Duration;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.engine.ResultReader;
import io.sqlagent.sql.engine.postgres.PgCancellation;
import io.sqlagent.sql.engine.postgres.PgRefusal;
import io.sqlagent.sql.engine.postgres.PgResults;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.source.Engines;
import io.sqlagent.sql.source.SessionIdentity;
import io.sqlagent.sql.source.Source;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolException;
import io.sqlagent.trace.Tracing;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Runs one statement that already passed the guard, as the second safety layer: on its own
 * connection ({@link OwnConnection}, which also carries a caller's cancel to PostgreSQL), inside a
 * {@code READ ONLY} transaction that is always rolled back, with a statement timeout
 * ({@link SessionTransaction}), through the extended protocol (so the server accepts exactly one
 * statement) and a cursor that reads at most {@code max-rows + 1} rows, however many the query would
 * produce (the engine's reader, {@link PgResults}). Values are made JSON-friendly and capped. With a table policy or hidden
 * columns configured, the statement's plan is read first and a statement that would read a refused table
 * or a hidden column is refused before it runs ({@link PgPlanCheck}). A caller with an identity runs as
 * itself ({@link SessionIdentity}): the transaction sets its role and names it in
 * {@code application_name} before the statement runs. PostgreSQL's refusals come as
 * {@link SqlExecutionException} ({@link PgErrorTranslator}).
 */
@ApplicationScoped
public class QueryRunner {

    private final SqlConfig config;
    private final PgPlanCheck plans;
    private final PgResults results = Engines.POSTGRESQL.results();
    private final SqlMetrics metrics;
    private final SessionIdentity sessions;
    private final StatementSpan spans;
    private final OwnConnection connections = new OwnConnection(new PgCancellation());
    private final EngineStatements otherEngines;

    QueryRunner(SqlConfig config, PgPlanCheck plans, SqlMetrics metrics, SessionIdentity sessions,
            Tracing tracing, EngineReadCheck engineReads) {
        this.config = config;
        this.plans = plans;
        this.otherEngines = new EngineStatements(config.maxCellChars(), engineReads);
        this.metrics = metrics;
        this.sessions = sessions;
        this.spans = new StatementSpan(tracing);
    }

    /**
     * Runs {@code sql} on {@code source} as the service; fails with {@link SqlExecutionException} when PostgreSQL refuses it.
     */
    public Uni<QueryResult> run(Source source, String sql) {
        return run(source, sql, Caller.service());
    }

    /**
     * Runs {@code sql} on {@code source} as {@code caller} (its role and application name, see
     * {@link SessionIdentity}); fails with {@link SqlExecutionException} when PostgreSQL refuses it,
     * with {@link io.sqlagent.tool.ToolForbiddenException} when the caller may not use the role it names.
     */
    public Uni<QueryResult> run(Source source, String sql, Caller caller) {
        return run(source, sql, caller, Context.current());
    }

    /** Like {@link #run(Source, String, Caller)}, for a tool call: its caller, its span the statement's parent. */
    public Uni<QueryResult> run(Source source, String sql, ToolCallContext call) {
        return run(source, sql, call.identity(), call.trace());
    }

    private Uni<QueryResult> run(Source source, String sql, Caller caller, Context parent) {
        Reading reading = new Reading(config.maxRows(), PgResults.MAX_BATCH, config.maxResultSize().asLongValue(),
                true);
        return traced(source, sql, caller, parent, reading, Tuple.tuple());
    }

    /**
     * Refuses, as {@link #run(Source, String)} would, a statement whose plan reads a hidden column or a table outside
     * the policy, without running it (for SQL kept to be run later, such as a validated query). Completes at once when
     * no policy is configured; a statement PostgreSQL cannot plan fails with its error.
     */
    public Uni<Void> checkPolicy(Source source, String sql) {
        return checkPolicy(source, sql, PgPlanCheck.EXPLAIN, Tuple.tuple());
    }

    /**
     * {@link #checkPolicy(Source, String)} for a statement with parameters ({@code $1}, ..., or MySQL's {@code ?}) that
     * are not bound yet, such as a declared tool's as it loads: PostgreSQL plans it for any values
     * ({@code GENERIC_PLAN}, PostgreSQL 16 and later; an older server fails, and the check is left to each call); on
     * another engine what it names is resolved in the server's catalog ({@link EngineReadCheck}).
     */
    public Uni<Void> checkPolicyUnbound(Source source, String sql) {
        if (!source.isPostgres()) {
            // What the statement reads, resolved by the server's catalog (EngineReadCheck): no plan, so no values needed.
            return otherEngines.checkReads(source, sql, config.timeout());
        }
        if (!SqlGuard.isSingleStatement(sql)) {
            return Uni.createFrom().failure(new IllegalArgumentException("Not a single statement; checked at each call"));
        }
        return checkPolicy(source, sql, PgPlanCheck.EXPLAIN_GENERIC, null);
    }

    private Uni<Void> checkPolicy(Source source, String sql, String explain, Tuple params) {
        if (!plans.needed()) {
            return Uni.createFrom().voidItem();
        }
        return connections.run(source, sql, Caller.service(), config.timeout(),
                (connection, timeout) -> SessionTransaction.around(connection, true, timeout, Optional.empty(),
                        () -> plans.check(connection, sql, explain, params)));
    }

    /**
     * Runs {@code sql} with positional parameters ({@code $1}, ...) bound to {@code params}, never
     * spliced into the text: the path declared tools take. Same connection, transaction, timeout,
     * value caps, error translation and cancellation as {@link #run(Source, String)}; how many rows
     * are read, and whether the transaction is read-only, follow {@code options}. The result-size
     * cap does not apply: the row limits in {@code options} bound the result.
     */
    public Uni<QueryResult> run(Source source, String sql, Tuple params, FetchOptions options) {
        return run(source, sql, params, options, Caller.service());
    }

    /** Like {@link #run(Source, String, Tuple, FetchOptions)}, as {@code caller} (see {@link #run(Source, String, Caller)}). */
    public Uni<QueryResult> run(Source source, String sql, Tuple params, FetchOptions options, Caller caller) {
        return run(source, sql, params, options, caller, Context.current());
    }

    /**
     * Like {@link #run(Source, String, Tuple, FetchOptions, Caller)}, for a tool call (see
     * {@link #run(Source, String, ToolCallContext)}).
     */
    public Uni<QueryResult> run(Source source, String sql, Tuple params, FetchOptions options, ToolCallContext call) {
        return run(source, sql, params, options, call.identity(), call.trace());
    }

    private Uni<QueryResult> run(Source source, String sql, Tuple params, FetchOptions options, Caller caller,
            Context parent) {
        if (!source.isPostgres() && !options.readOnly()) {
            // Their transaction always ends in a rollback: a statement meant to change data would change nothing.
            return Uni.createFrom().failure(new ToolException("Source '" + source.name() + "' is a "
                    + Engines.displayName(source.engine()) + " source: statements that change data run on PostgreSQL "
                    + "sources only"));
        }
        Reading reading = new Reading(options.maxRows(), Math.min(options.pageSize(), PgResults.MAX_BATCH),
                Long.MAX_VALUE, options.readOnly());
        return traced(source, sql, caller, parent, reading, params);
    }

    /**
     * The one path of every statement: its span and timing around runs on a connection of its own (once more when
     * its columns changed, {@link PgResults#againIfChanged}), each in the caller's transaction, the plan checked
     * before the rows are read.
     */
    private Uni<QueryResult> traced(Source source, String sql, Caller caller, Context parent, Reading reading,
            Tuple params) {
        // A server out of reach is no fault of the call: the caller is told to try again (SourceOutage).
        return SourceOutage.refusedWhenOut(source, attempt(source, sql, caller, parent, reading, params));
    }

    private Uni<QueryResult> attempt(Source source, String sql, Caller caller, Context parent, Reading reading,
            Tuple params) {
        return Uni.createFrom().deferred(() -> {
            Optional<SessionIdentity.Settings> identity = sessions.of(source.name(), caller);
            if (!source.isPostgres()) {
                return spans.traced(source, sql, parent,
                        metrics.timed(source, otherEngines.run(source, sql, params, caller, config.timeout(), reading,
                                identity.flatMap(SessionIdentity.Settings::role))));
            }
            return spans.traced(source, sql, parent, metrics.timed(source, PgResults.againIfChanged(
                    () -> connections.run(source, sql, caller, config.timeout(),
                            (connection, timeout) -> inTransaction(connection, sql, timeout, identity, reading,
                                    params)))));
        });
    }

    private Uni<QueryResult> inTransaction(SqlConnection connection, String sql, Duration timeout,
            Optional<SessionIdentity.Settings> identity, Reading reading, Tuple params) {
        ResultReader.Caps caps = new ResultReader.Caps(reading.maxRows(), reading.maxResultChars(), config.maxCellChars());
        PgResults.Plan plan = results.plan(sql, caps, reading.maxBatch(), reading.readOnly());
        // A small result of known columns read by one statement, no plan check sent before it: the transaction's end
        // can go with it, and the whole call is one round trip.
        boolean oneStatement = plan.inOneStatement() && !plans.needed();
        return SessionTransaction.around(connection, reading.readOnly(), timeout, identity, oneStatement,
                () -> plans.checkIfNeeded(connection, sql, params)
                        .flatMap(ignored -> plan.read(connection, params))
                        .onFailure(PgRefusal.class)
                        .transform(failure -> PgErrorTranslator.translate((PgRefusal) failure, sql))
                        .map(QueryResult::of));
    }
}
