package io.sqlagent.sql.guard;

import static io.sqlagent.sql.guard.GuardAssertions.assertAllowed;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;

import org.junit.jupiter.api.Test;

/** The tables and functions a verdict reports: spelled as PostgreSQL resolves them, CTE names left out. */
class SqlGuardReadsTest {

    @Test
    void reportsTablesAndFunctionsOfAJoinQuery() {
        SqlVerdict verdict = assertAllowed("SELECT ar.name, SUM(il.unit_price * il.quantity) AS revenue FROM artist ar "
                + "JOIN album al ON al.artist_id = ar.artist_id JOIN track tr ON tr.album_id = al.album_id "
                + "JOIN invoice_line il ON il.track_id = tr.track_id GROUP BY ar.name ORDER BY revenue DESC LIMIT 5");

        assertEquals(Set.of("artist", "album", "track", "invoice_line"), verdict.tables());
        assertEquals(Set.of("sum"), verdict.functions());
    }

    @Test
    void leavesOutNamesDefinedByWith() {
        SqlVerdict verdict = assertAllowed("WITH recent AS (SELECT * FROM invoice WHERE invoice_date > now() - "
                + "INTERVAL '30 days') SELECT count(*) FROM recent JOIN customer c USING (customer_id)");

        assertEquals(Set.of("invoice", "customer"), verdict.tables());
        assertEquals(Set.of("now", "count"), verdict.functions());
    }

    @Test
    void leavesOutRecursiveCteReferringToItself() {
        SqlVerdict verdict = assertAllowed(
                "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t) SELECT n FROM t LIMIT 10");

        assertEquals(Set.of(), verdict.tables());
    }

    @Test
    void treatsLaterCteNamesAsTablesInEarlierNonRecursiveItems() {
        // Without RECURSIVE a WITH item sees only the items before it, so b inside a is a real table.
        assertEquals(Set.of("b"), assertAllowed("WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a, b")
                .tables());
        assertEquals(Set.of(),
                assertAllowed("WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a, b")
                        .tables());
        assertEquals(Set.of(), assertAllowed("WITH a AS (SELECT 1), b AS (SELECT * FROM a) SELECT * FROM b").tables());
    }

    @Test
    void limitsCteNamesToTheQueryThatDefinesThem() {
        SqlVerdict verdict = assertAllowed("SELECT * FROM (WITH x AS (SELECT 1) SELECT * FROM x) s, x");

        assertEquals(Set.of("x"), verdict.tables());
    }

    @Test
    void keepsSchemaQualifiedNamesEvenWhenACteHasTheSameName() {
        SqlVerdict verdict = assertAllowed("WITH invoice AS (SELECT 1) SELECT * FROM invoice, public.invoice");

        assertEquals(Set.of("public.invoice"), verdict.tables());
    }

    @Test
    void foldsUnquotedNamesAndKeepsQuotedOnes() {
        SqlVerdict verdict = assertAllowed("SELECT * FROM \"My Table\", MyTable, Sales.\"Q1\", pg_catalog.PG_CLASS");

        assertEquals(Set.of("My Table", "mytable", "sales.Q1", "pg_catalog.pg_class"), verdict.tables());
    }

    @Test
    void doesNotCountColumnQualifiersAsTables() {
        SqlVerdict verdict = assertAllowed("SELECT t.name, t.*, album.title FROM track t JOIN album USING (album_id)");

        assertEquals(Set.of("track", "album"), verdict.tables());
        assertEquals(Set.of(), verdict.functions());
    }

    @Test
    void reportsFunctionsLowerCasedWithoutSchema() {
        SqlVerdict verdict = assertAllowed("SELECT pg_catalog.COUNT(*), Upper(name), \"lower\"(name), "
                + "row_number() OVER (ORDER BY name), percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM t");

        assertEquals(Set.of("count", "upper", "lower", "row_number", "percentile_cont"), verdict.functions());
    }

    @Test
    void reportsFunctionsAndTablesInsideJsonOperatorsAndArraySlices() {
        SqlVerdict verdict = assertAllowed("SELECT data -> lower(k), tags[1:length(x)], "
                + "data #>> (SELECT path FROM paths) "
                + "FROM t WHERE id = ANY(ARRAY[1, 2])");

        assertEquals(Set.of("t", "paths"), verdict.tables());
        assertEquals(Set.of("lower", "length"), verdict.functions());
    }

    @Test
    void reportsTableFunctionsAsFunctionsNotTables() {
        SqlVerdict verdict = assertAllowed(
                "SELECT * FROM generate_series(1, 3) g CROSS JOIN LATERAL unnest(ARRAY[1]) u");

        assertEquals(Set.of(), verdict.tables());
        assertEquals(Set.of("generate_series", "unnest"), verdict.functions());
    }

    @Test
    void reportsWhatAnExplainedQueryReads() {
        SqlVerdict verdict = assertAllowed("EXPLAIN (FORMAT JSON) SELECT count(*) FROM album", StatementKind.EXPLAIN);

        assertEquals(Set.of("album"), verdict.tables());
        assertEquals(Set.of("count"), verdict.functions());
    }

    @Test
    void reportsTablesInSubqueriesAndTableStatements() {
        assertEquals(Set.of("artist"), assertAllowed("TABLE artist").tables());
        assertEquals(Set.of("customer", "invoice", "employee"), assertAllowed("SELECT * FROM customer c WHERE EXISTS "
                + "(SELECT 1 FROM invoice i WHERE i.customer_id = c.customer_id) AND support_rep_id IN "
                + "(SELECT employee_id FROM employee)").tables());
    }

    @Test
    void reportsADatabaseQualifiedNameByItsSchemaAndTable() {
        // PostgreSQL takes database.schema.table for the current database only: the table is schema.table.
        assertEquals(Set.of("public.customer", "pg_catalog.pg_class"),
                assertAllowed("SELECT * FROM chinook.public.customer, chinook.pg_catalog.pg_class").tables());
    }
}
