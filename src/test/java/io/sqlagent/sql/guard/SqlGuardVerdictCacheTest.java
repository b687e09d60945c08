package io.sqlagent.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;

import org.junit.jupiter.api.Test;

/** The guard keeps the verdicts that allowed a statement, for that exact text and its own policy only. */
class SqlGuardVerdictCacheTest {

    private static final String QUERY = "SELECT count(*) FROM track";

    @Test
    void anAllowedStatementAskedAgainIsAnsweredWithoutParsingItAgain() {
        SqlGuard guard = SqlGuard.defaults();

        Checked first = checkedOffLoop(guard, QUERY);
        Checked second = checkedOffLoop(guard, QUERY);

        assertTrue(first.verdict().allowed());
        assertNotEquals(Thread.currentThread().getName(), first.thread(), "the first check parses on a worker");
        assertEquals(first.verdict(), second.verdict());
        assertEquals(Thread.currentThread().getName(), second.thread(), "a known verdict needs no worker");
    }

    @Test
    void aRefusalIsDecidedAgainEveryTime() {
        SqlGuard guard = SqlGuard.defaults();
        String stacked = "SELECT 1; DROP TABLE track";

        Checked first = checkedOffLoop(guard, stacked);
        Checked second = checkedOffLoop(guard, stacked);

        assertEquals("Only one statement is allowed; found 2", first.verdict().reason());
        assertEquals(first.verdict(), second.verdict());
        assertNotEquals(Thread.currentThread().getName(), second.thread(), "a refusal is never kept");
    }

    @Test
    void aVerdictIsKeptForTheExactTextOnly() {
        SqlGuard guard = SqlGuard.defaults();
        assertTrue(guard.check("SELECT 1").allowed());

        SqlVerdict longer = guard.check("SELECT 1; SELECT pg_sleep(10)");

        assertFalse(longer.allowed());
        assertEquals("Only one statement is allowed; found 2", longer.reason());
    }

    @Test
    void eachGuardJudgesByItsOwnPolicy() {
        SqlGuard everything = SqlGuard.defaults();
        SqlGuard selectOnly = new SqlGuard(EnumSet.of(StatementKind.SELECT));
        String explain = "EXPLAIN SELECT * FROM track";
        assertTrue(everything.check(explain).allowed());
        assertTrue(everything.check(explain).allowed());

        SqlVerdict refused = selectOnly.check(explain);

        assertFalse(refused.allowed());
        assertEquals("EXPLAIN statements are not allowed; only SELECT is", refused.reason());
    }

    @Test
    void aStatementAllowedWithBoundParametersIsStillRefusedWithoutThem() {
        SqlGuard guard = SqlGuard.defaults();
        String withParameter = "SELECT * FROM track WHERE track_id = $1";
        assertTrue(guard.checkWithParameters(withParameter).allowed());

        SqlVerdict plain = guard.check(withParameter);

        assertFalse(plain.allowed());
        assertTrue(plain.reason().startsWith("$1 is a parameter placeholder"), plain.reason());
    }

    private record Checked(SqlVerdict verdict, String thread) {
    }

    private static Checked checkedOffLoop(SqlGuard guard, String sql) {
        return guard.checkOffEventLoop(sql)
                .map(verdict -> new Checked(verdict, Thread.currentThread().getName()))
                .await().atMost(Duration.ofSeconds(5));
    }
}
