package io.sqlagent.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class SqlGuardOffLoopTest {

    @Test
    void checksOnAWorkerThreadNotTheCallersThread() {
        SqlGuard guard = SqlGuard.defaults();

        String[] where = guard.checkOffEventLoop("SELECT 1; DROP TABLE x")
                .map(verdict -> new String[] { Thread.currentThread().getName(), verdict.reason() })
                .await().atMost(Duration.ofSeconds(5));

        assertNotEquals(Thread.currentThread().getName(), where[0]);
        assertEquals("Only one statement is allowed; found 2", where[1]);
    }
}
