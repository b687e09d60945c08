package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.run.SqlErrorOccurred;

/**
 * The safety suite for {@code run_sql}, over REST against the real Chinook database: what must be
 * refused is refused and leaves the database unchanged; legitimate analytical SQL runs.
 */
@QuarkusTest
@ScriptedModel
class RunSqlToolTest {

    /** Collects SQL error events. */
    @Singleton
    static class SqlErrors {
        final List<SqlErrorOccurred> seen = new ArrayList<>();

        void on(@Observes SqlErrorOccurred event) {
            seen.add(event);
        }
    }

    private static ValidatableResponse runSql(String sql) {
        return given().contentType(ContentType.JSON).body(SnakeCaseJson.MAPPER.createObjectNode().put("sql", sql).toString())
                .when().post("/api/tools/run_sql").then();
    }

    private static long count(String sql) {
        return runSql(sql).statusCode(200).extract().jsonPath().getLong("result.rows[0].n");
    }

    @Test
    void columnsThatShareANameAreAllThereInOrderWithTheirTypes() {
        runSql("SELECT ar.name, t.name FROM artist ar JOIN album al USING (artist_id) JOIN track t USING (album_id) "
                + "ORDER BY t.track_id LIMIT 2")
                .statusCode(200)
                .body("result.columns.name", is(List.of("name", "name")))
                .body("result.columns.key", is(List.of("name", "name_2")))
                .body("result.columns.type", is(List.of("character varying", "character varying")))
                .body("result.rows[0].name", is("AC/DC"))
                .body("result.rows[0].name_2", is("For Those About To Rock (We Salute You)"))
                .body("result.rows[1].name", is("Accept"))
                .body("result.rows[1].name_2", is("Balls to the Wall"))
                .body("result.row_count", is(2))
                .body("result.total_rows", is(2))
                .body("result.truncated", is(false));
    }

    @Test
    void everyColumnOfTwoStarsIsKept() {
        String body = runSql("SELECT a.*, al.* FROM artist a JOIN album al USING (artist_id) ORDER BY al.album_id LIMIT 1")
                .statusCode(200).extract().asString();

        assertTrue(body.contains("\"rows\":[{\"artist_id\":1,\"name\":\"AC/DC\",\"album_id\":1,"
                + "\"title\":\"For Those About To Rock We Salute You\",\"artist_id_2\":1}]"), body);
        // A real column named like a generated key keeps its name; the repeat takes the next free one.
        // A column named like the subquery the service wraps a statement in is still a column.
        runSql("SELECT 1 AS q, 2 AS q").statusCode(200).body("result.rows[0].q", is(1)).body("result.rows[0].q_2", is(2));
        runSql("SELECT 1 AS a, 2 AS a, 3 AS a_2").statusCode(200)
                .body("result.columns.key", is(List.of("a", "a_3", "a_2")))
                .body("result.rows[0].a", is(1)).body("result.rows[0].a_3", is(2)).body("result.rows[0].a_2", is(3));
    }

    @Test
    void aTrailingSemicolonAndCommentStillRun() {
        runSql("SELECT count(*) AS n FROM track; -- how many\n").statusCode(200).body("result.rows[0].n", is(3503));
        runSql("SELECT 1 AS n /* one */ ;;").statusCode(200).body("result.rows[0].n", is(1));
    }

    @Test
    void keepsTheContractDescriptionAndParameter() {
        given().when().get("/api/tools/run_sql").then().statusCode(200)
                .body("description", is(
                        "Execute a SQL query against the database. Only SELECT and WITH statements are allowed. Returns query results as JSON."))
                .body("parameters.properties.sql.description",
                        is("The SQL query to execute. Must be a SELECT or WITH statement."))
                .body("parameters.required", is(List.of("sql")));
    }

    @Test
    void answersWithRowsAndCounts() {
        runSql("SELECT name FROM artist ORDER BY artist_id LIMIT 2").statusCode(200)
                .body("result.rows", is(List.of(Map.of("name", "AC/DC"), Map.of("name", "Accept"))))
                .body("result.row_count", is(2))
                .body("result.total_rows", is(2))
                .body("result.truncated", is(false));
    }

