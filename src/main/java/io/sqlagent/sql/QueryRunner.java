package io.sqlagent.sql;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.opentelemetry.context.Context;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.tuples.Tuple2;
import io.sqlagent.Caller;
import io.sqlagent.CancelSafe;
import io.sqlagent.ToolJson;
import io.sqlagent.sql.guard.PlanReferences;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.result.ColumnText;
import io.sqlagent.sql.result.DriverTypes;
import io.sqlagent.sql.result.ResultColumn;
import io.sqlagent.sql.result.ResultJson;
import io.sqlagent.sql.result.ResultValues;
import io.sqlagent.sql.result.WideValues;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.trace.Tracing;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.pgclient.PgConnection;
import io.vertx.mutiny.sqlclient.Cursor;
import io.vertx.mutiny.sqlclient.PreparedStatement;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.desc.ColumnDescriptor;

/**
 * Runs one statement that already passed the guard, as the second safety layer: on its own
 * connection, inside a {@code READ ONLY} transaction that is always rolled back, with a statement
 * timeout, through the extended protocol (so the server accepts exactly one statement) and a
 * cursor that reads at most {@code max-rows + 1} rows, however many the query would produce.
 * Values are made JSON-friendly and capped. A caller that cancels (a client that went away)
 * cancels the statement in PostgreSQL too. With a table policy or hidden columns configured, the statement's plan
 * is read first and a statement that would read a refused table or a hidden column is refused before it runs. A caller with an
 * identity runs as itself ({@link SessionIdentity}): the transaction sets its role and names it in
 * {@code application_name} before the statement runs.
 */
@ApplicationScoped
public class QueryRunner {

    private static final String EXPLAIN = "EXPLAIN (VERBOSE, FORMAT JSON) ";
    private static final String EXPLAIN_GENERIC = "EXPLAIN (GENERIC_PLAN, VERBOSE, FORMAT JSON) ";

    /** About how many characters of statement text {@link #shapes} keeps. */
    private static final long SHAPE_CACHE_CHARS = 4_000_000;

    /** How often a cancel is sent again while a cancelled statement's connection is not yet released. */
    private static final Duration RECANCEL_INTERVAL = Duration.ofMillis(200);

    /**
     * For each relation the plan scans ($1, $2) or names as a {@code regclass} constant ($3): its columns, and the
     * tables it inherits from or is a partition of, up to the top (a child of a denied table is denied, and hidden
     * columns of a parent are hidden in its children).
     */
    private static final String SCANNED_RELATIONS = """
            WITH RECURSIVE relations AS (
                SELECT c.oid FROM unnest($1::text[], $2::text[]) AS s(nsp, rel)
                JOIN pg_namespace n ON n.nspname = s.nsp
                JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = s.rel
                UNION
                SELECT to_regclass(r)::oid FROM unnest($3::text[]) AS r WHERE to_regclass(r) IS NOT NULL
            ), up(child, parent) AS (
                SELECT r.oid, i.inhparent FROM relations r JOIN pg_inherits i ON i.inhrelid = r.oid
                UNION
                SELECT up.child, i.inhparent FROM up JOIN pg_inherits i ON i.inhrelid = up.parent
            )
            SELECT n.nspname::text AS nsp, c.relname::text AS rel,
                   ARRAY(SELECT a.attname::text FROM pg_attribute a
                         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
                   ARRAY(SELECT pn.nspname || '.' || pc.relname FROM up
                         JOIN pg_class pc ON pc.oid = up.parent JOIN pg_namespace pn ON pn.oid = pc.relnamespace
                         WHERE up.child = c.oid) AS ancestors
            FROM relations r JOIN pg_class c ON c.oid = r.oid JOIN pg_namespace n ON n.oid = c.relnamespace""";

    /**
     * Of the functions the plan calls ($1), the operators it applies ($2) and the types it casts to ($3), the
     * functions written in a procedural language (SQL, PL/pgSQL, ...) outside the system catalogs: what they read
     * runs inside them, where the plan does not show it. The built-in functions that run a query given as text are
     * refused by the guard ({@code DeniedFunctions}).
     */
    private static final String OPAQUE_FUNCTIONS = """
            SELECT DISTINCT p.proname::text AS name FROM pg_proc p
            JOIN pg_language l ON l.oid = p.prolang JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE l.lanname NOT IN ('internal', 'c') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
              AND (p.proname = ANY($1::text[])
                   OR p.oid IN (SELECT o.oprcode FROM pg_operator o WHERE o.oprname = ANY($2::text[]))
                   OR p.oid IN (SELECT k.castfunc FROM pg_cast k JOIN pg_type t ON t.oid = k.casttarget
                                WHERE t.typname = ANY($3::text[])))
            ORDER BY 1""";

    /**
     * See {@link #sessionSettings}: the transaction with its access mode, then the statement and lock timeouts in
     * milliseconds.
     */
    private static final String SESSION_SETTINGS = """
            BEGIN TRANSACTION %s; SET LOCAL statement_timeout = %d; SET LOCAL lock_timeout = %d; \
            SET LOCAL standard_conforming_strings = on""";

