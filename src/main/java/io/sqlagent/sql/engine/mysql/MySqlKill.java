package io.sqlagent.sql.engine.mysql;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.Cancellation;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.mysqlclient.MySQLConnection;
import io.vertx.sqlclient.Pool;

/**
 * Cancellation on MySQL and MariaDB: {@code KILL QUERY <id>} on a connection of its own, opened to the same server as
 * the same account and closed at once, never one of the source's pool. Taking it from the pool would wait behind the
 * very statement it is to stop when the pool is full (a pool of one connection always is), so a caller that went away
 * would leave its statement running to its time limit.
 */
final class MySqlKill implements Cancellation {

    /** How each pool the engine built connects, so a cancel reaches the same server as the same account. */
    private final Map<Pool, Target> targets = Collections.synchronizedMap(new WeakHashMap<>());

    private record Target(Vertx vertx, MySQLConnectOptions options) {
    }

    /** Remembers how {@code pool} connects, for its cancels. */
    Pool remember(Pool pool, Vertx vertx, MySQLConnectOptions options) {
        targets.put(pool, new Target(vertx, new MySQLConnectOptions(options)));
        return pool;
    }

    @Override
    public Uni<Long> identify(SqlConnection connection) {
        return connection.query("SELECT CONNECTION_ID()").execute().map(rows -> rows.iterator().next().getLong(0));
    }

    @Override
    public Uni<Void> cancel(io.vertx.mutiny.sqlclient.Pool pool, SqlConnection connection, long id) {
        // KILL QUERY stops the statement and leaves its connection open; it needs no privilege for one's own.
        String kill = "KILL QUERY " + id;
        Target target = pool == null ? null : targets.get(pool.getDelegate());
        if (target == null) {
            // A pool built elsewhere: its own connections are all there is.
            return pool == null ? Uni.createFrom().voidItem() : pool.query(kill).execute().replaceWithVoid();
        }
        return Uni.createFrom().completionStage(() -> MySQLConnection.connect(target.vertx(), target.options())
                .compose(own -> own.query(kill).execute().eventually(() -> own.close()))
                .toCompletionStage()).replaceWithVoid();
    }
}
