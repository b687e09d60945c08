package io.sqlagent.sql.source;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.Metrics;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.Redaction;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.postgres.PostgresEngine;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.tool.ToolUnavailableException;
import io.vertx.core.Future;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * One named database the agent queries, with its own connection pool. A source whose settings
 * could not be used (a malformed URL, say) has no pool and reports why, so one bad source never
 * stops the service.
 *
 * @param name the configured name
 * @param displayUrl the URL with credentials hidden, safe to log and show
 * @param pool the connection pool, absent when the settings are unusable
 * @param configurationProblem why the settings are unusable, when they are
 * @param limits how the pool hands out connections
 * @param waiting calls waiting for a connection now, until each gets one, fails, times out or gives up (the gauge
 *        {@code sqlagent_source_waiting})
 * @param shares how many statements each principal has on the source now, against its share
 * @param engine the engine its URL names ({@link Engines}); PostgreSQL's when the URL names none
 * @param lastHandedOut {@link System#nanoTime} when the pool last handed a connection to a caller (0: never), what
 *        tells a saturated pool (connections keep coming free) from a server that stopped answering
 */
public record Source(String name, String displayUrl, Optional<Pool> pool, Optional<String> configurationProblem,
        PoolLimits limits,
        AtomicInteger waiting, PrincipalShares shares, Engine engine, AtomicLong lastHandedOut) {

    /** A PostgreSQL source whose principals' shares are as {@code limits} says. */
    public Source(String name, String displayUrl, Optional<Pool> pool, Optional<String> configurationProblem,
            PoolLimits limits, AtomicInteger waiting) {
        this(name, displayUrl, pool, configurationProblem, limits, waiting, Engines.POSTGRESQL);
    }

    /** A source of {@code engine} whose principals' shares are as {@code limits} says. */
    public Source(String name, String displayUrl, Optional<Pool> pool, Optional<String> configurationProblem,
            PoolLimits limits, AtomicInteger waiting, Engine engine) {
        this(name, displayUrl, pool, configurationProblem, limits, waiting, new PrincipalShares(limits.perPrincipal()),
                engine, new AtomicLong());
    }

    /** Whether its statements take PostgreSQL's own path ({@code QueryRunner}'s plan check, cursor and pipelining). */
    public boolean isPostgres() {
        return engine instanceof PostgresEngine;
    }

    /**
     * How the pool hands out connections.
     *
     * @param maxSize connections it opens at most
     * @param maxWaitQueueSize calls that may wait for one; one more is refused at once
     * @param acquireTimeout how long a call waits for one
     * @param perPrincipal statements one authenticated principal may have on the source at once (running or
     *        waiting for a connection); more wait in the principal's own line, as many again at most
     */
    public record PoolLimits(int maxSize, int maxWaitQueueSize, Duration acquireTimeout, int perPrincipal) {

        /** Limits with each principal's share at its default, {@link #defaultShare}. */
        public PoolLimits(int maxSize, int maxWaitQueueSize, Duration acquireTimeout) {
            this(maxSize, maxWaitQueueSize, acquireTimeout, defaultShare(maxSize));
        }

        /**
         * One connection fewer than the pool has (at least one): a principal alone still gets nearly the whole
         * pool, and one principal's long statements always leave a connection for everyone else.
         */
        public static int defaultShare(int maxSize) {
            return Math.max(1, maxSize - 1);
        }
    }

    /**
     * Calls refused as busy, by source and reason: {@code queue_full}, {@code timeout} (the pool), {@code principal_share}
     * (the caller had its share of the source in use). Never by principal, which would make a series per caller.
     */
    static final String BUSY_METRIC = "sqlagent.source.busy";

    /** Environment variable that sets the URL of the source with this name. */
    public static String urlVariable(String name) {
        return "SQLAGENT_SOURCES_" + name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + "_URL";
    }

    /** The pool, or a failure naming the source's configuration problem. */
    public Pool requirePool() {
        return pool.orElseThrow(() -> new IllegalStateException(
                "source '" + name + "' is misconfigured: " + configurationProblem.orElse("no pool")));
    }

    /**
     * Runs an operator's statements that may write (an evaluation suite's fixture, which can create and
     * drop schemas) on a pooled connection, outside any transaction as given. The source's connections
     * are read-only by default ({@link SourceRegistry#SESSION_DEFAULTS}); that default is lifted for this
     * text only and set again before the connection goes back to the pool, whether the text succeeded or
     * not. Never for SQL from a model or a caller.
     */
    public Uni<RowSet<Row>> executeWriting(String sql) {
        Uni<RowSet<Row>> written = withConnection(connection -> connection.query(READ_WRITE_DEFAULT).execute()
                .flatMap(ignored -> connection.query(sql).execute())
                .eventually(() -> connection.query(READ_ONLY_DEFAULT).execute()));
        // A caller that stops waiting (a timeout) does not cut this short: the default must be set
        // again before the connection is back in the pool.
        return Uni.createFrom().emitter(emitter -> written.subscribe().with(emitter::complete, emitter::fail));
    }

    private static final String READ_WRITE_DEFAULT = "SET SESSION default_transaction_read_only = off";
    private static final String READ_ONLY_DEFAULT = "SET SESSION default_transaction_read_only = on";

    /**
     * A connection of its own from the pool, as {@code caller}: an authenticated principal first takes one of its
     * share of the source ({@link PoolLimits#perPrincipal}), waiting in its own line while its share is in use
     * ({@link PrincipalShares}), and is refused with {@link ToolUnavailableException}, naming the setting, when that
     * wait times out or its line is full; the share is given back
     * here when no connection comes (the wait failed or was cancelled), else by {@link #release} once the caller
     * closed the connection. The unrestricted callers (the service itself, everyone while authentication is off)
     * are one principal with no share of their own: they are bound by the pool alone.
     */
    public Uni<SqlConnection> connection(Caller caller) {
        if (caller.unrestricted()) {
            return connection();
        }
        return shares.take(caller.name(), limits.acquireTimeout())
                .onFailure(PrincipalShares.Refused.class).transform(refused -> {
                    busyCounter(name, PRINCIPAL_SHARE).increment();
                    String setting = "sqlagent.sources." + name + ".max-statements-per-principal";
                    return new ToolUnavailableException("Source '" + name + "' is busy for you: "
                            + (((PrincipalShares.Refused) refused).waited()
                                    ? "none of your " + shares.perPrincipal() + " statements running on it finished within "
                                            + limits.acquireTimeout().toMillis() + " ms"
                                    : "you already have " + shares.perPrincipal()
                                            + " statements running and as many waiting on it")
                            + "; that is your share of its " + limits.maxSize() + " connections (" + setting
                            + "); try again when one has finished");
                })
                .flatMap(ignored -> connection(() -> shares.release(caller.name())));
    }

    /** Gives back the share {@link #connection(Caller)} took for {@code caller}, once its connection is closed. */
    public void release(Caller caller) {
        if (!caller.unrestricted()) {
            shares.release(caller.name());
        }
    }

    /**
     * {@code work} on a connection of the service's own ({@link #connection()}: a full pool or a wait past the
     * acquire timeout is refused as busy), handed back when the work ends, fails or is cancelled. For the service's
     * own reads (the catalog, statistics, probes), which the pool would otherwise queue without a bound on the wait.
     */
    public <T> Uni<T> withConnection(java.util.function.Function<SqlConnection, Uni<T>> work) {
        return io.sqlagent.CancelSafe.then(connection(),
                connection -> Uni.createFrom().deferred(() -> work.apply(connection))
                        .eventually(() -> connection.close().onFailure().recoverWithNull()),
                connection -> connection.close().subscribe().with(done -> {
                }, failure -> {
                }));
    }

    /** A connection of its own from the pool, for the caller to close, bound by the pool alone (see below). */
    public Uni<SqlConnection> connection() {
        return connection(() -> {
        });
    }

    /**
     * A connection of its own from the pool, for the caller to close. A caller that goes away
     * (cancels) while it waits still gets its connection handed back to the pool when one frees
     * up: the Mutiny wrapper of the pool's future would drop it, checked out for good, which is
     * how a few impatient callers used to exhaust a pool. A full wait queue or a wait past
     * {@code acquire-timeout} fails with {@link ToolUnavailableException}, naming the setting.
     * {@code giveBack} runs when no connection is passed on: the wait failed, timed out or was cancelled.
     * <p>
     * The wait is timed here, not by the pool ({@link SourceRegistry} gives it no connection timeout): Vert.x 4.5's
     * pool can time a wait out after it has already picked a connection for it (the timer fires between the
     * pool handing the connection over and cancelling the timer), and then fails the wait and loses that connection,
     * checked out for good (vertx-sql-client's "Have SQL connection pool handle racy uncancellable timeout", fixed
     * in 5.x only). A thousand callers vanishing under a 3 s timeout left connections so. Here exactly one of
     * the connection, the failure, the timeout and the cancel settles the wait; a connection that arrives after
     * the wait was settled otherwise goes straight back to the pool. The one cost: a wait given up stays in the
     * pool's queue (counted against {@code max-wait-queue-size}) until a connection frees up for it and is handed
     * back at once.
     */
    private Uni<SqlConnection> connection(Runnable giveBack) {
        Pool connections = requirePool();
        return Uni.createFrom().deferred(() -> {
            // Counted here rather than read from Vert.x's own queue gauge (sql_pool_queue_size),
            // which never counts down a call refused because the queue was full.
            waiting.incrementAndGet();
            AtomicReference<Wait> wait = new AtomicReference<>(Wait.PENDING);
            Future<io.vertx.sqlclient.SqlConnection> acquiring = connections.getDelegate().getConnection();
            return Uni.createFrom().<SqlConnection> emitter(emitter -> {
                Runnable stopTimer = afterAcquireTimeout(() -> {
                    if (wait.compareAndSet(Wait.PENDING, Wait.ABANDONED)) {
                        waiting.decrementAndGet();
                        giveBack.run();
                        emitter.fail(timedOut());
                    }
                });
                acquiring.onComplete(acquired -> {
                    if (wait.compareAndSet(Wait.PENDING, acquired.succeeded() ? Wait.DELIVERED : Wait.ABANDONED)) {
                        stopTimer.run();
                        waiting.decrementAndGet();
                        if (acquired.succeeded()) {
                            lastHandedOut.set(System.nanoTime());
                            emitter.complete(SqlConnection.newInstance(acquired.result()));
                        } else {
                            giveBack.run();
                            emitter.fail(busyOr(acquired.cause()));
                        }
                    } else if (acquired.succeeded()) {
                        // The wait was given up (timed out or cancelled) before this connection came.
                        acquired.result().close();
                    }
                });
            })
                    // Runs only when cancelled before the connection was passed on (onCancellation
                    // and the item are mutually exclusive), so nobody else will ever close it. It is
                    // the last step on purpose: a Mutiny step after it would drop a connection that
                    // passed it just as the cancel came (a step drops items once cancelled), and the
                    // connection would stay checked out for good.
                    .onCancellation().invoke(() -> {
                        if (wait.compareAndSet(Wait.PENDING, Wait.ABANDONED)) {
                            waiting.decrementAndGet();
                            giveBack.run();
                        } else if (wait.get() == Wait.DELIVERED) {
                            // Emitted just as the cancel came, and dropped on its way.
                            acquiring.onSuccess(io.vertx.sqlclient.SqlConnection::close);
                        }
                    });
        });
    }

    /** Where a wait for a connection stands: the first of its outcomes settles it. */
    private enum Wait {
        PENDING,
        DELIVERED,
        ABANDONED
    }

    /**
     * Runs {@code timedOut} once the acquire timeout has passed, on the caller's Vert.x context when it has one; the
     * returned action cancels it.
     */
    private Runnable afterAcquireTimeout(Runnable timedOut) {
        long millis = Math.max(1, limits.acquireTimeout().toMillis());
        io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
        if (context != null) {
            io.vertx.core.Vertx vertx = context.owner();
            long timer = vertx.setTimer(millis, id -> timedOut.run());
            return () -> vertx.cancelTimer(timer);
        }
        java.util.concurrent.ScheduledFuture<?> timer = io.smallrye.mutiny.infrastructure.Infrastructure
                .getDefaultWorkerPool().schedule(timedOut, millis, java.util.concurrent.TimeUnit.MILLISECONDS);
        return () -> timer.cancel(false);
    }

    /** The refusal of a wait past the acquire timeout, counted. */
    private ToolUnavailableException timedOut() {
        busyCounter(name, TIMEOUT).increment();
        return new SourceBusyException("Source '" + name + "' is busy: no connection became free within "
                + limits.acquireTimeout().toMillis() + " ms (sqlagent.sources." + name
                + ".acquire-timeout); try again shortly");
    }

    /** A {@link #BUSY_METRIC} reason: the wait queue was full. */
    static final String QUEUE_FULL = "queue_full";
    /** A {@link #BUSY_METRIC} reason: no connection became free within the acquire timeout. */
    static final String TIMEOUT = "timeout";
    /** A {@link #BUSY_METRIC} reason: the principal had its share of the source in use. */
    static final String PRINCIPAL_SHARE = "principal_share";

    /** The counter of calls refused as busy for this source and reason. */
    static io.micrometer.core.instrument.Counter busyCounter(String source, String reason) {
        return io.micrometer.core.instrument.Counter.builder(BUSY_METRIC)
                .description(
                        "Calls refused as busy: the source's pool (wait queue full, or the wait too long) or the caller's share of it in use")
                .tags("source", source, "reason", reason)
                .register(Metrics.globalRegistry);
    }

    private Throwable busyOr(Throwable failure) {
        String setting = "sqlagent.sources." + name + ".";
        if (failure instanceof ConnectionPoolTooBusyException) {
            busyCounter(name, QUEUE_FULL).increment();
            return new SourceBusyException(
                    "Source '" + name + "' is busy: all " + limits.maxSize() + " connections are in use and "
                            + limits.maxWaitQueueSize() + " calls are already waiting (" + setting + "max-pool-size, " + setting
                            + "max-wait-queue-size); try again shortly");
        }
        return failure;
    }

    /**
     * How recently the pool must have handed out a connection for a probe that could not get one to count the source
     * as busy rather than down: connections keep coming free while the server answers, even when every one is taken.
     */
    static final Duration SERVING_WINDOW = Duration.ofSeconds(30);

    /**
     * Checks that the database answers, within {@code timeout}; never fails: a problem becomes a
     * DOWN status with the reason. A probe that finds every connection in use (refused as busy, or still waiting for
     * one when {@code timeout} passes) while the pool handed one out within {@link #SERVING_WINDOW} is UP and busy: the
     * server answers, it is only saturated, and a replica taken out of its Service for that would push its load onto
     * the others until every one is out. A server that stopped answering frees no connection and is DOWN.
     */
    public Uni<SourceStatus> probe(Duration timeout) {
        if (pool.isEmpty()) {
            return Uni.createFrom().item(SourceStatus.down(name, displayUrl,
                    "misconfigured: " + configurationProblem.orElse("no pool")));
        }
        java.util.concurrent.atomic.AtomicBoolean connected = new java.util.concurrent.atomic.AtomicBoolean();
        return withConnection(client -> {
            connected.set(true);
            return client.query(engine.versionQuery()).execute();
        })
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return SourceStatus.up(name, displayUrl, Engines.withName(engine, String.valueOf(row.getValue(0))));
                })
                .ifNoItem().after(timeout)
                .failWith(() -> new NoAnswer("no answer within " + timeout.toMillis() + " ms"))
                .onFailure().recoverWithItem(failure -> saturated(failure, connected.get())
                        ? SourceStatus.busy(name, displayUrl, "busy: every one of its " + limits.maxSize()
                                + " connections is in use; one was handed out "
                                + Duration.ofNanos(System.nanoTime() - lastHandedOut.get()).toMillis() + " ms ago")
                        : SourceStatus.down(name, displayUrl, reason(failure)));
    }

    /** Whether {@code failure} of a probe means a saturated pool that still serves (see {@link #probe}). */
    private boolean saturated(Throwable failure, boolean connected) {
        long handedOut = lastHandedOut.get();
        boolean serving = handedOut != 0 && System.nanoTime() - handedOut < SERVING_WINDOW.toNanos();
        // A probe still waiting in line for a connection when its time ran out counts as busy too; one whose connection
        // failed (refused, reset: the server went away) or whose statement got no answer never does.
        return serving && (failure instanceof SourceBusyException || failure instanceof NoAnswer && !connected);
    }

    /** A probe's own time ran out. */
    private static final class NoAnswer extends IllegalStateException {
        NoAnswer(String message) {
            super(message);
        }
    }

    private static String reason(Throwable failure) {
        String message = failure.getMessage();
        if (message == null || message.isBlank()) {
            return failure.getClass().getSimpleName();
        }
        return Redaction.redact(message);
    }
}