    @Test
    void refusesWhatCouldChangeOrEscapeAndTheDatabaseStaysAsItWas() {
        Map<String, String> refused = Map.ofEntries(
                Map.entry("DROP TABLE track", "DROP statements are not allowed"),
                Map.entry("DELETE FROM invoice_line", "DELETE statements are not allowed"),
                Map.entry("UPDATE track SET unit_price = 0", "UPDATE statements are not allowed"),
                Map.entry("INSERT INTO genre VALUES (99, 'x')", "INSERT statements are not allowed"),
                Map.entry("SELECT 1; DROP TABLE track", "Only one statement is allowed"),
                Map.entry("WITH gone AS (DELETE FROM invoice_line RETURNING *) SELECT count(*) FROM gone",
                        "Data-modifying WITH clauses are not allowed"),
                Map.entry("SELECT * INTO stolen FROM customer", "SELECT INTO is not allowed"),
                Map.entry("SELECT * FROM track FOR UPDATE", "Locking clauses"),
                Map.entry("EXPLAIN ANALYZE DELETE FROM track", "EXPLAIN ANALYZE is not allowed"),
                Map.entry("SELECT pg_sleep(10)", "Function pg_sleep is not allowed"),
                Map.entry("SELECT pg_read_file('/etc/passwd')", "Function pg_read_file is not allowed"),
                Map.entry("SELECT set_config('statement_timeout', '0', false)", "Function set_config is not allowed"),
                Map.entry("SELECT pg_terminate_backend(pid) FROM pg_stat_activity",
                        "Function pg_terminate_backend is not allowed"),
                Map.entry("SELECT lo_import('/etc/passwd')", "Function lo_import is not allowed"),
                Map.entry("SET statement_timeout = 0", "SET statements are not allowed"),
                Map.entry("COPY track TO '/tmp/x'", "not allowed"));
        refused.forEach((sql, reason) -> runSql(sql).statusCode(403)
                .body("error", is("blocked"))
                .body("message", containsString(reason)));

        assertEquals(3503, count("SELECT count(*) AS n FROM track"));
        assertEquals(2240, count("SELECT count(*) AS n FROM invoice_line"));
        assertEquals(25, count("SELECT count(*) AS n FROM genre"));
        assertEquals(0, count("SELECT count(*) AS n FROM pg_class WHERE relname = 'stolen'"));
        assertEquals(0, count("SELECT count(*) AS n FROM track WHERE unit_price = 0"));
    }

    @Test
    void textThatOnlyLooksDangerousRuns() {
        runSql("SELECT 'DROP TABLE x' AS s, $$DELETE FROM y;$$ AS d /* UPDATE z */ -- TRUNCATE w\n").statusCode(200)
                .body("result.rows[0].s", is("DROP TABLE x"))
                .body("result.rows[0].d", is("DELETE FROM y;"));
        runSql("SELECT \"name\" AS \"select\" FROM artist WHERE artist_id = 1").statusCode(200)
                .body("result.rows[0].select", is("AC/DC"));
    }

    @Test
    void legitimateAnalyticalQueriesRun() {
        List<String> queries = List.of(
                "SELECT name, row_number() OVER (PARTITION BY genre_id ORDER BY milliseconds DESC) AS rank FROM track LIMIT 5",
                "SELECT count(*) FILTER (WHERE unit_price > 0.99) AS pricey, count(*) AS n FROM track",
                "SELECT DISTINCT ON (genre_id) genre_id, name FROM track ORDER BY genre_id, milliseconds DESC",
                "SELECT a.name, t.title FROM artist a CROSS JOIN LATERAL (SELECT title FROM album WHERE album.artist_id = a.artist_id LIMIT 1) t LIMIT 5",
                "SELECT billing_country, billing_city, sum(total) FROM invoice GROUP BY GROUPING SETS ((billing_country), (billing_country, billing_city)) LIMIT 10",
                "SELECT invoice_date::date AS d, total::numeric(10,1), CAST(invoice_id AS text) FROM invoice LIMIT 3",
                "SELECT jsonb_build_object('name', name) ->> 'name' AS n, '{\"a\":{\"b\":1}}'::jsonb #>> '{a,b}' AS b FROM artist LIMIT 1",
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
                "SELECT relname FROM pg_catalog.pg_class WHERE relkind = 'r' LIMIT 3",
                "WITH RECURSIVE chain(employee_id, reports_to, depth) AS (SELECT employee_id, reports_to, 0 FROM employee WHERE reports_to IS NULL "
                        + "UNION ALL SELECT e.employee_id, e.reports_to, c.depth + 1 FROM employee e JOIN chain c ON e.reports_to = c.employee_id) "
                        + "SELECT max(depth) FROM chain",
                "SELECT ar.name, sum(il.unit_price * il.quantity) AS revenue FROM invoice_line il JOIN track t USING (track_id) "
                        + "JOIN album al USING (album_id) JOIN artist ar USING (artist_id) GROUP BY ar.name ORDER BY revenue DESC LIMIT 5",
                "VALUES (1, 'a'), (2, 'b')",
                "EXPLAIN SELECT * FROM track WHERE genre_id = 1");
        for (String sql : queries) {
            runSql(sql).statusCode(200).body("result.row_count", greaterThan(0));
        }
    }

