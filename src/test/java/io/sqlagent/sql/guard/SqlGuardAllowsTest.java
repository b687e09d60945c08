package io.sqlagent.sql.guard;

import static io.sqlagent.sql.guard.GuardAssertions.assertAllowed;

import org.junit.jupiter.api.Test;

/** Legitimate analytical PostgreSQL that the guard must never refuse. */
class SqlGuardAllowsTest {

    @Test
    void allowsWindowFunctionsAndNamedWindows() {
        assertAllowed("SELECT a, row_number() OVER (PARTITION BY a ORDER BY b) FROM t");
        assertAllowed("SELECT a, sum(b) OVER w, lag(b, 1) OVER (ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING "
                + "AND CURRENT ROW) FROM t WINDOW w AS (PARTITION BY a ORDER BY b)");
    }

    @Test
    void allowsAggregateFilterAndOrderedSetAggregates() {
        assertAllowed("SELECT count(*) FILTER (WHERE x > 1) FROM t");
        assertAllowed("SELECT string_agg(x, ', ' ORDER BY x) FROM t");
        assertAllowed("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM t");
        assertAllowed("SELECT count(DISTINCT a), array_agg(DISTINCT a ORDER BY a) FROM t");
    }

    @Test
    void allowsDistinctOn() {
        assertAllowed("SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b DESC");
    }

    @Test
    void allowsLateralJoins() {
        assertAllowed("SELECT * FROM t CROSS JOIN LATERAL (SELECT * FROM u WHERE u.id = t.id LIMIT 1) s");
        assertAllowed("SELECT * FROM t LEFT JOIN LATERAL (SELECT * FROM u WHERE u.id = t.id) s ON true");
    }

    @Test
    void allowsGroupingSetsRollupAndCube() {
        assertAllowed("SELECT a, b, sum(c) FROM t GROUP BY GROUPING SETS ((a), (b), ())");
        assertAllowed("SELECT a, b, sum(c) FROM t GROUP BY ROLLUP (a, b)");
        assertAllowed("SELECT a, b, sum(c) FROM t GROUP BY CUBE (a, b)");
    }

    @Test
    void allowsCasts() {
        assertAllowed("SELECT x::numeric(10,2), CAST(x AS date), '2024-01-01'::date FROM t");
    }

    @Test
    void allowsJsonOperatorsAndFunctions() {
        assertAllowed("SELECT data -> 'a', data ->> 'b', data #> '{a,b}', data #>> '{a,b}' FROM t "
                + "WHERE data @> '{\"a\":1}' AND data ? 'k'");
        assertAllowed("SELECT jsonb_build_object('a', 1, 'b', ARRAY[1,2])");
    }

    @Test
    void allowsArrays() {
        assertAllowed("SELECT ARRAY[1,2], 1 = ANY(ARRAY[1,2]), unnest(ARRAY[1,2])");
        assertAllowed("SELECT * FROM t WHERE id = ANY('{1,2}'::int[]) AND tags[1] = 'x'");
    }

    @Test
    void allowsGenerateSeriesInFrom() {
        assertAllowed("SELECT n FROM generate_series(1, 10) AS g(n)");
        assertAllowed("SELECT d FROM generate_series('2024-01-01'::date, '2024-12-01'::date, INTERVAL '1 month') d");
    }

