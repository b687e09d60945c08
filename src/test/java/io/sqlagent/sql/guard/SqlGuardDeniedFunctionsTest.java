package io.sqlagent.sql.guard;

import static io.sqlagent.sql.guard.GuardAssertions.assertAllowed;
import static io.sqlagent.sql.guard.GuardAssertions.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Denied functions are refused wherever they are called and however their name is spelled. */
class SqlGuardDeniedFunctionsTest {

    private static final String SLEEPS = "Function pg_sleep is not allowed: it sleeps";
    private static final String RUNS_QUERY_TEXT = "it can run a query given as text, or read a table named in a string, "
            + "past the table and column checks; write the query itself";
    private static final String LARGE_OBJECTS = " is not allowed: it reads or writes large objects, "
            + "which can touch the server's files";

    @Test
    void refusesDeniedFunctionInSelectList() {
        assertRefused("SELECT pg_sleep(10)", SLEEPS);
    }

    @Test
    void refusesDeniedFunctionWithSchemaQuotesOrCapitals() {
        assertRefused("SELECT pg_catalog.pg_sleep(1)", SLEEPS);
        assertRefused("SELECT \"pg_sleep\"(1)", SLEEPS);
        assertRefused("SELECT pg_catalog.\"pg_sleep\"(1)", SLEEPS);
        assertRefused("SELECT PG_SLEEP(1)", SLEEPS);
    }

    @Test
    void refusesDeniedFunctionInWhereOrderByAndGroupBy() {
        assertRefused("SELECT * FROM t WHERE pg_sleep(1) IS NOT NULL", SLEEPS);
        assertRefused("SELECT * FROM t ORDER BY pg_sleep(1)", SLEEPS);
        assertRefused("SELECT a FROM t GROUP BY a HAVING count(pg_sleep(1)) > 0", SLEEPS);
        assertRefused("SELECT * FROM t JOIN u ON u.id = t.id AND pg_sleep(1) IS NULL", SLEEPS);
    }

    @Test
    void refusesDeniedFunctionAsTableFunction() {
        assertRefused("SELECT * FROM pg_sleep(1)", SLEEPS);
        assertRefused("SELECT * FROM pg_ls_dir('.') AS f(name)",
                "Function pg_ls_dir is not allowed: it reads the server's files");
    }

    @Test
    void refusesDeniedFunctionInsideCte() {
        assertRefused("WITH x AS (SELECT pg_read_file('/etc/passwd') AS f) SELECT * FROM x",
                "Function pg_read_file is not allowed: it reads the server's files");
    }

    @Test
    void refusesDeniedFunctionInLateralSubquery() {
        assertRefused("SELECT * FROM t CROSS JOIN LATERAL (SELECT pg_sleep(t.a)) s", SLEEPS);
    }

    @Test
    void refusesDeniedFunctionNestedInCastsAndCalls() {
        assertRefused("SELECT CAST(pg_sleep(1) AS text)", SLEEPS);
        assertRefused("SELECT coalesce(pg_sleep(1)::text, 'x')", SLEEPS);
        assertRefused("SELECT length(upper(lo_import('/etc/passwd')::text))",
                "Function lo_import" + LARGE_OBJECTS);
    }

    @Test
    void refusesDeniedFunctionInWindowFilterAndCase() {
        assertRefused("SELECT count(*) FILTER (WHERE pg_sleep(1) IS NULL) FROM t", SLEEPS);
        assertRefused("SELECT row_number() OVER (ORDER BY pg_sleep(1)) FROM t", SLEEPS);
        assertRefused("SELECT CASE WHEN a > 0 THEN pg_sleep(1) END FROM t", SLEEPS);
    }

    @Test
    void refusesDeniedFunctionInExistsAndInSubqueries() {
        assertRefused("SELECT 1 WHERE EXISTS (SELECT pg_terminate_backend(pid) FROM pg_stat_activity)",
                "Function pg_terminate_backend is not allowed: it signals other sessions or administers the server");
        assertRefused("SELECT 1 WHERE 1 IN (SELECT 1 FROM t UNION SELECT set_config('a.b', 'c', false)::int)",
                "Function set_config is not allowed: it changes settings");
    }