    private final SqlConfig config;
    private final ColumnPolicy columns;
    private final TablePolicy tables;
    private final SqlMetrics metrics;
    private final SessionIdentity sessions;
    private final StatementSpan spans;
    /**
     * The kinds of the columns of the statements run lately ({@link ColumnText}), by statement text: a statement
     * seen before has its rows statement built for them and sent with the statement that describes its columns,
     * which checks them ({@link #learnShape}). Bounded by the characters of the texts kept.
     */
    private final Cache<String, List<ColumnText>> shapes = Caffeine.newBuilder()
            .maximumWeight(SHAPE_CACHE_CHARS)
            .weigher((String body, List<ColumnText> kinds) -> body.length() + 16 + kinds.size())
            .build();

    public QueryRunner(SqlConfig config, ColumnPolicy columns, TablePolicy tables, SqlMetrics metrics,
            SessionIdentity sessions, Tracing tracing) {
        this.tables = tables;
        this.spans = new StatementSpan(tracing);
        this.config = config;
        this.columns = columns;
        this.metrics = metrics;
        this.sessions = sessions;
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
        return Uni.createFrom().deferred(() -> {
            Optional<SessionIdentity.Settings> identity = sessions.of(source.name(), caller);
            return spans.traced(source, sql, parent, metrics.timed(source, againIfShapeChanged(() -> onOwnConnection(source,
                    sql, caller, (connection, timeout) -> inReadOnlyTransaction(connection, sql, timeout, identity)))));
        });
    }

    /** {@code set_config(..., true)} is {@code SET LOCAL} with the value bound as data, as PostgREST sets its role. */
    private static final String SET_ROLE_AND_NAME = """
            SELECT set_config('role', $1, true), set_config('application_name', $2, true)""";
    private static final String SET_NAME = """
            SELECT set_config('application_name', $1, true)""";

    /**
     * Opens the transaction with its settings in one round trip, then sets the caller's identity when
     * it has one. Nothing else is sent before this completes: a statement sent along with it would run
     * outside the transaction if the opening failed (a cancel arriving before {@code BEGIN} ran).
     */
    private static Uni<Void> open(SqlConnection connection, boolean readOnly, Duration timeout,
            Optional<SessionIdentity.Settings> identity) {
        Uni<RowSet<Row>> opened = connection.query(sessionSettings(readOnly, timeout)).execute();
        if (identity.isEmpty()) {
            return opened.replaceWithVoid();
        }
        SessionIdentity.Settings settings = identity.get();
        return opened.flatMap(ignored -> settings.role().isPresent()
                ? connection.preparedQuery(SET_ROLE_AND_NAME)
                        .execute(Tuple.of(settings.role().get(), settings.applicationName()))
                : connection.preparedQuery(SET_NAME).execute(Tuple.of(settings.applicationName())))
                .replaceWithVoid();
    }

    /**
     * {@code work} on a connection of its own, closed afterwards, with the overall timeout, the
     * error translation and a cancellation that reaches PostgreSQL. The timeout counts from when
     * the connection is there: the wait for it has its own bound ({@link Source#connection(Caller)}), and so has
     * {@code caller}'s share of the source, given back once the connection is.
     */
    private <T> Uni<T> onOwnConnection(Source source, String sql, Caller caller,
            BiFunction<SqlConnection, Duration, Uni<T>> work) {
        Duration timeout = config.timeout();
        // The connection is handed over on an event loop while a cancel may come from elsewhere.
        return CancelSafe.<SqlConnection, T> then(source.connection(caller), connection -> {
            AtomicBoolean released = new AtomicBoolean();
            Uni<T> running = work.apply(connection, timeout)
                    .ifNoItem().after(timeout.plusSeconds(5)).failWith(() -> new SqlExecutionException(
                            "The statement did not finish within " + timeout.toSeconds() + " s and was cancelled", "57014",
                            Optional.empty(), sql))
                    .onFailure(PgException.class).transform(failure -> translate((PgException) failure, sql))
                    .eventually(() -> connection.close().onFailure().recoverWithNull().invoke(() -> {
                        released.set(true);
                        source.release(caller);
                    }));
            return detached(running, () -> cancelUntilReleased(connection, released, timeout));
        }, connection -> connection.close().subscribe().with(done -> source.release(caller), failure -> {
            source.release(caller);
            Log.debugf("A connection could not be handed back: %s", failure.toString());
        }));
    }

    /**
     * {@code running}, run to its end even when its caller cancels: the caller's cancel only asks
     * PostgreSQL to stop the statement ({@code onCancel}). Cancelling the chain itself would return
     * the connection to the pool at once, while its statement may still run (or not have started:
     * PostgreSQL drops a cancel that arrives between statements) with nobody left to cancel it; run
     * to its end, the work stops at PostgreSQL's cancel, rolls back and only then releases the
     * connection, and the cancel is repeated until it does.
     */
    private static <T> Uni<T> detached(Uni<T> running, Runnable onCancel) {
        return Uni.createFrom().<T> emitter(emitter -> running.subscribe().with(emitter::complete, emitter::fail))
                .onCancellation().invoke(onCancel);
    }

    /**
     * The transaction and its settings in one round trip (a simple query may hold several statements;
     * these are the service's own, never the model's): read-only or not, the statement and lock
     * timeouts, and the string syntax the guard assumes, pinned to PostgreSQL's default. A failure of
     * any of them fails the whole text, and the work never starts.
     */
    private static String sessionSettings(boolean readOnly, Duration timeout) {
        // Written once per access mode and timeout (configured values, so a handful), not formatted on every call.
        return OPENINGS.computeIfAbsent(timeout.toMillis() * 2 + (readOnly ? 1 : 0),
                key -> SESSION_SETTINGS.formatted(readOnly ? "READ ONLY" : "READ WRITE", timeout.toMillis(),
                        Math.min(timeout.toMillis(), 5000)));
    }

