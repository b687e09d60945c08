package io.sqlagent.sql.guard;

import static io.sqlagent.sql.guard.GuardAssertions.assertRefused;

import java.util.EnumSet;

import org.junit.jupiter.api.Test;

/** Statements the guard refuses, with the exact reason the model is given. */
class SqlGuardRefusesTest {

    private static final String ONLY_QUERIES = " statements are not allowed; only SELECT, VALUES and EXPLAIN are";

    @Test
    void refusesEmptyInput() {
        assertRefused("", "No SQL statement was given");
        assertRefused("   \n\t", "No SQL statement was given");
        assertRefused(null, "No SQL statement was given");
        assertRefused("-- just a comment\n/* and another */", "No SQL statement was given");
        assertRefused(";", "No SQL statement was given");
    }

    @Test
    void refusesMoreThanOneStatement() {
        assertRefused("SELECT 1; SELECT 2", "Only one statement is allowed; found 2");
        assertRefused("SELECT 1; DROP TABLE x", "Only one statement is allowed; found 2");
        assertRefused("SELECT 1; SELECT 2; SELECT 3;", "Only one statement is allowed; found 3");
        assertRefused("SELECT 1; VACUUM", "Only one statement is allowed; found 2");
    }

    @Test
    void refusesSecondStatementAfterCommentBetween() {
        assertRefused("SELECT 1; /* harmless */ DROP TABLE x", "Only one statement is allowed; found 2");
        assertRefused("SELECT 1 -- first\n; -- then\nDROP TABLE x", "Only one statement is allowed; found 2");
    }

    @Test
    void refusesSecondStatementHiddenAfterCommentAndStringWithSemicolon() {
        assertRefused("SELECT 'a;b' /* ; */ ; DELETE FROM t -- ;", "Only one statement is allowed; found 2");
        assertRefused("SELECT $$;$$, ';' -- x;\n; UPDATE t SET a = 1", "Only one statement is allowed; found 2");
    }

    @Test
    void refusesDataModifyingStatements() {
        assertRefused("INSERT INTO t VALUES (1)", "INSERT" + ONLY_QUERIES);
        assertRefused("UPDATE t SET a = 1", "UPDATE" + ONLY_QUERIES);
        assertRefused("DELETE FROM t", "DELETE" + ONLY_QUERIES);
        assertRefused("MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", "MERGE" + ONLY_QUERIES);
        assertRefused("UPSERT INTO t VALUES (1)", "UPSERT" + ONLY_QUERIES);
        assertRefused("WITH x AS (SELECT 1) DELETE FROM t", "DELETE" + ONLY_QUERIES);
        assertRefused("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", "INSERT" + ONLY_QUERIES);
    }

    @Test
    void refusesSchemaAndPermissionChanges() {
        assertRefused("CREATE TABLE t (a int)", "CREATE" + ONLY_QUERIES);
        assertRefused("ALTER TABLE t ADD COLUMN b int", "ALTER" + ONLY_QUERIES);
        assertRefused("DROP TABLE t", "DROP" + ONLY_QUERIES);
        assertRefused("TRUNCATE t", "TRUNCATE" + ONLY_QUERIES);
        assertRefused("COMMENT ON TABLE t IS 'x'", "COMMENT" + ONLY_QUERIES);
        assertRefused("GRANT SELECT ON t TO bob", "GRANT" + ONLY_QUERIES);
        assertRefused("REVOKE SELECT ON t FROM bob", "REVOKE" + ONLY_QUERIES);
        assertRefused("REFRESH MATERIALIZED VIEW v", "REFRESH MATERIALIZED VIEW" + ONLY_QUERIES);
    }

    @Test
    void refusesSessionAndTransactionControl() {
        assertRefused("SET search_path = evil", "SET" + ONLY_QUERIES);
        assertRefused("RESET ALL", "RESET" + ONLY_QUERIES);
        assertRefused("SHOW search_path", "SHOW" + ONLY_QUERIES);
        assertRefused("BEGIN", "BEGIN" + ONLY_QUERIES);
        assertRefused("START TRANSACTION READ WRITE", "START TRANSACTION" + ONLY_QUERIES);
        assertRefused("COMMIT", "COMMIT" + ONLY_QUERIES);
        assertRefused("ROLLBACK", "ROLLBACK" + ONLY_QUERIES);
        assertRefused("SAVEPOINT s", "SAVEPOINT" + ONLY_QUERIES);
        assertRefused("DISCARD ALL", "DISCARD" + ONLY_QUERIES);
    }