    @Test
    void sqlErrorsGoBackWithMessageAndPosition() {
        runSql("SELECT nme FROM artist").statusCode(422)
                .body("error", is("tool_failed"))
                .body("message", startsWith("column \"nme\" does not exist (SQLSTATE 42703) at character 8"));
        SqlErrors errors = io.quarkus.arc.Arc.container().instance(SqlErrors.class).get();
        String metrics = given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("sqlagent_sql_errors_total{source=\"default\",sqlstate=\"42703\""), "no SQL error metric");
        assertTrue(errors.seen.stream().anyMatch(e -> e.sqlState().equals("42703") && e.sql().equals("SELECT nme FROM artist")),
                errors.seen.toString());
    }

    @Test
    void credentialAndServerCatalogsStayClosedThoughTheSourceIsASuperuser() {
        // The embedded source connects as the superuser postgres, which could read every one of these.
        runSql("SELECT rolsuper AS s FROM pg_roles WHERE rolname = current_user").statusCode(200)
                .body("result.rows[0].s", is(true));
        Map<String, String> closed = Map.ofEntries(
                Map.entry("SELECT rolname, rolpassword FROM pg_authid",
                        "Table pg_catalog.pg_authid is not available to the agent"),
                Map.entry("SELECT * FROM pg_catalog.\"pg_authid\"", "Table pg_catalog.pg_authid is not available to the agent"),
                Map.entry("WITH r AS (SELECT * FROM PG_CATALOG.PG_SHADOW) SELECT passwd FROM r",
                        "Table pg_catalog.pg_shadow is not available"),
                Map.entry("SELECT umoptions FROM pg_user_mappings", "Table pg_catalog.pg_user_mappings is not available"),
                Map.entry("SELECT * FROM pg_user_mapping", "Table pg_catalog.pg_user_mapping is not available"),
                Map.entry("SELECT * FROM pg_hba_file_rules", "Table pg_catalog.pg_hba_file_rules is not available"),
                Map.entry("SELECT * FROM pg_ident_file_mappings", "Table pg_catalog.pg_ident_file_mappings is not available"),
                Map.entry("SELECT * FROM pg_file_settings", "Table pg_catalog.pg_file_settings is not available"),
                Map.entry("SELECT * FROM pg_hba_file_rules()", "Function pg_hba_file_rules is not allowed"),
                Map.entry("SELECT * FROM pg_ident_file_mappings()", "Function pg_ident_file_mappings is not allowed"),
                Map.entry("SELECT * FROM pg_show_all_file_settings()", "Function pg_show_all_file_settings is not allowed"),
                Map.entry("SELECT pg_read_file('pg_hba.conf')", "Function pg_read_file is not allowed"),
                Map.entry("SELECT name, setting FROM pg_settings", "Table pg_catalog.pg_settings is not available"),
                Map.entry("SELECT current_setting('data_directory')", "Setting data_directory is not available to the agent"));
        closed.forEach((sql, reason) -> {
            String body = runSql(sql).statusCode(403).body("error", is("blocked")).body("message", startsWith(reason))
                    .extract().asString();
            assertTrue(!body.contains("SCRAM-SHA-256") && !body.contains("pgdata"), body);
        });
        runSql("SELECT count(*) AS n FROM pg_roles WHERE rolpassword = '********'").statusCode(200)
                .body("result.rows[0].n", greaterThan(0));
        runSql("SELECT current_setting('TimeZone') IS NOT NULL AS known").statusCode(200)
                .body("result.rows[0].known", is(true));
    }

    @Test
    void aPlaceholderIsRefusedWithAClearMessageAndDollarsInTextRun() {
        runSql("SELECT name FROM artist WHERE artist_id = $1").statusCode(403)
                .body("error", is("blocked"))
                .body("message", is("$1 is a parameter placeholder (at line 1, column 43): write literal values; "
                        + "parameters are not supported here"));
        runSql("SELECT '$1' AS a, $$ $2 $$ AS b, $q$$3$q$ AS c /* $4 */ -- $5\n").statusCode(200)
                .body("result.rows[0].a", is("$1"))
                .body("result.rows[0].b", is(" $2 "))
                .body("result.rows[0].c", is("$3"));
    }

    @Test
    void theOlderNamedArgumentNotationRuns() {
        runSql("SELECT make_interval(years := 1, days := 2)::text AS i, make_interval(months => 3)::text AS j").statusCode(200)
                .body("result.rows[0].i", is("1 year 2 days"))
                .body("result.rows[0].j", is("3 mons"));
    }
}