    /** {@link #sessionSettings}' texts, by twice the timeout in milliseconds plus one when read-only. */
    private static final Map<Long, String> OPENINGS = new ConcurrentHashMap<>();

    /**
     * The one transaction wrapper: {@code work} inside a transaction with the service's settings
     * ({@link #sessionSettings}). A read-only transaction is always rolled back, whatever happens;
     * a writing one commits when the work succeeds and rolls back when it fails.
     */
    private static <T> Uni<T> inTransaction(SqlConnection connection, boolean readOnly, Duration timeout,
            Optional<SessionIdentity.Settings> identity, Supplier<Uni<T>> work) {
        // BEGIN is part of the settings' text, so that both take one round trip; the transaction is
        // then ended here as connection.begin()'s would be: always rolled back when read-only.
        if (readOnly && identity.isEmpty()) {
            return inReadOnlyTransactionPipelined(connection, timeout, work);
        }
        return open(connection, readOnly, timeout, identity)
                .onFailure().call(failure -> end(connection, "ROLLBACK"))
                .flatMap(opened -> {
                    Uni<T> done = work.get();
                    if (readOnly) {
                        return done.eventually(() -> end(connection, "ROLLBACK"));
                    }
                    return done.call(result -> connection.query("COMMIT").execute())
                            .onFailure().call(failure -> end(connection, "ROLLBACK"));
                });
    }

    /**
     * A read-only transaction whose opening goes to PostgreSQL together with the work's first statements
     * (the client pipelines them on the connection): one round trip less per call. Safe because the
     * source's connections are read-only by default ({@link SourceRegistry#SESSION_DEFAULTS}): if the
     * opening failed (a cancel arriving before {@code BEGIN} ran), a statement behind it would run in a
     * transaction of its own that is read-only all the same, and with the string syntax the guard
     * assumes. Whatever the work did, a failed opening fails the call, and both answers are waited for
     * before the {@code ROLLBACK}. Not for a caller with an identity: its role is set by a statement of
     * its own, which must have succeeded before anything runs under it.
     */
    private static <T> Uni<T> inReadOnlyTransactionPipelined(SqlConnection connection, Duration timeout,
            Supplier<Uni<T>> work) {
        Uni<RowSet<Row>> opened = connection.query(sessionSettings(true, timeout)).execute();
        // Subscribed in this order, so the opening is queued on the connection before the work's statements.
        return bothSettled(opened, Uni.createFrom().<T> deferred(work::get))
                .map(Tuple2::getItem2)
                .eventually(() -> end(connection, "ROLLBACK"));
    }

    /** Ends the transaction, if one is open; never fails (a broken connection is dropped by the pool). */
    private static Uni<Void> end(SqlConnection connection, String command) {
        return connection.query(command).execute().replaceWithVoid().onFailure().recoverWithNull();
    }

    private Uni<QueryResult> inReadOnlyTransaction(SqlConnection connection, String sql, Duration timeout,
            Optional<SessionIdentity.Settings> identity) {
        return inTransaction(connection, true, timeout, identity, () -> checkPolicyIfAny(connection, sql, Tuple.tuple())
                .flatMap(ignored -> read(connection, sql, Tuple.tuple(),
                        new Reading(config.maxRows(), MAX_BATCH, config.maxResultSize().asLongValue(), true))));
    }

    /** Whether statements' plans are read before they run: when a table policy or hidden columns are configured. */
    private boolean checksPlans() {
        return columns.restricts() || tables.checksPlans();
    }

    private Uni<Void> checkPolicyIfAny(SqlConnection connection, String sql, Tuple params) {
        return checksPlans() ? checkPolicy(connection, sql, EXPLAIN, params) : Uni.createFrom().voidItem();
    }

    /**
     * Refuses the statement when its plan reads a table the policy refuses or a hidden column, or calls a function
     * whose reads the plan cannot show, before it runs. PostgreSQL's own plan has every relation and column resolved
     * (through {@code TABLE}, {@code *}, the search path, views, inheritance and partitions, joins, whole-row
     * references), so no spelling of the SQL can hide a read from this check. An EXPLAIN statement is checked by the
     * statement it explains.
     */
    private Uni<Void> checkPolicy(SqlConnection connection, String sql, String explain, Tuple params) {
        int start = SqlGuard.explainedStatementStart(sql).orElse(0);
        String query = sql.substring(start);
        // Unbound parameters ($1 with no value, GENERIC_PLAN) go by the simple protocol: the extended one wants their
        // values. Only for a single statement (see checkPolicyUnbound), so nothing but the EXPLAIN runs.
        Uni<RowSet<Row>> explained = params == null ? connection.query(explain + query).execute()
                : connection.preparedQuery(explain + query).execute(params);
        return explained
                .onFailure(PgException.class)
                .transform(failure -> translate((PgException) failure, sql, start - explain.length()))
                .map(rows -> readPlan(rows))
                .flatMap(plan -> refuseOutsideThePolicy(connection, plan));
    }

