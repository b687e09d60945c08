package io.sqlagent.http;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Ties work done for an HTTP request to the client's connection: when the connection closes first,
 * the work is cancelled (down to a statement in the database). Quarkus REST cancels a {@code Uni}
 * or stream on its own when it sees the client go, and quarkus-mcp-server does not at all, so MCP
 * calls rely on {@link #gone} alone; for REST and chat this is a safety net. Setting a close
 * handler of our own would replace the one Quarkus REST sets (Vert.x keeps one), so the
 * connection's state is polled instead: every {@link #POLL} per request in flight, cheap next to
 * the work it guards.
 */
public final class ClientConnections {

    /** How often the connection is checked. */
    public static final Duration POLL = Duration.ofMillis(100);

    private ClientConnections() {
    }

    /**
     * Whether the client's connection closed: the response says so, or the channel under it is no
     * longer active (a client that resets the connection right after its request is not always
     * reported to the response).
     */
    public static boolean gone(HttpServerRequest request) {
        if (request == null) {
            return false;
        }
        if (request.response().closed()) {
            return true;
        }
        return request.connection() instanceof ConnectionBase connection && !connection.channel().isActive();
    }

    /** {@code work}, cancelled when the client's connection closes before it ends. */
    public static <T> Uni<T> cancelledWhenGone(Uni<T> work, HttpServerRequest request) {
        return Uni.createFrom().deferred(() -> {
            AtomicReference<Cancellable> watcher = new AtomicReference<>();
            return work
                    .onSubscription().invoke(subscription -> watcher.set(whenGone(request, subscription::cancel)))
                    .onTermination().invoke(() -> stop(watcher));
        });
    }

    /** {@code events}, cancelled when the client's connection closes before they end. */
    public static <T> Multi<T> cancelledWhenGone(Multi<T> events, HttpServerRequest request) {
        return Multi.createFrom().deferred(() -> {
            AtomicReference<Cancellable> watcher = new AtomicReference<>();
            return events
                    .onSubscription().invoke(subscription -> watcher.set(whenGone(request, subscription::cancel)))
                    .onTermination().invoke(() -> stop(watcher));
        });
    }

    /**
     * Resumes reading the connection of a request whose body is read: a connection left paused
     * is not read, and a reset by the client is then never noticed (with the NIO transport) until
     * something is written, which for a statement running half a minute is too late.
     */
    public static void keepReading(HttpServerRequest request) {
        if (request == null) {
            return;
        }
        try {
            request.resume();
        } catch (IllegalStateException alreadyRead) {
            // nothing to resume at the request's level
        }
        // Flow control may have paused the channel itself, under the request.
        if (request.connection() instanceof ConnectionBase connection) {
            connection.channel().config().setAutoRead(true);
        }
    }

    /**
     * Runs {@code cancel} once the connection is gone; cancel the returned watcher to stop watching. The
     * first look is one {@link #POLL} after the start, not at once: most calls end before, and then cost
     * a timer set and cancelled instead of a tick run straight away.
     */
    private static Cancellable whenGone(HttpServerRequest request, Runnable cancel) {
        keepReading(request);
        return Multi.createFrom().ticks().startingAfter(POLL).every(POLL)
                .filter(tick -> gone(request))
                .toUni()
                .subscribe().with(tick -> cancel.run(), failure -> {
                });
    }

    private static void stop(AtomicReference<Cancellable> watcher) {
        Cancellable current = watcher.get();
        if (current != null) {
            current.cancel();
        }
    }
}