    @Test
    void refusesEachDeniedFamilyWithItsReason() {
        assertRefused("SELECT pg_sleep_for('1 minute')", "Function pg_sleep_for is not allowed: it sleeps");
        assertRefused("SELECT pg_stat_file('x')", "Function pg_stat_file is not allowed: it reads the server's files");
        assertRefused("SELECT pg_read_binary_file('x')",
                "Function pg_read_binary_file is not allowed: it reads the server's files");
        assertRefused("SELECT pg_file_write('x', 'y', false)",
                "Function pg_file_write is not allowed: it reads or writes the server's files");
        assertRefused("SELECT loread(0, 1)",
                "Function loread" + LARGE_OBJECTS);
        assertRefused("SELECT lo_from_bytea(0, 'x')",
                "Function lo_from_bytea" + LARGE_OBJECTS);
        assertRefused("SELECT pg_reload_conf()",
                "Function pg_reload_conf is not allowed: it signals other sessions or administers the server");
        assertRefused("SELECT pg_stat_reset()", "Function pg_stat_reset is not allowed: it resets statistics");
        assertRefused("SELECT pg_create_logical_replication_slot('s', 'p')",
                "Function pg_create_logical_replication_slot is not allowed: "
                        + "it manages replication or logical decoding");
        assertRefused("SELECT pg_advisory_lock(1)",
                "Function pg_advisory_lock is not allowed: it takes advisory locks");
        assertRefused("SELECT pg_try_advisory_xact_lock(1)",
                "Function pg_try_advisory_xact_lock is not allowed: it takes advisory locks");
        assertRefused("SELECT pg_notify('c', 'x')", "Function pg_notify is not allowed: it sends notifications");
        assertRefused("SELECT nextval('s')", "Function nextval is not allowed: it changes a sequence");
        assertRefused("SELECT setval('s', 1)", "Function setval is not allowed: it changes a sequence");
        assertRefused("SELECT * FROM dblink('host=x', 'DELETE FROM t') AS r(a int)",
                "Function dblink is not allowed: it connects to other databases");
        assertRefused("SELECT query_to_xml('DELETE FROM t RETURNING *', true, false, '')",
                "Function query_to_xml is not allowed: " + RUNS_QUERY_TEXT);
        assertRefused("SELECT database_to_xml_and_xmlschema(true, false, '')",
                "Function database_to_xml_and_xmlschema is not allowed: " + RUNS_QUERY_TEXT);
        assertRefused("SELECT txid_current()", "Function txid_current is not allowed: it assigns a transaction id");
    }

    @Test
    void refusesConfiguredExtraFunctions() {
        SqlGuard guard = new SqlGuard(EnumSet.allOf(StatementKind.class), 1000, List.of("My_Func", "audit_*"),
                Duration.ofSeconds(2));
        assertRefused(guard, "SELECT my_func(1)", "Function my_func is not allowed: it is denied by configuration");
        assertRefused(guard, "SELECT public.audit_write('x')",
                "Function audit_write is not allowed: it is denied by configuration");
        assertTrue(guard.check("SELECT other_func(1)").allowed());
    }

    @Test
    void allowsFunctionsThatOnlyLookLikeDeniedOnes() {
        assertAllowed("SELECT lower('X'), log(2, 8), currval('s'), pg_sleep_x, txid_current_if_assigned() FROM t");
        assertAllowed("SELECT 'pg_sleep(1)', $$lo_import('x')$$ /* pg_sleep(2) */");
    }

    @Test
    void keepsWhatTheStatementReadsWhenRefusingAFunction() {
        SqlVerdict verdict = assertRefused("SELECT pg_sleep(1), a FROM t", SLEEPS);
        assertEquals(Optional.of(StatementKind.SELECT), verdict.kind());
        assertEquals(Set.of("t"), verdict.tables());
        assertEquals(Set.of("pg_sleep"), verdict.functions());
    }

