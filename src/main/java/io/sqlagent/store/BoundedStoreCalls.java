package io.sqlagent.store;

import java.io.IOException;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.core.VertxException;

/**
 * Bounds what a request waits for the store: a lookup that does not answer within
 * {@code sqlagent.store.timeout}, or fails because the store cannot be reached, becomes a
 * {@link StoreUnavailableException} (answered 503 {@code store_unavailable}), not an internal
 * error. An SQL error in the store's own statements stays what it is: a fault of the service.
 */
@ApplicationScoped
public class BoundedStoreCalls {

    private final StoreConfig config;

    BoundedStoreCalls(StoreConfig config) {
        this.config = config;
    }

    /** {@code call}, bounded and with its unreachable-store failures named. */
    public <T> Uni<T> lookup(Uni<T> call) {
        return call.ifNoItem().after(config.timeout())
                .failWith(() -> new StoreUnavailableException("The store database did not answer within "
                        + config.timeout().toMillis() + " ms (sqlagent.store.timeout)", null))
                .onFailure(BoundedStoreCalls::unreachable)
                .transform(failure -> new StoreUnavailableException("The store database cannot be reached", failure));
    }

    /**
     * {@link #lookup(Uni)} for a {@code call} that only reads, tried once more when it fails for want
     * of a connection: after the store restarts, the pool can hand out a connection the server has
     * just closed, before the pool has heard of the close. (Not for writes: a write whose connection
     * dropped may have been committed.)
     */
    public <T> Uni<T> read(Uni<T> call) {
        return lookup(call.onFailure(BoundedStoreCalls::unreachable).retry().atMost(1));
    }

    /**
     * Failures that mean the store is out of reach: connection refused or lost (Vert.x reports
     * them as {@link VertxException}s or I/O exceptions) and a schema that could not be migrated
     * because of it. PostgreSQL's own errors ({@code PgException}) are not among them.
     */
    static boolean unreachable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof io.vertx.pgclient.PgException) {
                return false;
            }
            if (cause instanceof IOException || cause instanceof VertxException
                    || cause instanceof io.vertx.core.impl.NoStackTraceThrowable
                    || cause instanceof StoreSchemaUnavailableException) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }
}