    /**
     * Looks up what the plan reads and calls (both questions sent together, one round trip) and refuses, in this
     * order, tables outside the policy, functions whose reads cannot be checked, and hidden columns.
     */
    private Uni<Void> refuseOutsideThePolicy(SqlConnection connection, PlanReferences plan) {
        String[] schemas = plan.scans().stream().map(PlanReferences.Scan::schema).toArray(String[]::new);
        String[] names = plan.scans().stream().map(PlanReferences.Scan::relation).toArray(String[]::new);
        Uni<RowSet<Row>> relations = connection.preparedQuery(SCANNED_RELATIONS)
                .execute(Tuple.of(schemas, names, plan.regclasses().toArray(String[]::new)));
        Uni<RowSet<Row>> opaque = connection.preparedQuery(OPAQUE_FUNCTIONS).execute(Tuple.of(
                plan.functions().toArray(String[]::new), plan.operators().toArray(String[]::new),
                plan.names().toArray(String[]::new)));
        return bothSettled(relations, opaque).map(both -> {
            refuseTables(both.getItem1());
            refuseOpaqueFunctions(both.getItem2());
            refuseHiddenReads(plan, both.getItem1());
            return null;
        });
    }

    private void refuseTables(RowSet<Row> relations) {
        Set<String> refused = new TreeSet<>();
        for (Row relation : relations) {
            String schema = relation.getString("nsp");
            String name = relation.getString("rel");
            if (!tables.permitsRelation(schema + "." + name, List.of(relation.getArrayOfStrings("ancestors")))) {
                refused.add(schema.equals("public") ? name : schema + "." + name);
            }
        }
        if (!refused.isEmpty()) {
            throw new ToolRefusedException(TablePolicy.refusalOf(refused));
        }
    }

    private static void refuseOpaqueFunctions(RowSet<Row> functions) {
        Set<String> names = new TreeSet<>();
        functions.forEach(row -> names.add(row.getString("name")));
        if (!names.isEmpty()) {
            throw new ToolRefusedException((names.size() == 1 ? "Function " : "Functions ") + String.join(", ", names)
                    + (names.size() == 1 ? " is" : " are") + " written in SQL or a procedural language: what "
                    + (names.size() == 1 ? "it reads" : "they read")
                    + " runs inside, where the table policy and hidden columns cannot be checked, so "
                    + (names.size() == 1 ? "it is" : "they are") + " not available to the agent");
        }
    }

    private void refuseHiddenReads(PlanReferences plan, RowSet<Row> relations) {
        if (!columns.restricts()) {
            return;
        }
        Set<String> refused = new TreeSet<>();
        for (Row relation : relations) {
            String schema = relation.getString("nsp");
            String name = relation.getString("rel");
            List<String> effective = new ArrayList<>(List.of(relation.getArrayOfStrings("ancestors")));
            effective.add(schema + "." + name);
            Set<String> hidden = columns.hidden(effective, List.of(relation.getArrayOfStrings("columns")));
            if (hidden.isEmpty()) {
                continue;
            }
            String shown = schema.equals("public") ? name : schema + "." + name;
            for (PlanReferences.Scan scan : plan.scans()) {
                if (scan.schema().equals(schema) && scan.relation().equals(name)) {
                    for (String column : plan.columnsOf(scan.alias())) {
                        if (hidden.contains(column)) {
                            refused.add(shown + "." + column);
                        }
                    }
                    if (plan.readsWholeRow(scan.alias())) {
                        hidden.forEach(column -> refused.add(shown + "." + column));
                    }
                }
            }
        }
        if (!refused.isEmpty()) {
            throw new ToolRefusedException((refused.size() == 1 ? "Column " : "Columns ") + String.join(", ", refused)
                    + (refused.size() == 1 ? " is" : " are") + " hidden and cannot be read, also not through *, "
                    + "a whole-row reference such as row_to_json(t), a view or a condition; name the columns you need "
                    + "and leave the hidden ones out");
        }
    }

    private static PlanReferences readPlan(RowSet<Row> rows) {
        try {
            return PlanReferences.of(plan(rows));
        } catch (IllegalArgumentException e) {
            Log.warnf("A plan could not be checked against the table policy: %s", e.getMessage());
            throw new ToolRefusedException(
                    "The statement could not be checked against the table policy and hidden columns; write it more simply");
        }
    }

    private static JsonNode plan(RowSet<Row> rows) {
        Object value = rows.iterator().next().getValue(0);
        String json = value instanceof JsonArray array ? array.encode() : String.valueOf(value);
        try {
            return ToolJson.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("PostgreSQL's plan could not be read", e);
        }
    }

    /**
     * Sends PostgreSQL a cancel request for the connection's statement, and again every
     * {@link #RECANCEL_INTERVAL} until the connection is back in the pool. PostgreSQL drops a
     * cancel that arrives before the statement starts (the backend is still reading it), and a
     * caller that goes away just as its statement is sent would otherwise leave it running to the
     * statement timeout. The repeats stop as soon as the connection is released (after the
     * statement and the rollback), so they never reach the next borrower's statement.
     */
    private static void cancelUntilReleased(SqlConnection connection, AtomicBoolean released, Duration timeout) {
        Log.debug("Cancelling a running statement: its caller went away");
        cancelRunningStatement(connection);
        Multi.createFrom().ticks().every(RECANCEL_INTERVAL)
                .select().first(timeout.toMillis() / RECANCEL_INTERVAL.toMillis() + 1)
                .select().first(tick -> !released.get())
                .subscribe().with(tick -> cancelRunningStatement(connection), failure -> {
                });
    }

    private static void cancelRunningStatement(SqlConnection connection) {
        PgConnection.cast(connection).cancelRequest().subscribe().with(done -> {
        }, failure -> Log.debugf("Could not cancel a running statement: %s", failure.toString()));
    }

