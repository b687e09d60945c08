package io.sqlagent.sql.run;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.CancelSafe;
import io.sqlagent.sql.engine.Cancellation;
import io.sqlagent.sql.source.Source;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.pgclient.PgException;

/**
 * Work on a connection of its own, closed afterwards, with the overall timeout and the error translation, whose
 * caller's cancel reaches the server: the work runs to its end (the statement stopped by the server, the
 * transaction rolled back) before the connection goes back to the pool, and the server's cancel is repeated until
 * it has.
 */
final class OwnConnection {

    /** How often a cancel is sent again while a cancelled statement's connection is not yet released. */
    private static final Duration RECANCEL_INTERVAL = Duration.ofMillis(200);

    private final Cancellation cancellation;
    /** The server's refusal as the model reads it; null for a failure that is not the server's. */
    private final BiFunction<Throwable, String, SqlExecutionException> translate;

    /** PostgreSQL's: its cancel request, its errors by {@link PgErrorTranslator}. */
    OwnConnection(Cancellation cancellation) {
        this(cancellation, (failure, sql) -> failure instanceof PgException pg ? PgErrorTranslator.translate(pg, sql) : null);
    }

    OwnConnection(Cancellation cancellation, BiFunction<Throwable, String, SqlExecutionException> translate) {
        this.cancellation = cancellation;
        this.translate = translate;
    }

    /**
     * {@code work} on a connection of {@code source}'s for {@code caller}. The timeout counts from when the
     * connection is there: the wait for it has its own bound ({@link Source#connection(Caller)}), and so has
     * {@code caller}'s share of the source, given back once the connection is.
     */
    <T> Uni<T> run(Source source, String sql, Caller caller, Duration timeout,
            BiFunction<SqlConnection, Duration, Uni<T>> work) {
        return runIdentified(source, sql, caller, timeout, (connection, limit, id) -> work.apply(connection, limit));
    }

    /** Work on a connection that also knows the connection's id on the server ({@link Cancellation#identify}). */
    @FunctionalInterface
    interface Identified<T> {
        Uni<T> apply(SqlConnection connection, Duration timeout, long id);
    }

    /** {@link #run}, for work that stops its own statement on the server (MySQL's {@code KILL QUERY} at the caps). */
    <T> Uni<T> runIdentified(Source source, String sql, Caller caller, Duration timeout, Identified<T> work) {
        // The connection is handed over on an event loop while a cancel may come from elsewhere.
        return CancelSafe.<SqlConnection, T> then(source.connection(caller), connection -> {
            AtomicBoolean released = new AtomicBoolean();
            // The connection's id on the server, for engines whose cancel names it (MySQL's KILL QUERY); until it is
            // read, a cancel names none and is sent again.
            AtomicLong id = new AtomicLong(-1);
            Uni<T> running = cancellation.identify(connection)
                    .invoke(id::set)
                    .flatMap(known -> work.apply(connection, timeout, known))
                    .ifNoItem().after(timeout.plusSeconds(5)).failWith(() -> new SqlExecutionException(
                            "The statement did not finish within " + timeout.toSeconds() + " s and was cancelled", "57014",
                            Optional.empty(), sql))
                    .onFailure(failure -> translate.apply(failure, sql) != null)
                    .transform(failure -> translate.apply(failure, sql))
                    .eventually(() -> connection.close().onFailure().recoverWithNull().invoke(() -> {
                        released.set(true);
                        source.release(caller);
                    }));
            Pool pool = source.pool().orElse(null);
            return detached(running, () -> cancelUntilReleased(pool, connection, id, released, timeout));
        }, connection -> connection.close().subscribe().with(done -> source.release(caller), failure -> {
            source.release(caller);
            Log.debugf("A connection could not be handed back: %s", failure.toString());
        }));
    }

    /**
     * {@code running}, run to its end even when its caller cancels: the caller's cancel only asks
     * the server to stop the statement ({@code onCancel}). Cancelling the chain itself would return
     * the connection to the pool at once, while its statement may still run (or not have started:
     * PostgreSQL drops a cancel that arrives between statements) with nobody left to cancel it; run
     * to its end, the work stops at the server's cancel, rolls back and only then releases the
     * connection, and the cancel is repeated until it does.
     */
    private static <T> Uni<T> detached(Uni<T> running, Runnable onCancel) {
        return Uni.createFrom().<T> emitter(emitter -> running.subscribe().with(emitter::complete, emitter::fail))
                .onCancellation().invoke(onCancel);
    }

    /**
     * Asks the server to stop the connection's statement, and again every {@link #RECANCEL_INTERVAL} until the
     * connection is back in the pool. PostgreSQL drops a cancel that arrives before the statement starts (the
     * backend is still reading it), and a caller that goes away just as its statement is sent would otherwise leave
     * it running to the statement timeout. The repeats stop as soon as the connection is released (after the
     * statement and the rollback), so they never reach the next borrower's statement. The connection's id is read
     * first ({@link Cancellation#identify}: 0 for PostgreSQL, whose cancel needs none).
     */
    private void cancelUntilReleased(Pool pool, SqlConnection connection, AtomicLong id, AtomicBoolean released,
            Duration timeout) {
        Log.debug("Cancelling a running statement: its caller went away");
        cancelRunningStatement(pool, connection, id.get());
        Multi.createFrom().ticks().every(RECANCEL_INTERVAL)
                .select().first(timeout.toMillis() / RECANCEL_INTERVAL.toMillis() + 1)
                .select().first(tick -> !released.get())
                .subscribe().with(tick -> cancelRunningStatement(pool, connection, id.get()), failure -> {
                });
    }

    private void cancelRunningStatement(Pool pool, SqlConnection connection, long id) {
        if (id < 0) {
            // Not identified yet: the next repeat names it.
            return;
        }
        cancellation.cancel(pool, connection, id).subscribe().with(done -> {
        }, failure -> Log.debugf("Could not cancel a running statement: %s", failure.toString()));
    }
}
