package io.sqlagent;

import java.util.UUID;

import io.quarkus.logging.Log;

/**
 * Error ids, written once: a failure inside the service is logged whole under a short id, and
 * the caller gets the id only, so an operator can find the cause and the caller learns nothing
 * of the service's insides.
 */
public final class ErrorIds {

    private ErrorIds() {
    }

    /** Logs {@code failure} as an error under a new id, with {@code what} saying what failed; returns the id. */
    public static String logged(Throwable failure, String what) {
        String id = UUID.randomUUID().toString().substring(0, 8);
        Log.errorf(failure, "%s [error id %s]", what, id);
        return id;
    }

    /** As {@link #logged} at warning level, for failures the service recovers from. */
    public static String warned(Throwable failure, String what) {
        String id = UUID.randomUUID().toString().substring(0, 8);
        Log.warnf(failure, "%s [error id %s]", what, id);
        return id;
    }
}