    @Test
    void allowsCatalogQueries() {
        assertAllowed("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
        assertAllowed("SELECT relname FROM pg_catalog.pg_class");
    }

    @Test
    void allowsRecursiveCte() {
        assertAllowed("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t) SELECT n FROM t LIMIT 10");
    }

    @Test
    void allowsValuesAsItsOwnKind() {
        assertAllowed("VALUES (1,'a'),(2,'b')", StatementKind.VALUES);
        assertAllowed("SELECT * FROM (VALUES (1,'a'),(2,'b')) AS v(id, name)");
    }

    @Test
    void allowsTableStatement() {
        assertAllowed("TABLE artist");
    }

    @Test
    void allowsKeywordsInsideStringLiterals() {
        assertAllowed("SELECT 'DROP TABLE x'");
        assertAllowed("SELECT 'a; DELETE FROM t; SELECT pg_sleep(10)' AS s");
        assertAllowed("SELECT 'it''s; DROP TABLE x'");
    }

    @Test
    void allowsQuotedIdentifiers() {
        assertAllowed("SELECT \"Order\", \"select\" FROM \"My Table\"");
        assertAllowed("SELECT 1 AS \"x\"\"y\"");
    }

    @Test
    void allowsDollarQuotedStrings() {
        assertAllowed("SELECT $$a;b$$");
        assertAllowed("SELECT $tag$DROP TABLE x$tag$");
        assertAllowed("SELECT $q$it's; DELETE FROM t$q$, $$multi\nline$$");
    }

    @Test
    void allowsEscapeStrings() {
        assertAllowed("SELECT E'a\\nb', E'it\\'s; DROP TABLE x'");
    }

    @Test
    void allowsCommentsAroundTheQuery() {
        assertAllowed("-- DROP TABLE x\nSELECT 1");
        assertAllowed("/* DELETE FROM y */ SELECT 1 /* ; */");
        assertAllowed("SELECT 1 -- ; DROP TABLE x");
        assertAllowed("SELECT /* a; b */ 1 /* nested /* DROP TABLE x; */ still comment */ + 1");
    }

    @Test
    void allowsTrailingSemicolons() {
        assertAllowed("SELECT 1;");
        assertAllowed("SELECT 1;  -- done\n");
        assertAllowed("SELECT 1;;");
    }

    @Test
    void allowsPatternMatching() {
        assertAllowed("SELECT name FROM t WHERE name ILIKE '%a%' AND name SIMILAR TO '%(b|c)%' "
                + "AND name ~* '^x' AND name !~ 'y' AND name ~ '\\d+'");
    }

    @Test
    void allowsConditionalExpressions() {
        assertAllowed("SELECT COALESCE(a, 0), NULLIF(b, 0), CASE WHEN a > 1 THEN 'x' ELSE 'y' END, "
                + "greatest(a, b) FROM t");
    }

    @Test
    void allowsDatesAndIntervals() {
        assertAllowed("SELECT EXTRACT(YEAR FROM d), date_trunc('month', d), INTERVAL '1 day', "
                + "NOW() - INTERVAL '7 days', DATE '2024-01-01' + 1, now() AT TIME ZONE 'UTC' FROM t");
    }

    @Test
    void allowsLimitOffsetAndFetch() {
        assertAllowed("SELECT * FROM t ORDER BY a FETCH FIRST 5 ROWS ONLY");
        assertAllowed("SELECT * FROM t ORDER BY a LIMIT 5 OFFSET 10");
        assertAllowed("SELECT * FROM t ORDER BY a OFFSET 5 ROWS FETCH NEXT 5 ROWS ONLY");
    }

    @Test
    void allowsSetOperations() {
        assertAllowed("SELECT a FROM t UNION SELECT a FROM u INTERSECT SELECT a FROM v EXCEPT SELECT a FROM w");
        assertAllowed("(SELECT 1) UNION ALL (SELECT 2)");
    }

    @Test
    void allowsSubqueries() {
        assertAllowed("SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.id = t.id)");
        assertAllowed("SELECT (SELECT max(b) FROM u) AS m FROM t WHERE a IN (SELECT a FROM u)");
    }

    @Test
    void allowsIsDistinctFrom() {
        assertAllowed("SELECT * FROM t WHERE a IS DISTINCT FROM b AND c IS NOT DISTINCT FROM d");
    }

    @Test
    void allowsPlainExplainWithOptions() {
        assertAllowed("EXPLAIN SELECT * FROM t", StatementKind.EXPLAIN);
        assertAllowed("EXPLAIN VERBOSE SELECT * FROM t", StatementKind.EXPLAIN);
        assertAllowed("EXPLAIN (COSTS false, FORMAT JSON) SELECT * FROM t", StatementKind.EXPLAIN);
        assertAllowed("explain (verbose, costs off, analyze false) WITH x AS (SELECT 1) SELECT * FROM x",
                StatementKind.EXPLAIN);
        assertAllowed("EXPLAIN VALUES (1)", StatementKind.EXPLAIN);
    }

    @Test
    void allowsTopArtistsByRevenueOnChinook() {
        assertAllowed("""
                SELECT ar.name AS artist, SUM(il.unit_price * il.quantity) AS revenue
                FROM artist ar
                JOIN album al ON al.artist_id = ar.artist_id
                JOIN track tr ON tr.album_id = al.album_id
                JOIN invoice_line il ON il.track_id = tr.track_id
                GROUP BY ar.name
                ORDER BY revenue DESC
                LIMIT 5;
                """);
    }

    @Test
    void allowsOtherChinookQueries() {
        assertAllowed("SELECT c.billing_country, count(*), round(sum(i.total)::numeric, 2) FROM invoice i "
                + "JOIN customer c ON c.customer_id = i.customer_id WHERE i.invoice_date >= DATE '2021-01-01' "
                + "GROUP BY 1 ORDER BY 3 DESC");
        assertAllowed("SELECT e.first_name || ' ' || e.last_name AS rep, count(c.customer_id) FROM employee e "
                + "LEFT JOIN customer c ON c.support_rep_id = e.employee_id GROUP BY rep HAVING count(*) > 0");
        assertAllowed("SELECT g.name, m.name, avg(t.milliseconds) / 60000.0 FROM genre g JOIN track t USING (genre_id) "
                + "JOIN media_type m ON m.media_type_id = t.media_type_id GROUP BY g.name, m.name");
        assertAllowed("SELECT p.name, count(*) FROM playlist p "
                + "JOIN playlist_track pt ON pt.playlist_id = p.playlist_id "
                + "GROUP BY p.name ORDER BY 2 DESC");
        assertAllowed("SELECT to_char(invoice_date, 'YYYY-MM') AS month, sum(total) FROM invoice "
                + "WHERE billing_country ILIKE 'usa' GROUP BY month ORDER BY month");
    }

    @Test
    void allowsDeeplyParenthesisedArithmetic() {
        assertAllowed("SELECT round(((a + b) * (c - d)) / nullif(e, 0), 2), ((((1)))) FROM t");
    }

    @Test
    void allowsReadOnlySequenceAndSettingFunctions() {
        assertAllowed("SELECT currval('s'), current_setting('search_path'), version()");
    }
}
