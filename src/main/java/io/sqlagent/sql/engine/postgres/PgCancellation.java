package io.sqlagent.sql.engine.postgres;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.Cancellation;
import io.vertx.mutiny.pgclient.PgConnection;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * PostgreSQL's way to stop a running statement: the cancel request, which the client sends on a connection of
 * its own with the backend's key it got when the connection opened, so nothing is read to identify the
 * connection beforehand and the pool is not used.
 */
public final class PgCancellation implements Cancellation {

    @Override
    public Uni<Long> identify(SqlConnection connection) {
        return Uni.createFrom().item(0L);
    }

    @Override
    public Uni<Void> cancel(Pool pool, SqlConnection connection, long id) {
        return PgConnection.cast(connection).cancelRequest();
    }
}
