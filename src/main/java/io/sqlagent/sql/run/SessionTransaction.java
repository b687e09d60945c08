package io.sqlagent.sql.run;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.tuples.Tuple2;
import io.sqlagent.sql.engine.Pipelined;
import io.sqlagent.sql.engine.postgres.PgSession;
import io.sqlagent.sql.source.SessionIdentity;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The one transaction wrapper around a caller's statement: opened with the service's settings
 * ({@link PgSession#opening}), the caller's identity taken on for the transaction only ({@link SessionIdentity}),
 * and always ended: a read-only transaction is rolled back whatever happens, a writing one commits when the work
 * succeeds and rolls back when it fails.
 */
final class SessionTransaction {

    private SessionTransaction() {
    }

    /** {@code work} inside a transaction with the service's settings, as {@code identity} when there is one. */
    static <T> Uni<T> around(SqlConnection connection, boolean readOnly, Duration timeout,
            Optional<SessionIdentity.Settings> identity, Supplier<Uni<T>> work) {
        return around(connection, readOnly, timeout, identity, false, work);
    }

    /**
     * The same, for {@code work} that is {@code oneStatement} when it sends one statement as it is subscribed and
     * nothing after that statement's answer ({@code PgResults.Plan.inOneStatement}): a read-only transaction without
     * an identity then sends its {@code ROLLBACK} right behind it ({@link #readOnlyPipelined}).
     */
    static <T> Uni<T> around(SqlConnection connection, boolean readOnly, Duration timeout,
            Optional<SessionIdentity.Settings> identity, boolean oneStatement, Supplier<Uni<T>> work) {
        // BEGIN is part of the settings' text, so that both take one round trip; the transaction is
        // then ended here as connection.begin()'s would be: always rolled back when read-only.
        if (readOnly && identity.isEmpty()) {
            return readOnlyPipelined(connection, timeout, oneStatement, work);
        }
        return open(connection, readOnly, timeout, identity)
                .onFailure().call(failure -> end(connection, PgSession.ROLLBACK))
                .flatMap(opened -> {
                    Uni<T> done = work.get();
                    if (readOnly) {
                        return done.eventually(() -> end(connection, PgSession.ROLLBACK));
                    }
                    return done.call(result -> connection.query(PgSession.COMMIT).execute())
                            .onFailure().call(failure -> end(connection, PgSession.ROLLBACK));
                });
    }

    /**
     * Opens the transaction with its settings in one round trip, then sets the caller's identity when
     * it has one. Nothing else is sent before this completes: a statement sent along with it would run
     * outside the transaction if the opening failed (a cancel arriving before {@code BEGIN} ran).
     */
    private static Uni<Void> open(SqlConnection connection, boolean readOnly, Duration timeout,
            Optional<SessionIdentity.Settings> identity) {
        Uni<RowSet<Row>> opened = connection.query(PgSession.opening(readOnly, timeout)).execute();
        if (identity.isEmpty()) {
            return opened.replaceWithVoid();
        }
        SessionIdentity.Settings settings = identity.get();
        return opened.flatMap(ignored -> settings.role().isPresent()
                ? connection.preparedQuery(PgSession.ROLE_AND_NAME)
                        .execute(Tuple.of(settings.role().get(), settings.applicationName()))
                : connection.preparedQuery(PgSession.NAME).execute(Tuple.of(settings.applicationName())))
                .replaceWithVoid();
    }

    /**
     * A read-only transaction whose opening goes to PostgreSQL together with the work's first statements
     * (the client pipelines them on the connection): one round trip less per call. Safe because the
     * source's connections are read-only by default ({@code SourceRegistry.SESSION_DEFAULTS}): if the
     * opening failed (a cancel arriving before {@code BEGIN} ran), a statement behind it would run in a
     * transaction of its own that is read-only all the same, and with the string syntax the guard
     * assumes. Whatever the work did, a failed opening fails the call, and both answers are waited for
     * before the {@code ROLLBACK}. Not for a caller with an identity: its role is set by a statement of
     * its own, which must have succeeded before anything runs under it.
     * <p>
     * When the work is {@code oneStatement}, the {@code ROLLBACK} is queued right behind its statement instead of
     * after its answer: the opening, the statement and the end go to PostgreSQL together, one round trip, and the
     * server runs them without waiting on the service in between. The connection keeps them in order (the SQL client
     * sends a statement it has yet to prepare before what was queued behind it). All three answers are waited for, so
     * the connection goes back to the pool with its transaction ended; a failed {@code ROLLBACK} (outside a
     * transaction, when the opening failed) is nothing to the caller. Work of several steps is never
     * {@code oneStatement}: its later statements would follow the {@code ROLLBACK}.
     */
    private static <T> Uni<T> readOnlyPipelined(SqlConnection connection, Duration timeout, boolean oneStatement,
            Supplier<Uni<T>> work) {
        Uni<RowSet<Row>> opened = connection.query(PgSession.opening(true, timeout)).execute();
        // Subscribed in this order, so the opening is queued on the connection before the work's statements.
        Uni<T> answered = Pipelined.bothAnswered(opened, Uni.createFrom().<T> deferred(work::get)).map(Tuple2::getItem2);
        if (oneStatement) {
            // Subscribed after the work's one statement was queued: the end follows it on the connection.
            return Pipelined.bothAnswered(answered, end(connection, PgSession.ROLLBACK)).map(Tuple2::getItem1);
        }
        return answered.eventually(() -> end(connection, PgSession.ROLLBACK));
    }

    /** Ends the transaction, if one is open; never fails (a broken connection is dropped by the pool). */
    private static Uni<Void> end(SqlConnection connection, String command) {
        return connection.query(command).execute().replaceWithVoid().onFailure().recoverWithNull();
    }
}