    @Test
    void refusesMaintenanceAndServerCommands() {
        assertRefused("COPY t TO '/tmp/x'", "COPY" + ONLY_QUERIES);
        assertRefused("LOCK TABLE t", "LOCK" + ONLY_QUERIES);
        assertRefused("VACUUM t", "VACUUM" + ONLY_QUERIES);
        assertRefused("ANALYZE t", "ANALYZE" + ONLY_QUERIES);
        assertRefused("CHECKPOINT", "CHECKPOINT" + ONLY_QUERIES);
        assertRefused("LISTEN ch", "LISTEN" + ONLY_QUERIES);
        assertRefused("NOTIFY ch", "NOTIFY" + ONLY_QUERIES);
        assertRefused("UNLISTEN *", "UNLISTEN" + ONLY_QUERIES);
    }

    @Test
    void refusesProceduralCommands() {
        assertRefused("CALL p()", "CALL" + ONLY_QUERIES);
        assertRefused("DO $$ BEGIN PERFORM 1; END $$", "DO" + ONLY_QUERIES);
        assertRefused("PREPARE q AS SELECT 1", "PREPARE" + ONLY_QUERIES);
        assertRefused("EXECUTE q", "EXECUTE" + ONLY_QUERIES);
        assertRefused("DEALLOCATE q", "DEALLOCATE" + ONLY_QUERIES);
    }

    @Test
    void refusesKindsLeftOutOfTheConfiguration() {
        SqlGuard selectOnly = new SqlGuard(EnumSet.of(StatementKind.SELECT));
        assertRefused(selectOnly, "VALUES (1)", "VALUES statements are not allowed; only SELECT is");
        assertRefused(selectOnly, "EXPLAIN SELECT 1", "EXPLAIN statements are not allowed; only SELECT is");
        assertRefused(selectOnly, "DELETE FROM t", "DELETE statements are not allowed; only SELECT is");
        SqlGuard noExplain = new SqlGuard(EnumSet.of(StatementKind.SELECT, StatementKind.VALUES));
        assertRefused(noExplain, "EXPLAIN SELECT 1", "EXPLAIN statements are not allowed; only SELECT and VALUES are");
    }

    @Test
    void refusesDataModifyingCte() {
        assertRefused("WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
                "Data-modifying WITH clauses are not allowed (DELETE inside WITH)");
        assertRefused("WITH i AS (INSERT INTO t VALUES (1) RETURNING id) SELECT id FROM i",
                "Data-modifying WITH clauses are not allowed (INSERT inside WITH)");
        assertRefused("WITH a AS (SELECT 1), u AS (UPDATE t SET a = 1 RETURNING a) SELECT * FROM a, u",
                "Data-modifying WITH clauses are not allowed (UPDATE inside WITH)");
    }

    @Test
    void refusesDataModifyingCteNestedInSubquery() {
        assertRefused("SELECT * FROM (WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d) s",
                "Data-modifying WITH clauses are not allowed (DELETE inside WITH)");
        assertRefused("SELECT 1 WHERE EXISTS (WITH d AS (DELETE FROM t RETURNING 1) SELECT * FROM d)",
                "Data-modifying WITH clauses are not allowed (DELETE inside WITH)");
    }

    @Test
    void refusesSelectInto() {
        assertRefused("SELECT * INTO new_table FROM t", "SELECT INTO is not allowed; it creates a table");
        assertRefused("SELECT a, b INTO new_table FROM t WHERE a > 1",
                "SELECT INTO is not allowed; it creates a table");
        assertRefused("SELECT * FROM (SELECT 1) s UNION SELECT 2 INTO x",
                "SELECT INTO is not allowed; it creates a table");
    }

