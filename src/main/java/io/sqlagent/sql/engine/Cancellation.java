package io.sqlagent.sql.engine;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * Stops a statement running on a connection, on the server: PostgreSQL sends its cancel request on a
 * connection of its own; MySQL and MariaDB run {@code KILL QUERY} with the running connection's id on
 * another connection of the source. A cancel that arrives before the statement started may be lost on
 * every engine, so the caller repeats it until the connection is released.
 */
public interface Cancellation {

    /**
     * What identifies {@code connection} to the server for a later {@link #cancel} (MySQL's
     * {@code CONNECTION_ID()}), read once when the connection is taken; PostgreSQL needs none.
     */
    Uni<Long> identify(SqlConnection connection);

    /** Asks the server to stop the statement running on {@code connection} (known to it as {@code id}). */
    Uni<Void> cancel(Pool pool, SqlConnection connection, long id);
}
