package io.sqlagent;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.Set;

import io.vertx.core.http.HttpClosedException;

/**
 * Whether a failure is the client going away: a connection closed or reset while the service still read the
 * request or wrote the response. That is how HTTP ends when a person closes a tab or a client gives up, not a
 * failure of the service, so it is not logged as one (an {@code ERROR} line an operator cannot act on, a 500
 * in the metrics); what was running for the request ends through its own cancellation.
 */
public final class ClientGone {

    /** How many causes are followed at most: a chain that loops ends here. */
    private static final int MAX_CAUSES = 16;

    /** The socket errors the JDK and Netty report for a peer that closed or reset its end. */
    private static final Set<String> CLOSED_MESSAGES = Set.of("broken pipe", "connection reset by peer",
            "connection reset", "connection was closed");

    private ClientGone() {
    }

    /** True when {@code failure}, or one of its causes, is the connection to the client closing under it. */
    public static boolean is(Throwable failure) {
        Throwable current = failure;
        for (int i = 0; current != null && i < MAX_CAUSES; i++) {
            if (current instanceof ClosedChannelException || current instanceof HttpClosedException) {
                return true;
            }
            if (current instanceof IOException && current.getMessage() != null
                    && CLOSED_MESSAGES.contains(current.getMessage().strip().toLowerCase(Locale.ROOT))) {
                return true;
            }
            current = current.getCause() == current ? null : current.getCause();
        }
        return false;
    }
}
