package io.sqlagent.sql.guard;

import static io.sqlagent.sql.guard.GuardAssertions.GUARD;
import static io.sqlagent.sql.guard.GuardAssertions.assertAllowed;
import static io.sqlagent.sql.guard.GuardAssertions.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * SQL sent to run is run without parameters, so a placeholder is refused with a reason; only a
 * caller that binds them (a declared tool) may use them. The older named-argument notation
 * {@code :=} is PostgreSQL's too, and parses.
 */
class SqlGuardParametersTest {

    @Test
    void refusesAPlaceholderWithWhereItIs() {
        assertRefused("SELECT * FROM customer WHERE customer_id = $1",
                "$1 is a parameter placeholder (at line 1, column 44): write literal values; parameters are not supported here");
        assertRefused("SELECT 1\nFROM t LIMIT $12",
                "$12 is a parameter placeholder (at line 2, column 14): write literal values; parameters are not supported here");
        assertRefused("EXPLAIN SELECT * FROM t WHERE a = $2",
                "$2 is a parameter placeholder (at line 1, column 35): write literal values; parameters are not supported here");
    }

    @Test
    void allowsDollarsInStringsDollarQuotesCommentsAndNames() {
        assertAllowed("SELECT '$1', E'$1', $$ $1 $$, $q$ $1 $q$, \"col$1\" FROM t /* $1 */ -- $1");
        assertAllowed("SELECT a$1 FROM t");
    }

    @Test
    void allowsPlaceholdersWhereTheCallerBindsThem() {
        SqlVerdict verdict = GUARD.checkWithParameters("SELECT * FROM track WHERE album_id = $1 LIMIT $2");
        assertTrue(verdict.allowed(), verdict.reason());
        assertEquals(Set.of("track"), verdict.tables());
        assertEquals("Function pg_sleep is not allowed: it sleeps", GUARD.checkWithParameters("SELECT pg_sleep($1)").reason());
    }

    @Test
    void parsesTheOlderNamedArgumentNotation() {
        assertEquals(Set.of("make_interval"), assertAllowed("SELECT make_interval(years := 1, months:=2)").functions());
        assertAllowed("SELECT make_interval(years => 1) + make_interval(days := 3)");
        assertAllowed("EXPLAIN (COSTS OFF) SELECT make_interval(years := 1)", StatementKind.EXPLAIN);
        assertRefused("SELECT pg_sleep(secs := 1)", "Function pg_sleep is not allowed: it sleeps");
    }
}
