package io.sqlagent.sql;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.EngineFailure;
import io.sqlagent.sql.engine.SessionPlan;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * A caller's statement on a source whose engine is not PostgreSQL, through the engine contract alone: on a connection
 * of its own whose id the engine reads first, so a caller that goes away stops the statement on the server
 * ({@link io.sqlagent.sql.engine.Cancellation}, MySQL's {@code KILL QUERY}); inside the engine's read-only transaction
 * ({@link SessionPlan#open}), each opening statement answered before the next is sent, the caller's statement with
 * its time limit ({@link SessionPlan#timed}), always rolled back; the server's refusal as the engine translates it.
 * The driver reads the rows and decodes the values ({@link CursorReader#decoded}); the row limit and the size cap
 * apply to what the answer keeps. The statement passed the engine's statement check before it came here.
 */
final class EngineStatements {

    private final CursorReader reader;

    EngineStatements(CursorReader reader) {
        this.reader = reader;
    }

    Uni<QueryResult> run(Source source, String sql, Caller caller, Duration timeout, Reading reading) {
        Engine engine = source.engine();
        OwnConnection connections = new OwnConnection(engine.cancellation(),
                (failure, text) -> translate(engine, failure, text));
        return connections.run(source, sql, caller, timeout,
                (connection, limit) -> inTransaction(connection, engine.session(), sql, limit, reading));
    }

    private Uni<QueryResult> inTransaction(SqlConnection connection, SessionPlan session, String sql, Duration timeout,
            Reading reading) {
        return open(connection, session.open(reading.readOnly(), timeout), 0)
                .flatMap(opened -> connection.query(session.timed(sql, timeout)).execute())
                .map(rows -> reader.decoded(rows, reading))
                .eventually(
                        () -> connection.query(session.rollback()).execute().replaceWithVoid().onFailure().recoverWithNull());
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
