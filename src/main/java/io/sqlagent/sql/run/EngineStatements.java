package io.sqlagent.sql.run;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.Caller;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.EngineFailure;
import io.sqlagent.sql.engine.ResultReader;
import io.sqlagent.sql.engine.SessionPlan;
import io.sqlagent.sql.engine.StatementCheck;
import io.sqlagent.sql.guard.SqlVerdict;
import io.sqlagent.sql.guard.StatementKind;
import io.sqlagent.sql.source.Source;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * A caller's statement on a source whose engine is not PostgreSQL, through the engine contract alone: on a connection
 * of its own whose id the engine reads first, so a caller that goes away stops the statement on the server
 * ({@link io.sqlagent.sql.engine.Cancellation}, MySQL's {@code KILL QUERY}); inside the engine's read-only transaction
 * ({@link SessionPlan#open}), each opening statement answered before the next is sent, the caller's statement with
 * its time limit ({@link SessionPlan#timed}), always rolled back; the server's refusal as the engine translates it.
 * The engine reads the result ({@link Engine#results()}): each value rendered exactly, and the row limit, the size cap
 * and the cell cap applied as the rows arrive, the same caps as a PostgreSQL source's, so a wide or long result is
 * not held whole; once they are reached, the statement is stopped on the server ({@code KILL QUERY}), so the rest is
 * not sent. The statement passed the engine's statement check before it came here; with a table policy or
 * hidden columns configured, what it reads is checked before it runs ({@link EngineReadCheck}).
 * <p>
 * A caller's role ({@code role-claim}) lasts for the connection on these engines, not the transaction: it is taken on
 * after the opening ({@link SessionPlan#takeRole}) and dropped after the rollback ({@link SessionPlan#dropRole}) on
 * every path (success, the server's error, the time limit, the caller gone: {@link OwnConnection} runs the work to its
 * end), before the connection goes back to the pool; when dropping fails, the server closes the connection
 * ({@link SessionPlan#discard}), so the next caller never gets it with someone else's role.
 */
final class EngineStatements {

    private final int maxCellChars;
    private final EngineReadCheck reads;
    /** Each engine's statement check with every kind allowed: the tables a statement names, for {@link #reads}. */
    private final Map<Engine, StatementCheck> checks = new ConcurrentHashMap<>();

    /**
     * @param maxCellChars longest string kept whole ({@code sqlagent.sql.max-cell-chars})
     * @param reads the table policy and hidden columns on what a statement reads
     */
    EngineStatements(int maxCellChars, EngineReadCheck reads) {
        this.maxCellChars = maxCellChars;
        this.reads = reads;
    }

    /**
     * {@code sql} on {@code source} as {@code caller}, with {@code role} taken on for the call when there is one (already
     * checked against the source's {@code allowed-roles}).
     */
    Uni<QueryResult> run(Source source, String sql, Caller caller, Duration timeout, Reading reading,
            Optional<String> role) {
        return run(source, sql, Tuple.tuple(), caller, timeout, reading, role);
    }

    /**
     * {@link #run(Source, String, Caller, Duration, Reading, Optional)} with {@code params} bound to the statement's marks
     * ({@code ?}) when it has any: a declared tool's statement.
     */
    Uni<QueryResult> run(Source source, String sql, Tuple params, Caller caller, Duration timeout, Reading reading,
            Optional<String> role) {
        Engine engine = source.engine();
        return named(engine, sql).flatMap(verdict -> connections(engine).runIdentified(source, sql, caller, timeout,
                (connection, limit, id) -> inTransaction(connection, engine, sql, params, limit, reading, verdict,
                        new Role(source, caller, role),
                        () -> engine.cancellation().cancel(source.pool().orElse(null), connection, id))))
                // A pooled connection the server closed (one whose role could not be dropped is closed on purpose, and
                // the pool may hand it out once more before it notices): the statement is read-only, so it is asked
                // again once, on another connection.
                .onFailure(EngineStatements::closed).retry().atMost(1);
    }

    /**
     * Refuses {@code sql} when what it reads is outside the table policy or hidden columns, without running it: a
     * declared tool's statement as its file loads, its marks ({@code ?}) unbound, since names are all the check reads.
     * Completes at once when no policy is configured.
     */
    Uni<Void> checkReads(Source source, String sql, Duration timeout) {
        if (!reads.needed()) {
            return Uni.createFrom().voidItem();
        }
        Engine engine = source.engine();
        SessionPlan session = engine.session();
        Role none = new Role(source, Caller.service(), Optional.empty());
        return named(engine, sql).flatMap(verdict -> connections(engine).run(source, sql, Caller.service(), timeout,
                (connection, limit) -> closing(open(connection, session.open(true, limit), 0)
                        .flatMap(opened -> reads.check(connection, engine, sql, verdict)), connection, session, none)));
    }

    /** Connections of their own on {@code engine}'s sources, the server's refusals in the engine's words. */
    private static OwnConnection connections(Engine engine) {
        return new OwnConnection(engine.cancellation(), (failure, text) -> translate(engine, failure, text));
    }

    /** Whether {@code failure} says the connection was closed before or while the statement ran. */
    static boolean closed(Throwable failure) {
        return failure instanceof io.vertx.sqlclient.ClosedConnectionException
                || String.valueOf(failure.getMessage()).startsWith("Connection is not active now");
    }

    /** The statement check's verdict, for the tables it names, when reads are checked (parsed on a worker thread). */
    private Uni<SqlVerdict> named(Engine engine, String sql) {
        if (!reads.needed()) {
            return Uni.createFrom().item(SqlVerdict.allow(StatementKind.SELECT, Set.of(), Set.of()));
        }
        StatementCheck check = checks.computeIfAbsent(engine,
                key -> key.statementCheck(EnumSet.allOf(StatementKind.class)));
        return Uni.createFrom().item(() -> check.check(sql)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private Uni<QueryResult> inTransaction(SqlConnection connection, Engine engine, String sql, Tuple params,
            Duration timeout, Reading reading, SqlVerdict verdict, Role role, Supplier<Uni<Void>> stop) {
        SessionPlan session = engine.session();
        ResultReader.Caps caps = new ResultReader.Caps(reading.maxRows(), reading.maxResultChars(), maxCellChars);
        Uni<QueryResult> work = open(connection, session.open(reading.readOnly(), timeout), 0)
                .flatMap(opened -> role.take(connection, session, sql))
                .flatMap(taken -> reads.check(connection, engine, sql, verdict))
                .flatMap(checked -> engine.results().read(connection, session.timed(sql, timeout), params, caps, stop))
                .map(QueryResult::of);
        return closing(work, connection, session, role);
    }

    /** {@code work}'s outcome, once {@link #afterwards} has run on whichever path it ended. */
    private static <T> Uni<T> closing(Uni<T> work, SqlConnection connection, SessionPlan session, Role role) {
        return work.onItemOrFailure().transformToUni((result, failure) -> afterwards(connection, session, role, failure)
                .onItemOrFailure().transformToUni((done, ignored) -> failure == null ? Uni.createFrom().item(result)
                        : Uni.createFrom().<T> failure(failure)));
    }

    /**
     * The rollback and the role dropped, on every path, before the connection goes back to the pool. Not when the
     * connection is gone (the server killed, stopped or restarted): the server ended its transaction and its role with
     * it, and a statement sent on a dead connection is never answered, so the caller would wait for the time limit.
     */
    private static Uni<Void> afterwards(SqlConnection connection, SessionPlan session, Role role, Throwable failure) {
        if (failure != null && closed(failure)) {
            return Uni.createFrom().voidItem();
        }
        return connection.query(session.rollback()).execute().replaceWithVoid().onFailure().recoverWithNull()
                .flatMap(rolledBack -> role.drop(connection, session));
    }

    /**
     * The caller's role on a connection, taken on and dropped.
     *
     * @param name the role, empty for a caller without one: nothing is taken on and nothing dropped (every connection
     *        went back to the pool without a role)
     */
    private record Role(Source source, Caller caller, Optional<String> name) {

        /** Takes the role on; a role the server refuses (missing, or not granted) fails the call before anything ran. */
        Uni<Void> take(SqlConnection connection, SessionPlan session, String sql) {
            if (name.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            String statement = session.takeRole(name.get()).orElseThrow(
                    () -> new IllegalStateException("the engine sets roles per transaction (SessionPlan.identity)"));
            return connection.query(statement).execute().replaceWithVoid()
                    .onFailure(failure -> !(failure instanceof SqlExecutionException))
                    .transform(failure -> new SqlExecutionException("Source '" + source.name() + "' could not take on the "
                            + "role '" + name.get() + "' that caller '" + caller.name() + "' names (" + failure.getMessage()
                            + "): the role must exist on the server and be granted to the source's account; nothing was run",
                            "42501", Optional.empty(), sql));
        }

        /** Drops the role; a connection that cannot is closed by the server, never handed to the next caller. */
        Uni<Void> drop(SqlConnection connection, SessionPlan session) {
            if (name.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            return connection.query(session.dropRole()).execute().replaceWithVoid().onFailure()
                    .recoverWithUni(failure -> {
                        Log.warnf("Source '%s': the role of caller '%s' could not be dropped (%s); the connection is closed",
                                source.name(), caller.name(), failure.toString());
                        // Released only once the client saw the socket close: before that the pool could hand it out.
                        return Uni.createFrom().<Void> emitter(closed -> {
                            connection.closeHandler(() -> closed.complete(null));
                            connection.query(session.discard()).execute().subscribe().with(done -> {
                            }, killed -> {
                            });
                        }).ifNoItem().after(Duration.ofSeconds(5)).recoverWithItem((Void) null);
                    });
        }
    }

    /** The opening statements one after the other: nothing is sent before the one ahead of it succeeded. */
    private static Uni<Void> open(SqlConnection connection, List<String> statements, int index) {
        if (index == statements.size()) {
            return Uni.createFrom().voidItem();
        }
        return connection.query(statements.get(index)).execute()
                .flatMap(done -> open(connection, statements, index + 1));
    }

    private static SqlExecutionException translate(Engine engine, Throwable failure, String sql) {
        EngineFailure refused = engine.translate(failure);
        if (refused == null) {
            return null;
        }
        StringBuilder message = new StringBuilder(refused.message());
        if (refused.timedOut()) {
            message.append(" (the statement reached its time limit, sqlagent.sql.timeout)");
        }
        message.append(" (SQLSTATE ").append(refused.sqlState());
        refused.code().ifPresent(code -> message.append(", error ").append(code));
        message.append(')');
        Optional<Integer> position = refused.position().filter(p -> p >= 1 && p <= sql.length() + 1);
        return new SqlExecutionException(message.toString(), refused.timedOut() ? "57014" : refused.sqlState(), position,
                sql);
    }
}
