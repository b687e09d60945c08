package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.containsStringIgnoringCase;
import static org.hamcrest.Matchers.is;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.sqlagent.sql.source.ExternalPostgresResource;

/**
 * One PostgreSQL and one MariaDB source configured together ({@link ExternalPostgresResource}): {@code run_sql} with
 * {@code source} runs each statement on its engine, checked in that engine's dialect, in its read-only transaction,
 * with that engine's errors; readiness names both servers. Skipped where MariaDB cannot be had (failed under CI).
 */
@QuarkusTest
@WithTestResource(ExternalPostgresResource.class)
class TwoEnginesTest {

    @BeforeEach
    void needsMariaDb() {
        Assumptions.assumeTrue(MariaDbServer.available(), "mariadbd not installed: MariaDB tests skipped");
    }

    private static ValidatableResponse runSql(String sql, String source) {
        return given().contentType(ContentType.JSON)
                .body(SnakeCaseJson.MAPPER.valueToTree(Map.of("sql", sql, "source", source)).toString())
                .when().post("/api/tools/run_sql").then();
    }

    @Test
    void eachSourceAnswersFromItsOwnServer() {
        runSql("SELECT count(*) AS n, current_setting('server_version') IS NOT NULL AS pg FROM track", "default")
                .statusCode(200).body("result.rows[0].n", is(7)).body("result.rows[0].pg", is(true));
        runSql("SELECT `name`, price FROM gadget WHERE price > 20 ORDER BY id", "gadgets")
                .statusCode(200)
                .body("result.columns.name", is(List.of("name", "price")))
                .body("result.rows.name", is(List.of("kettle", "radio", "fan")))
                .body("result.row_count", is(3));
        String body = runSql("SELECT price FROM gadget WHERE id = 1", "gadgets").statusCode(200).extract().asString();
        // DECIMAL(10,2) keeps its digits.
        assertThat(body).contains("\"price\":19.90");
    }

    @Test
    void theRowLimitAndRepeatedNamesHoldOnMariaDb() {
        runSql("SELECT g.name, h.name FROM gadget g JOIN gadget h ON h.id = g.id ORDER BY g.id", "gadgets")
                .statusCode(200)
                .body("result.columns.key", is(List.of("name", "name_2")))
                .body("result.rows[0].name_2", is("lamp"));
    }

    @Test
    void mariaDbValuesComeBackExact() {
        String body = runSql("SELECT CAST('12345678901234567890.0123456789' AS DECIMAL(30,10)) AS d, "
                + "CAST(18446744073709551615 AS UNSIGNED) AS u, b'101' + 0 AS n, CAST(b'101' AS BINARY) AS h, "
                + "DATE '2024-02-29' AS day", "gadgets").statusCode(200).extract().asString();
        // Neither value fits a double: both keep every digit, as JSON numbers.
        assertThat(body).contains("\"d\":12345678901234567890.0123456789", "\"u\":18446744073709551615",
                "\"n\":5", "\"h\":\"0x05\"", "\"day\":\"2024-02-29\"");
        runSql("SELECT CAST(1 AS DECIMAL(30,10)) AS d, CAST(18446744073709551615 AS UNSIGNED) AS u", "gadgets").statusCode(200)
                .body("result.columns.type", is(List.of("decimal", "bigint unsigned")));
    }

    @Test
    void aLongMariaDbResultIsCutLikeAPostgresOne() {
        // 4^6 = 4096 rows, past the row limit (sqlagent.sql.max-rows, 1000).
        Map<String, Object> maria = runSql("SELECT a.id FROM gadget a, gadget b, gadget c, gadget d, gadget e, gadget f",
                "gadgets").statusCode(200).extract().jsonPath().getMap("result");
        Map<String, Object> postgres = runSql("SELECT g AS id FROM generate_series(1, 4096) g", "default").statusCode(200)
                .extract().jsonPath().getMap("result");
        assertThat(maria).containsEntry("row_count", 1000).containsEntry("total_rows", 1001)
                .containsEntry("truncated", true);
        assertThat(maria.keySet()).isEqualTo(postgres.keySet());
        for (String field : List.of("row_count", "total_rows", "truncated")) {
            assertThat(maria.get(field)).as(field).isEqualTo(postgres.get(field));
        }
        assertThat((List<?>) maria.get("rows")).hasSize(1000);
    }