    @Test
    void matchesFamiliesByExactNamePrefixAndSuffix() {
        DeniedFunctions denied = DeniedFunctions.builtIn();
        assertEquals(Optional.of("it sleeps"), denied.reasonFor("PG_SLEEP_UNTIL"));
        assertEquals(Optional.of(RUNS_QUERY_TEXT),
                denied.reasonFor("cursor_to_xmlschema"));
        assertEquals(Optional.of("it manages replication or logical decoding"),
                denied.reasonFor("pg_replication_origin_create"));
        assertEquals(Optional.of("it signals other sessions or administers the server"),
                denied.reasonFor("pg_create_restore_point"));
        assertEquals(Optional.empty(), denied.reasonFor("pg_sleeping"));
        assertEquals(Optional.empty(), denied.reasonFor("xml_to_table"));
        assertEquals(Optional.empty(), denied.reasonFor("currval"));
    }

    @Test
    void refusesFunctionsThatRunQueryTextOrReadARelationByName() {
        assertRefused("SELECT * FROM ts_stat('SELECT to_tsvector(''simple'', email) FROM customer')",
                "Function ts_stat is not allowed: " + RUNS_QUERY_TEXT);
        assertRefused("SELECT ts_rewrite('a'::tsquery, 'SELECT t, s FROM aliases')",
                "Function ts_rewrite is not allowed: " + RUNS_QUERY_TEXT);
        assertRefused("SELECT pg_catalog.\"ts_stat\"($q$SELECT to_tsvector(email) FROM customer$q$)",
                "Function ts_stat is not allowed: " + RUNS_QUERY_TEXT);
        for (String call : List.of("query_to_xmlschema('SELECT 1', true, false, '')",
                "query_to_xml_and_xmlschema('SELECT 1', true, false, '')", "cursor_to_xml('c', 1, true, false, '')",
                "table_to_xml('customer', true, false, '')", "table_to_xmlschema('customer', true, false, '')",
                "schema_to_xml('public', true, false, '')", "database_to_xml(true, false, '')",
                "crosstab('SELECT 1')", "connectby('customer', 'a', 'b', '1', 0)",
                "xpath_table('id', 'doc', 'customer', '/a', 'true')")) {
            String name = call.substring(0, call.indexOf('('));
            assertRefused("SELECT * FROM " + call, "Function " + name + " is not allowed: " + RUNS_QUERY_TEXT);
        }
        assertRefused("SELECT encode(get_raw_page('customer', 0), 'hex')",
                "Function get_raw_page is not allowed: it reads table pages or the write-ahead log raw, past the table "
                        + "and column checks");
        assertRefused("SELECT * FROM pg_get_wal_block_info('0/0', '0/1')",
                "Function pg_get_wal_block_info is not allowed: it reads table pages or the write-ahead log raw, past "
                        + "the table and column checks");
        assertRefused("SELECT pg_sequence_last_value('invoice_invoice_id_seq')",
                "Function pg_sequence_last_value is not allowed: it reads a sequence by name, past the table policy; "
                        + "select last_value from the sequence instead");
        assertRefused("SELECT * FROM pg_show_all_settings()",
                "Function pg_show_all_settings is not allowed: it lists every server setting, and some hold passwords "
                        + "(primary_conninfo); read one setting with current_setting('name')");
    }

    @Test
    void allowsMetadataFunctionsThatTakeARelationByName() {
        assertAllowed("SELECT pg_relation_size('customer'), pg_total_relation_size('customer'::regclass), "
                + "to_regclass('customer'), has_table_privilege('customer', 'SELECT'), pg_get_viewdef('v'), "
                + "pg_get_indexdef(1), obj_description('customer'::regclass), ts_headline('a b', 'a'::tsquery), "
                + "to_tsvector('simple', 'x'), xpath('/a', '<a/>'::xml), current_setting('TimeZone')");
    }
}