    private static SqlExecutionException translate(PgException failure, String sql) {
        return translate(failure, sql, 0);
    }

    /** {@code shift} moves PostgreSQL's position into {@code sql} when the server saw a different text. */
    private static SqlExecutionException translate(PgException failure, String sql, int shift) {
        Optional<Integer> shifted = Optional.ofNullable(failure.getPosition()).flatMap(QueryRunner::integer)
                .map(p -> p + shift);
        Optional<Integer> position = shifted.filter(p -> p >= 1 && p <= sql.length() + 1);
        String text = failure.getErrorMessage();
        if (shift < 0 && "42601".equals(failure.getSqlState()) && shifted.filter(p -> p > sql.length()).isPresent()) {
            // The parser reached the text the service wrapped the statement in: for the writer, the statement ended too soon.
            text = "syntax error at end of input";
            position = Optional.of(sql.length() + 1);
        }
        StringBuilder message = new StringBuilder(text);
        message.append(" (SQLSTATE ").append(failure.getSqlState()).append(')');
        position.ifPresent(p -> message.append(" at character ").append(p).append(": ").append(near(sql, p)));
        if (failure.getDetail() != null) {
            message.append(". Detail: ").append(failure.getDetail());
        }
        if (failure.getHint() != null) {
            message.append(". Hint: ").append(failure.getHint());
        }
        return new SqlExecutionException(message.toString(), failure.getSqlState(), position, sql);
    }

    /** A short excerpt of the statement around a 1-based position, to show the model where it went wrong. */
    static String near(String sql, int position) {
        int index = Math.max(0, Math.min(sql.length(), position - 1));
        int from = Math.max(0, index - 20);
        int to = Math.min(sql.length(), index + 20);
        return "'" + sql.substring(from, to).replaceAll("\\s+", " ") + "'";
    }