    @Test
    void aWideMariaDbResultStaysUnderTheSizeCap() {
        // 1024 rows of a 5000-character cell: each cut to sqlagent.sql.max-cell-chars (2000), and the rows stop
        // before the answer passes sqlagent.sql.max-result-size (256K) — far less than the 5 MB the statement makes.
        String body = runSql("SELECT REPEAT('x', 5000) AS w, a.id FROM gadget a, gadget b, gadget c, gadget d, gadget e",
                "gadgets").statusCode(200).body("result.truncated", is(true)).extract().asString();
        assertThat(body.length()).isLessThan(300 * 1024);
        JsonPath answer = JsonPath.from(body);
        assertThat(answer.getInt("result.row_count")).isBetween(100, 999);
        String cell = answer.getString("result.rows[0].w");
        assertThat(cell).startsWith("x".repeat(2000)).hasSizeLessThan(2100);
    }

    @Test
    void theMariaDbSourceIsCheckedInItsOwnDialect() {
        // What MariaDB's check refuses, whatever PostgreSQL's would say: each a 403 blocked naming why; nothing runs.
        Map<String, String> refused = Map.of(
                "SELECT SLEEP(5)", "sleeps or burns the server's CPU",
                "SELECT LOAD_FILE('/etc/passwd')", "reads a file on the database server",
                "SELECT * FROM mysql.user", "mysql",
                "DELETE FROM gadget", "DELETE statements are not allowed",
                "SELECT 1; DELETE FROM gadget", "Only one statement",
                "SELECT name FROM gadget INTO OUTFILE '/tmp/x'", "writes a file on the server");
        refused.forEach((sql, reason) -> runSql(sql, "gadgets").statusCode(403)
                .body("error", is("blocked"))
                .body("message", containsStringIgnoringCase(reason)));
        // A PostgreSQL cast is no MariaDB syntax: refused or failed there, never run as something else.
        int status = runSql("SELECT id::text FROM gadget", "gadgets").extract().statusCode();
        assertThat(status).isIn(403, 422);
        assertThat(MariaDbServer.get().root("SELECT count(*) FROM shop.gadget").strip()).isEqualTo("4");
    }

    @Test
    void theTablePolicyAndHiddenColumnsHoldOnTheMariaDbSource() {
        runSql("SELECT cost FROM `shop`.`GADGET_COST`", "gadgets").statusCode(403).body("error", is("blocked"))
                .body("message", containsString("Table gadget_cost is not available to the agent"));
        runSql("SELECT b.* FROM gadget_buyer b", "gadgets").statusCode(403).body("error", is("blocked"))
                .body("message", containsString("Column gadget_buyer.email is hidden"));
        runSql("SELECT id FROM gadget_buyer WHERE email LIKE 'ann%'", "gadgets").statusCode(403)
                .body("message", containsString("gadget_buyer.email"));
        runSql("SELECT id, name FROM gadget_buyer", "gadgets").statusCode(200).body("result.rows[0].name", is("Ann"));
    }

    @Test
    void mariaDbErrorsReachTheCallerWithTheirStateAndCode() {
        runSql("SELECT * FROM no_such_table", "gadgets")
                .statusCode(422)
                .body("error", is("tool_failed"))
                .body("message", containsString("no_such_table"))
                .body("message", containsString("(SQLSTATE 42S02, error 1146)"));
    }

    @Test
    void theSchemaToolsSayTheyCannotReadMariaDbYetAndPointAtRunSql() {
        given().contentType(ContentType.JSON).body("{\"source\":\"gadgets\"}")
                .when().post("/api/tools/introspect_schema").then()
                .statusCode(422)
                .body("message", containsString("cannot read the schema of source 'gadgets' (MariaDB) yet"));
        runSql("SHOW TABLES", "gadgets").statusCode(200).body("result.row_count", is(3));
    }

    @Test
    void readinessNamesTheMariaDbServer() {
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body("checks.find { it.name == 'sqlagent sources' }.data.gadgets", is("UP"));
    }
}