    @Test
    void refusesSelectIntoTempAsUnparseable() {
        // JSqlParser does not know INTO TEMP; refused all the same, with the parser's position.
        assertRefused("SELECT a INTO TEMP t2 FROM t",
                "The SQL could not be parsed: unexpected \"t2\" at line 1, column 20");
    }

    @Test
    void refusesLockingClauses() {
        assertRefused("SELECT * FROM t FOR UPDATE", "Locking clauses (FOR UPDATE) are not allowed");
        assertRefused("SELECT * FROM t FOR NO KEY UPDATE", "Locking clauses (FOR NO KEY UPDATE) are not allowed");
        assertRefused("SELECT * FROM t FOR SHARE", "Locking clauses (FOR SHARE) are not allowed");
        assertRefused("SELECT * FROM t FOR KEY SHARE", "Locking clauses (FOR KEY SHARE) are not allowed");
        assertRefused("SELECT * FROM t FOR UPDATE OF t NOWAIT", "Locking clauses (FOR UPDATE) are not allowed");
        assertRefused("SELECT * FROM t FOR SHARE SKIP LOCKED", "Locking clauses (FOR SHARE) are not allowed");
    }

    @Test
    void refusesLockingClauseInSubquery() {
        assertRefused("SELECT * FROM (SELECT * FROM t FOR UPDATE) s", "Locking clauses (FOR UPDATE) are not allowed");
        assertRefused("WITH x AS (SELECT * FROM t FOR SHARE) SELECT * FROM x",
                "Locking clauses (FOR SHARE) are not allowed");
    }

    @Test
    void refusesExplainAnalyzeInEverySpelling() {
        String reason = "EXPLAIN ANALYZE is not allowed because it executes the statement; use plain EXPLAIN";
        assertRefused("EXPLAIN ANALYZE SELECT 1", reason);
        assertRefused("EXPLAIN ANALYSE SELECT 1", reason);
        assertRefused("explain analyze verbose SELECT 1", reason);
        assertRefused("EXPLAIN (ANALYZE) SELECT 1", reason);
        assertRefused("EXPLAIN (ANALYZE true, BUFFERS) SELECT 1", reason);
        assertRefused("EXPLAIN (FORMAT JSON, analyse on) SELECT 1", reason);
        assertRefused("EXPLAIN (ANALYZE 1) SELECT 1", reason);
        assertRefused("EXPLAIN (ANALYZE 'yes') SELECT 1", reason);
        assertRefused("EXPLAIN /* x */ ANALYZE SELECT 1", reason);
    }

    @Test
    void refusesExplainOfAStatementThatIsNotAQuery() {
        assertRefused("EXPLAIN DELETE FROM t", "Only SELECT and VALUES statements can be explained; found DELETE");
        assertRefused("EXPLAIN (COSTS off) INSERT INTO t VALUES (1)",
                "Only SELECT and VALUES statements can be explained; found INSERT");
        assertRefused("EXPLAIN WITH x AS (SELECT 1) UPDATE t SET a = 1",
                "Only SELECT and VALUES statements can be explained; found UPDATE");
        assertRefused("EXPLAIN EXPLAIN SELECT 1", "Only SELECT and VALUES statements can be explained; found EXPLAIN");
    }

    @Test
    void refusesExplainedQueryThatFailsTheSameChecks() {
        assertRefused("EXPLAIN SELECT pg_sleep(10)", "Function pg_sleep is not allowed: it sleeps");
        assertRefused("EXPLAIN SELECT * FROM t FOR UPDATE", "Locking clauses (FOR UPDATE) are not allowed");
        assertRefused("EXPLAIN WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
                "Data-modifying WITH clauses are not allowed (DELETE inside WITH)");
        assertRefused("EXPLAIN SELECT 1; DELETE FROM t", "Only one statement is allowed; found 2");
    }

    @Test
    void refusesExplainWithoutStatement() {
        assertRefused("EXPLAIN", "The SQL could not be parsed: EXPLAIN needs a statement to explain");
        assertRefused("EXPLAIN (COSTS off", "The SQL could not be parsed: unclosed '(' at line 1, column 9");
    }
}