    private static Optional<Integer> integer(String text) {
        try {
            return Optional.of(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Refuses, as {@link #run(Source, String)} would, a statement whose plan reads a hidden column or a table outside
     * the policy, without running it (for SQL kept to be run later, such as a validated query). Completes at once when
     * no policy is configured; a statement PostgreSQL cannot plan fails with its error.
     */
    public Uni<Void> checkPolicy(Source source, String sql) {
        return checkPolicy(source, sql, EXPLAIN, Tuple.tuple());
    }

    /**
     * {@link #checkPolicy(Source, String)} for a statement with positional parameters ({@code $1}, ...) that are not
     * bound yet, such as a declared tool's as it loads: PostgreSQL plans it for any values ({@code GENERIC_PLAN},
     * PostgreSQL 16 and later; an older server fails, and the check is left to each call).
     */
    public Uni<Void> checkPolicyUnbound(Source source, String sql) {
        if (!SqlGuard.isSingleStatement(sql)) {
            return Uni.createFrom().failure(new IllegalArgumentException("Not a single statement; checked at each call"));
        }
        return checkPolicy(source, sql, EXPLAIN_GENERIC, null);
    }

    private Uni<Void> checkPolicy(Source source, String sql, String explain, Tuple params) {
        if (!checksPlans()) {
            return Uni.createFrom().voidItem();
        }
        return onOwnConnection(source, sql, Caller.service(),
                (connection, timeout) -> inTransaction(connection, true, timeout, Optional.empty(),
                        () -> checkPolicy(connection, sql, explain, params)));
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
        Reading reading = new Reading(options.maxRows(), Math.min(options.pageSize(), MAX_BATCH), Long.MAX_VALUE,
                options.readOnly());
        return Uni.createFrom().deferred(() -> {
            Optional<SessionIdentity.Settings> identity = sessions.of(source.name(), caller);
            return spans.traced(source, sql, parent,
                    metrics.timed(source, againIfShapeChanged(() -> onOwnConnection(source, sql, caller,
                            (connection, timeout) -> inTransaction(connection, options.readOnly(), timeout, identity,
                                    () -> checkPolicyIfAny(connection, sql, params)
                                            .flatMap(ignored -> read(connection, sql, params, reading)))))));
        });
    }

    /**
     * How a result is read.
     *
     * @param maxRows rows kept at most; one more is read to know there were more
     * @param maxBatch rows one cursor read takes at most
     * @param maxResultChars about how many characters of JSON the kept rows may take; past it, reading stops
     * @param readOnly whether the statement is read-only (only those are rendered by PostgreSQL, see {@link #read})
     */
    private record Reading(int maxRows, int maxBatch, long maxResultChars, boolean readOnly) {
    }

    /**
     * Reads a statement's result. A read-only statement is run as a subquery whose values PostgreSQL
     * renders itself, after a cheap statement that learns its column names and types (an empty run,
     * {@code WHERE false}; {@code pg_typeof} for types the driver does not know), sent with it; see
     * {@link ResultValues} for why the driver's own decoding is not used. The first time a statement is
     * seen, PostgreSQL writes each row as JSON ({@code to_json}); once its columns are known
     * ({@link #shapes}), each column as text or JSON by its type ({@link ColumnText}), which costs
     * PostgreSQL a third as much for the same answer. An EXPLAIN (its plan is text or JSON already) and a
     * statement that writes (it cannot be a subquery) are read through the driver's values.
     */
    private Uni<QueryResult> read(SqlConnection connection, String sql, Tuple params, Reading reading) {
        // statementBody is empty for anything that does not start as a query, an EXPLAIN included.
        Optional<String> body = reading.readOnly() ? SqlGuard.statementBody(sql) : Optional.empty();
        Gathered gathered = new Gathered();
        if (body.isEmpty()) {
            Uni<RowSet<Row>> first = connection.prepare(sql)
                    .onFailure(PgException.class).transform(failure -> translate((PgException) failure, sql))
                    .flatMap(statement -> firstRead(statement, params, reading, gathered));
            return readRows(first, null, reading, gathered, sql, 0);
        }
        // The column names, the rows statement's preparation and its first read go to PostgreSQL together (the client
        // pipelines them on the connection): one round trip.
        List<ColumnText> known = shapes.getIfPresent(body.get());
        // Wide values are cut by PostgreSQL, to what the answer keeps (WideValues).
        int cap = config.maxCellChars();
        // OFFSET 0: the statement's own expressions are computed once, however often the select list names them.
        String prefix = (known == null ? ROWS_PREFIX + WideValues.rowJson()
                : COLUMNS_PREFIX + WideValues.selectList(known, "q", cap))
                + " FROM (SELECT * FROM (";
        String suffix = "\n) AS b OFFSET 0) AS q" + (known == null ? "" : "(" + ColumnText.aliases(known.size()) + ")");
        int shift = -prefix.length();
        Uni<List<ResultColumn>> described = describe(connection, sql, body.get(), params)
                .invoke(columns -> learnShape(body.get(), known, columns));
        Uni<RowSet<Row>> first = connection.prepare(prefix + body.get() + suffix)
                .onFailure(PgException.class).transform(failure -> translate((PgException) failure, sql, shift))
                .flatMap(statement -> firstRead(statement, params, reading, gathered));
        gathered.kinds = known;
        return readRows(first, described, reading, gathered, sql, shift);
    }

    /**
     * Keeps the kinds of a statement's columns for its next run, once PostgreSQL described them; fails with
     * {@link ShapeChanged} when this run's rows statement was built for other kinds (the tables changed since
     * the last run), whose rows could not be read as they are.
     */
    private void learnShape(String body, List<ColumnText> known, List<ResultColumn> columns) {
        List<ColumnText> kinds = ColumnText.of(columns);
        if (known != null && !known.equals(kinds)) {
            shapes.invalidate(body);
            throw new ShapeChanged();
        }
        if (known == null && !kinds.isEmpty()) {
            shapes.put(body, List.copyOf(kinds));
        }
    }

    /**
     * A statement's columns changed kind since its last run: its rows were asked for as they were; or a first run's
     * row was too long to read as {@code to_json} ({@link WideValues#ROW_JSON_BOUND}). Never reaches a caller: the
     * statement is run once more, on a new connection, with its columns learned again ({@link #againIfShapeChanged}).
     */
    private static final class ShapeChanged extends RuntimeException {
        ShapeChanged() {
            super("the statement's columns changed since its last run", null, false, false);
        }
    }

    /**
     * {@code run}, and once more when its columns had changed ({@link ShapeChanged}): the second run finds no kinds
     * kept for the statement, so its rows come as {@code to_json} of each row, whatever the columns are.
     */
    private static <T> Uni<T> againIfShapeChanged(Supplier<Uni<T>> run) {
        // Twice at most: a run whose columns changed reads rows as to_json, and a row too long for that
        // (WideValues.ROW_JSON_BOUND) sends it once more, with the columns it has just learned.
        return run.get().onFailure(ShapeChanged.class)
                .recoverWithUni(failure -> run.get().onFailure(ShapeChanged.class).recoverWithUni(again -> run.get()));
    }

    /**
     * Opens the cursor of {@code statement}, kept in {@code gathered} to be closed, and reads its first rows: a
     * few ({@link #FIRST_BATCH}), since their size is not known yet.
     */
    private static Uni<RowSet<Row>> firstRead(PreparedStatement statement, Tuple params, Reading reading,
            Gathered gathered) {
        gathered.statement = statement;
        gathered.cursor = statement.cursor(params);
        return gathered.cursor.read(Math.min(FIRST_BATCH, Math.min(reading.maxRows() + 1, reading.maxBatch())));
    }

    private static final String NAMES_PREFIX = "SELECT * FROM (";
    // WHERE false, not LIMIT 0: both return no rows and the statement's own columns, but PostgreSQL plans
    // the statement in full under a LIMIT 0, while a constant false condition lets it skip planning the
    // joins and starting them (PostgreSQL 15, a top-10 join over three tables, warm: 0.13-0.15 ms of
    // planning against 0.012 ms).
    private static final String NAMES_SUFFIX = "\n) AS q WHERE false";
    /**
     * Starts the statement that reads each row of a query as its {@code to_json} ({@link WideValues#rowJson}, whose
     * q.* names the whole row even when the statement has a column named q).
     */
    private static final String ROWS_PREFIX = "SELECT /* sqlagent: rows */ ";
    /**
     * Starts the statement that reads a query's columns as {@link ColumnText} says: q.c1, … are the aliases of its
     * columns, whatever their names (several may share one, or be named q).
     */
    private static final String COLUMNS_PREFIX = "SELECT /* sqlagent: columns */ ";

    /**
     * Whether a connection may keep {@code sql} prepared for the next call: only the statements that
     * read a query's rows, whose result is text columns as many as their own text names, whatever the tables look
     * like. Any other
     * statement (the column names of a {@code SELECT *}, a declared tool's own SQL) could change its
     * result's shape with the schema, and PostgreSQL refuses to run a kept statement whose shape
     * changed ({@code cached plan must not change result type}). The SQL client keeps only statements run with
     * {@code preparedQuery}; the rows statements are prepared for a cursor, which it never keeps, so they are
     * parsed on every call and closed after it ({@link #closeQuietly}).
     */
    static boolean keepsItsShape(String sql) {
        return sql.startsWith(ROWS_PREFIX) || sql.startsWith(COLUMNS_PREFIX);
    }

    /** Rows one cursor read takes at most. */
    private static final int MAX_BATCH = 1000;
    /**
     * Rows the first read takes, before their size is known. Kept small: a row's size is unbounded, and
     * 32 rows of a megabyte each exhausted a 128 MB heap (ResultMemoryIT); later reads size themselves.
     */
    private static final int FIRST_BATCH = 10;
    /** About how many characters of rows one read may bring, once their size is known. */
    private static final long BATCH_CHARS = 4_000_000;

    /**
     * The statement's columns: names from an empty run ({@code WHERE false}), types from {@code pg_typeof} over an empty outer
     * join.
     */
    private static Uni<List<ResultColumn>> describe(SqlConnection connection, String sql, String body, Tuple params) {
        return connection.preparedQuery(NAMES_PREFIX + body + NAMES_SUFFIX).execute(params)
                .onFailure(PgException.class)
                .transform(failure -> translate((PgException) failure, sql, -NAMES_PREFIX.length()))
                .flatMap(empty -> {
                    List<String> names = empty.columnsNames() == null ? List.of() : empty.columnsNames();
                    List<String> types = new ArrayList<>(names.size());
                    descriptors(empty).forEach(descriptor -> types.add(DriverTypes.name(descriptor)));
                    if (!types.contains(DriverTypes.UNKNOWN)) {
                        return Uni.createFrom().item(QueryResult.columns(names, types));
                    }
                    return typesOfUnknown(connection, sql, body, params, names, types);
                });
    }

    /**
     * The names of the types the driver does not know (enums, composite and range types, …), from
     * {@code pg_typeof} over an empty outer join: one row whatever the statement returns, and the
     * statement itself does not run ({@code WHERE false}). Only asked when such a column is there.
     */
    private static Uni<List<ResultColumn>> typesOfUnknown(SqlConnection connection, String sql, String body, Tuple params,
            List<String> names, List<String> types) {
        StringBuilder prefix = new StringBuilder("SELECT ARRAY[");
        for (int i = 1; i <= names.size(); i++) {
            prefix.append(i > 1 ? ", " : "").append("pg_typeof(q.c").append(i).append(")::text");
        }
        prefix.append("]::text[] FROM (SELECT 1) AS o LEFT JOIN (SELECT * FROM (");
        int shift = -prefix.length();
        String query = prefix + body + "\n) AS s WHERE false) AS q(" + ColumnText.aliases(names.size()) + ") ON true";
        return connection.preparedQuery(query).execute(params)
                .onFailure(PgException.class).transform(failure -> translate((PgException) failure, sql, shift))
                .map(rows -> {
                    String[] named = rows.iterator().next().getArrayOfStrings(0);
                    List<String> complete = new ArrayList<>(types);
                    for (int i = 0; i < complete.size() && i < named.length; i++) {
                        if (complete.get(i).equals(DriverTypes.UNKNOWN)) {
                            complete.set(i, named[i]);
                        }
                    }
                    return QueryResult.columns(names, complete);
                });
    }

    /** Rows read so far, kept ones written into the answer; {@code seen} counts every row read, kept or not. */
    private static final class Gathered {
        private List<ResultColumn> columns;
        private ResultJson answer;
        private int kept;
        private int seen;
        private long keptChars;
        private long readChars;
        private boolean full;
        /** Whether the rows are PostgreSQL's JSON of them (else the driver's values). */
        private boolean rendered;
        /** How each column's value comes, when it comes as a column of its own (else null). */
        private List<ColumnText> kinds;
        /** The statement the rows come from, once it is prepared. */
        private PreparedStatement statement;
        /** Its cursor, once it is open. */
        private Cursor cursor;
    }

    /**
     * Reads rows in batches, each value rendered and cut as it arrives, so a result never holds more
     * than one batch of whole rows: the first read ({@code first}) takes a few rows, later reads as many
     * as fit in {@link #BATCH_CHARS} at the size seen so far. Reading stops one row past the row limit,
     * or once the result-size cap is reached. {@code described} gives the columns of rendered rows
     * (null: the driver's columns); it and the first read are sent together.
     */
    private Uni<QueryResult> readRows(Uni<RowSet<Row>> first, Uni<List<ResultColumn>> described, Reading reading,
            Gathered gathered, String sql, int shift) {
        gathered.rendered = described != null;
        Uni<RowSet<Row>> firstRows = described == null
                ? first
                // Both are waited for, failed or not, before anything else goes to the connection; the
                // column query's failure is the one reported when both fail (it was sent first).
                : bothSettled(described, first).map(both -> {
                    gathered.columns = both.getItem1();
                    return both.getItem2();
                });
        return firstRows
                .flatMap(rowSet -> afterRead(rowSet, reading, gathered))
                .onFailure(PgException.class).transform(failure -> translate((PgException) failure, sql, shift))
                // Not waited for: the transaction's end, sent right after it, closes the cursor anyway, so
                // the close and the ROLLBACK share a round trip; the connection keeps them in order.
                .eventually(() -> closeQuietly(gathered));
    }

    /** What a {@code Uni} ended with: its item, or its failure. */
    private record Settled<T>(T item, Throwable failure) {
    }

    private static <T> Uni<Settled<T>> settled(Uni<T> uni) {
        return uni.onItemOrFailure().transform(Settled::new);
    }

    /**
     * Both items, once both {@code Uni}s ended, failed or not (they were sent to the connection together,
     * in this order, and nothing else may follow before both answered); the first one's failure when
     * both failed.
     */
    private static <A, B> Uni<Tuple2<A, B>> bothSettled(Uni<A> first, Uni<B> second) {
        return Uni.combine().all().unis(settled(first), settled(second)).asTuple().flatMap(both -> {
            Throwable failure = both.getItem1().failure() != null ? both.getItem1().failure() : both.getItem2().failure();
            return failure != null
                    ? Uni.createFrom().<Tuple2<A, B>> failure(failure)
                    : Uni.createFrom().item(Tuple2.of(both.getItem1().item(), both.getItem2().item()));
        });
    }

    /**
     * Closes the cursor and the statement the rows came from: a statement prepared with {@code prepare} (which a
     * cursor needs) is a named statement that the SQL client neither caches nor closes by itself, and PostgreSQL
     * would keep every one of them for as long as the pooled connection lives (one per call, without end).
     */
    private static void closeQuietly(Gathered gathered) {
        if (gathered.cursor != null) {
            gathered.cursor.close().subscribe().with(closed -> {
            }, failure -> Log.debugf("A cursor could not be closed: %s", failure.toString()));
        }
        if (gathered.statement != null) {
            gathered.statement.close().subscribe().with(closed -> {
            }, failure -> Log.debugf("A prepared statement could not be closed: %s", failure.toString()));
        }
    }

    private Uni<QueryResult> readBatch(Reading reading, Gathered gathered) {
        int wanted = reading.maxRows() + 1 - gathered.seen;
        int batch = (int) Math.max(1,
                Math.min(reading.maxBatch(), BATCH_CHARS / Math.max(1, gathered.readChars / gathered.seen)));
        return gathered.cursor.read(Math.min(wanted, Math.min(batch, reading.maxBatch())))
                .flatMap(rowSet -> afterRead(rowSet, reading, gathered));
    }

    /** Keeps what {@code rowSet} brought, then reads on or ends the result. */
    private Uni<QueryResult> afterRead(RowSet<Row> rowSet, Reading reading, Gathered gathered) {
        keep(rowSet, reading, gathered);
        if (!gathered.full && gathered.seen <= reading.maxRows() && gathered.cursor.hasMore()) {
            return readBatch(reading, gathered);
        }
        boolean truncated = gathered.full || gathered.seen > reading.maxRows();
        return Uni.createFrom().item(new QueryResult(gathered.columns, gathered.answer.finish(gathered.kept,
                gathered.seen, truncated), gathered.kept, gathered.seen, truncated));
    }

    /** Writes the rows of {@code rowSet} into the answer, each value cut, until the row limit or the size cap. */
    private void keep(RowSet<Row> rowSet, Reading reading, Gathered gathered) {
        boolean rendered = gathered.rendered;
        int maxChars = config.maxCellChars();
        if (gathered.columns == null) {
            gathered.columns = driverColumns(rowSet);
        }
        if (gathered.answer == null) {
            gathered.answer = new ResultJson(gathered.columns, maxChars);
        }
        for (Row row : rowSet) {
            gathered.seen++;
            if (gathered.full || gathered.kept >= reading.maxRows()) {
                continue;
            }
            long room = reading.maxResultChars() - gathered.keptChars;
            long size;
            if (gathered.kinds != null) {
                size = gathered.answer.addTexts(gathered.kinds, row::getString, row.getString(gathered.kinds.size()), room);
                gathered.readChars += size;
            } else if (rendered) {
                String json = row.getString(0);
                if (json == null) {
                    // Longer than a first run reads whole: again, each column as text, cut by PostgreSQL (WideValues).
                    throw new ShapeChanged();
                }
                gathered.readChars += json.length();
                size = gathered.answer.addRendered(json, room);
            } else {
                List<JsonNode> values = new ArrayList<>(row.size());
                for (int i = 0; i < row.size(); i++) {
                    values.add(ResultValues.fromDriver(row.getValue(i), maxChars));
                }
                size = gathered.answer.addValues(values, room);
                gathered.readChars += size;
            }
            if (size > room) {
                gathered.full = true;
                continue;
            }
            gathered.keptChars += size;
            gathered.kept++;
        }
    }

    private static List<ColumnDescriptor> descriptors(RowSet<Row> rowSet) {
        List<ColumnDescriptor> descriptors = rowSet.getDelegate().columnDescriptors();
        return descriptors == null ? List.of() : descriptors;
    }

    /** Columns of a result the driver decoded: names as sent, types as the driver knows them. */
    private static List<ResultColumn> driverColumns(RowSet<Row> rowSet) {
        List<String> names = rowSet.columnsNames() == null ? List.of() : rowSet.columnsNames();
        List<String> types = new ArrayList<>(names.size());
        for (ColumnDescriptor descriptor : descriptors(rowSet)) {
            types.add(DriverTypes.name(descriptor));
        }
        return QueryResult.columns(names, types);
    }
}
