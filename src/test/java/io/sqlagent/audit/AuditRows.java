package io.sqlagent.audit;

import java.time.Duration;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/** Reads the audit log back in tests: flushes the write-behind queue until the row a call left is in the store. */
public final class AuditRows {

    private AuditRows() {
    }

    /**
     * The newest {@code tool_call_audit} row of {@code tool} that also meets {@code condition} (SQL
     * written by the test, such as {@code caller = 'mcp'}; {@code TRUE} for none), waiting at most 10 s.
     */
    public static Row await(AuditLog auditLog, Pool store, String tool, String condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            auditLog.flush().await().atMost(Duration.ofSeconds(5));
            var rows = store
                    .preparedQuery(
                            "SELECT * FROM tool_call_audit WHERE tool = $1 AND (" + condition + ") ORDER BY id DESC LIMIT 1")
                    .execute(Tuple.of(tool)).await().atMost(Duration.ofSeconds(5));
            if (rows.size() > 0) {
                return rows.iterator().next();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no audit row for " + tool + " where " + condition);
    }
}
