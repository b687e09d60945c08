package io.sqlagent.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

/** Shared assertions for the guard tests, so a failure shows the SQL and the guard's reason. */
final class GuardAssertions {

    static final SqlGuard GUARD = SqlGuard.defaults();

    private GuardAssertions() {
    }

    static SqlVerdict assertAllowed(String sql, StatementKind kind) {
        SqlVerdict verdict = GUARD.check(sql);
        assertTrue(verdict.allowed(), () -> "refused: " + verdict.reason() + "\nSQL: " + shown(sql));
        assertEquals(null, verdict.reason(), () -> shown(sql));
        assertEquals(Optional.of(kind), verdict.kind(), () -> shown(sql));
        return verdict;
    }

    static SqlVerdict assertAllowed(String sql) {
        return assertAllowed(sql, StatementKind.SELECT);
    }

    static SqlVerdict assertRefused(String sql, String reason) {
        return assertRefused(GUARD, sql, reason);
    }

    static SqlVerdict assertRefused(SqlGuard guard, String sql, String reason) {
        SqlVerdict verdict = guard.check(sql);
        assertFalse(verdict.allowed(), () -> "allowed, expected: " + reason + "\nSQL: " + shown(sql));
        assertEquals(reason, verdict.reason(), () -> shown(sql));
        return verdict;
    }

    /** The SQL for a failure message, cut short so a huge statement does not flood the report. */
    static String shown(String sql) {
        return sql == null || sql.length() <= 300 ? sql
                : sql.substring(0, 300) + "… (" + sql.length() + " characters)";
    }
}
