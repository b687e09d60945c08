package io.sqlagent.sql.run;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Set;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.source.Source;
import io.sqlagent.tool.ToolUnavailableException;
import io.vertx.sqlclient.ClosedConnectionException;

/**
 * A source's server out of reach, whatever its engine: it refused the connection (down, or not yet back), or the
 * connection broke while the statement ran (the server killed, stopped or restarted). Nothing about the call is wrong
 * and the statement was read-only, so the caller is told to try again ({@link ToolUnavailableException}: 503 with
 * {@code Retry-After} over REST, a tool error over MCP and to the model), with the source named and neither the
 * server's address nor the driver's exception in the message. The pool opens new connections on demand, so the first
 * call after the server is back succeeds without a restart of the service. Statements ({@link QueryRunner}) and the
 * catalog reads of the schema tools ({@code sql.schema.SchemaIntrospector}) are refused alike.
 */
public final class SourceOutage {

    /**
     * The server's own word that it is going away: SQLSTATE class 08 (connection exception: MySQL's and MariaDB's
     * "Server shutdown in progress" is 08S01) and PostgreSQL's administrator or crash shutdown and "cannot connect now".
     */
    private static final Set<String> SHUTDOWN_STATES = Set.of("57P01", "57P02", "57P03");

    private SourceOutage() {
    }

    /** Whether {@code failure} says the source's server could not be reached or went away, rather than refused SQL. */
    public static boolean is(Throwable failure) {
        return refused(failure) || lost(failure);
    }

    /** The refusal the caller gets for {@code failure} on {@code source}; {@link #is} holds for it. */
    public static ToolUnavailableException of(Source source, Throwable failure) {
        String name = "Source '" + source.name() + "'";
        if (refused(failure)) {
            return new ToolUnavailableException(name + " cannot be reached (" + reason(failure)
                    + "): its database server is down or not accepting connections; nothing was run; try again when "
                    + "it is back");
        }
        return new ToolUnavailableException(name + " lost its connection to the database server while the statement "
                + "ran (the server went away or closed it); nothing was written, the statement was read-only; try again "
                + "when it is back");
    }

    /** {@code read} on {@code source}, its failure for a server out of reach turned into the refusal {@link #of} gives. */
    public static <T> Uni<T> refusedWhenOut(Source source, Uni<T> read) {
        return read.onFailure(SourceOutage::is).transform(failure -> of(source, failure));
    }

    /** No connection could be made. */
    private static boolean refused(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof UnknownHostException
                    || cause instanceof NoRouteToHostException) {
                return true;
            }
        }
        return false;
    }

    /** The connection broke, or the server said it is shutting down. */
    private static boolean lost(Throwable failure) {
        if (failure instanceof SqlExecutionException refusal) {
            String state = String.valueOf(refusal.sqlState());
            return state.startsWith("08") || SHUTDOWN_STATES.contains(state);
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ClosedConnectionException || cause instanceof ClosedChannelException
                    || EngineStatements.closed(cause)) {
                return true;
            }
        }
        return false;
    }

    /** The kind of refusal, without the address ({@code "Connection refused: /127.0.0.1:3306"} is cut at the colon). */
    private static String reason(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnknownHostException) {
                return "unknown host";
            }
            if (cause instanceof ConnectException && cause.getMessage() != null) {
                String message = cause.getMessage();
                int colon = message.indexOf(':');
                return (colon > 0 ? message.substring(0, colon) : message).strip().toLowerCase(java.util.Locale.ROOT);
            }
        }
        return "no connection";
    }
}
