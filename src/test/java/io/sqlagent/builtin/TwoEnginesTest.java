package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.containsStringIgnoringCase;
import static org.hamcrest.Matchers.is;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

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
import io.sqlagent.sql.schema.SchemaIntrospector;
import io.sqlagent.sql.source.ExternalPostgresResource;
import io.sqlagent.sql.source.SourceRegistry;

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
                .body("message", containsString("Columns gadget_buyer.Phone, gadget_buyer.email are hidden"));
        runSql("SELECT `PHONE` FROM shop.GADGET_BUYER", "gadgets").statusCode(403)
                .body("message", containsString("Column gadget_buyer.Phone is hidden"));
        runSql("SELECT code FROM gadget_secret", "gadgets").statusCode(403)
                .body("message", containsString("is not available to the agent"));
        runSql("SELECT id FROM gadget_buyer WHERE email LIKE 'ann%'", "gadgets").statusCode(403)
                .body("message", containsString("gadget_buyer.email"));
        runSql("SELECT id, name FROM gadget_buyer", "gadgets").statusCode(200).body("result.rows[0].name", is("Ann"));
    }

    private static ValidatableResponse introspect(String table, boolean sample) {
        return introspect(table, "gadgets", sample);
    }

    private static ValidatableResponse introspect(String table, String source, boolean sample) {
        return given().contentType(ContentType.JSON)
                .body(SnakeCaseJson.MAPPER.createObjectNode().put("source", source).put("table_name", table)
                        .put("include_sample_data", sample).toString())
                .when().post("/api/tools/introspect_schema").then();
    }

    private static final List<String> HIDDEN_VALUES = List.of(ExternalPostgresResource.BUYER_EMAIL,
            ExternalPostgresResource.BUYER_PHONE, ExternalPostgresResource.SUPPLIER, ExternalPostgresResource.SECRET_CODE);

    @Test
    void theSchemaToolsShowNoDeniedTableNorHiddenColumnOfTheMariaDbSource() {
        // Denied: gadget_cost (unqualified entry: the source's database), Gadget_Secret (SHOP.gadget_secret, another case).
        List<String> listed = given().contentType(ContentType.JSON).body("{\"source\":\"gadgets\"}")
                .when().post("/api/tools/introspect_schema").then().statusCode(200).extract().jsonPath()
                .getList("result.tables", String.class);
        assertThat(listed).contains("gadget", "gadget_buyer", "gadget_supply", "buyer_contact")
                .noneMatch(name -> name.toLowerCase(java.util.Locale.ROOT).contains("gadget_cost")
                        || name.toLowerCase(java.util.Locale.ROOT).contains("secret"));
        for (String denied : List.of("gadget_cost", "GADGET_COST", "shop.gadget_cost", "Gadget_Secret", "shop.gadget_secret")) {
            String body = introspect(denied, true).statusCode(422)
                    .body("message", containsString("does not exist or cannot be read")).extract().asString();
            String tables = body.substring(body.indexOf("Tables:"));
            assertThat(tables).as(denied).doesNotContainIgnoringCase("gadget_cost").doesNotContainIgnoringCase("secret");
            assertThat(body).doesNotContain(HIDDEN_VALUES);
        }

        // Hidden: gadget_buyer.email (unqualified) and Phone (Shop.Gadget_Buyer.PHONE): not described, not sampled,
        // no values hinted; its other columns are, with their values.
        String buyer = introspect("gadget_buyer", true).statusCode(200)
                .body("result.columns.name", is(List.of("id", "name", "gadget_id")))
                .body("result.columns[1].values", is(List.of("Ann")))
                .body("result.sample_data[0].name", is("Ann"))
                .extract().asString();
        assertThat(buyer).doesNotContainIgnoringCase("email").doesNotContainIgnoringCase("phone")
                .doesNotContain(HIDDEN_VALUES);

        // gadget's relationships and references name no denied table: gadget_cost's key into gadget is left out.
        JsonPath gadget = introspect("gadget", false).statusCode(200).extract().jsonPath();
        assertThat(gadget.getList("result.relationships.related_table")).containsExactly("gadget_buyer");
        assertThat(introspect("gadget_buyer", false).extract().jsonPath().getString("result.columns[2].references"))
                .isEqualTo("gadget.id");

        // A view over a denied table and one over a hidden column are listed (as on PostgreSQL), but what they read
        // is not: no value hint of theirs, and their sample is refused as run_sql refuses it.
        for (String view : List.of("gadget_supply", "buyer_contact")) {
            String described = introspect(view, false).statusCode(200).extract().asString();
            assertThat(described).as(view).doesNotContain("\"values\"").doesNotContain(HIDDEN_VALUES);
            String sampled = introspect(view, true).statusCode(403).body("error", is("blocked")).extract().asString();
            assertThat(sampled).as(view).doesNotContain(HIDDEN_VALUES);
        }

        // search_schema finds neither denied table, whatever the question, and shows no hidden column.
        for (String question : List.of("purchase cost of gadgets and their supplier", "secret codes",
                "buyers email and phone")) {
            String found = given().contentType(ContentType.JSON)
                    .body(SnakeCaseJson.MAPPER.createObjectNode().put("source", "gadgets").put("query", question)
                            .put("limit", 50).toString())
                    .when().post("/api/tools/search_schema").then().statusCode(200).extract().asString();
            assertThat(JsonPath.from(found).getList("result.tables.table", String.class)).as(question)
                    .doesNotContain("shop.gadget_cost", "shop.Gadget_Secret");
            assertThat(found).as(question).doesNotContainIgnoringCase("secret").doesNotContain(HIDDEN_VALUES);
            // The account reads Chinook too, whose customer has a phone of its own; gadget_buyer's are hidden (the view
            // buyer_contact shows its own email column, as a PostgreSQL view does).
            assertThat(JsonPath.from(found).getList("result.tables.findAll { it.table == 'shop.gadget_buyer' }.summary",
                    String.class)).as(question).noneMatch(summary -> summary.toLowerCase(java.util.Locale.ROOT)
                            .matches(".*(email|phone).*"));
        }
    }

    @Test
    void chinookOnMariaDbIsFoundAndAnsweredThroughTheTools() {
        // Source music: Chinook loaded into MariaDB by bin/chinook-mysql.sh, its database the URL's.
        List<String> listed = given().contentType(ContentType.JSON).body("{\"source\":\"music\"}")
                .when().post("/api/tools/introspect_schema").then().statusCode(200).extract().jsonPath()
                .getList("result.tables", String.class);
        assertThat(listed.subList(0, 11)).containsExactly("album", "artist", "customer", "employee", "genre", "invoice",
                "invoice_line", "media_type", "playlist", "playlist_track", "track");
        // The account reads shop too: its tables come qualified; a db-qualified denial holds from every source.
        assertThat(listed).contains("shop.gadget").doesNotContain("shop.Gadget_Secret");

        List<String> found = given().contentType(ContentType.JSON)
                .body("{\"source\":\"music\",\"query\":\"invoice lines and invoice totals per billing country\",\"limit\":5}")
                .when().post("/api/tools/search_schema").then().statusCode(200).extract().jsonPath()
                .getList("result.tables.table", String.class);
        assertThat(found).contains("chinook.invoice", "chinook.invoice_line");

        JsonPath invoice = introspect("invoice", "music", true).statusCode(200).extract().jsonPath();
        assertThat(invoice.getList("result.columns.name")).contains("invoice_id", "customer_id", "billing_country", "total");
        assertThat(invoice.getString("result.columns.find { it.name == 'customer_id' }.references"))
                .isEqualTo("customer.customer_id");
        assertThat(invoice.getList("result.relationships.related_table")).containsExactlyInAnyOrder("customer",
                "invoice_line");
        assertThat(invoice.getList("result.sample_data")).hasSize(3);

        // A Chinook question, answered on MariaDB as on PostgreSQL (the evaluation's known answer).
        runSql("SELECT billing_country, SUM(total) AS revenue FROM invoice GROUP BY billing_country "
                + "ORDER BY revenue DESC LIMIT 1", "music").statusCode(200)
                .body("result.rows[0].billing_country", is("USA"))
                .body("result.rows[0].revenue", is(523.06f));
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
    void theSchemaToolsReadTheMariaDbCatalogInPostgresShapes() {
        given().contentType(ContentType.JSON).body("{\"source\":\"gadgets\"}")
                .when().post("/api/tools/introspect_schema").then()
                .statusCode(200)
                .body("result.tables", org.hamcrest.Matchers.hasItem("gadget"));
        JsonPath described = given().contentType(ContentType.JSON)
                .body("{\"source\":\"gadgets\",\"table_name\":\"gadget\",\"include_sample_data\":true}")
                .when().post("/api/tools/introspect_schema").then().statusCode(200).extract().jsonPath();
        assertThat(described.getString("result.table")).isEqualTo("gadget");
        assertThat(described.getString("result.description")).isEqualTo("Gadgets on sale");
        assertThat(described.getList("result.columns.name")).containsExactly("id", "name", "price");
        assertThat(described.getList("result.columns.type")).containsExactly("int(11)", "varchar(40)", "decimal(10,2)");
        assertThat(described.getList("result.columns.primary_key")).containsExactly(true, false, false);
        // The sample is read in MariaDB's dialect (backticks), as the caller; the text column's values are hinted.
        assertThat(described.getList("result.sample_data.name")).containsExactly("lamp", "kettle", "radio");
        assertThat(described.getList("result.columns[1].values")).containsExactly("fan", "kettle", "lamp", "radio");
        given().contentType(ContentType.JSON).body("{\"source\":\"gadgets\",\"query\":\"gadgets on sale\"}")
                .when().post("/api/tools/search_schema").then()
                .statusCode(200)
                .body("result.tables[0].table", is("shop.gadget"));
        // SHOW TABLES lists every table, the denied ones too, as PostgreSQL's catalog does.
        runSql("SHOW TABLES", "gadgets").statusCode(200).body("result.row_count", is(6));
    }

    @Inject
    SchemaIntrospector introspector;

    @Inject
    SourceRegistry sources;

    @Test
    void aMariaDbTableWhoseOneColumnPrimaryKeyReferencesAnotherExtendsIt() {
        // A database of its own, dropped after, so the other tests' listings of shop stay as they are.
        MariaDbServer.get().root("""
                CREATE DATABASE fanclub;
                CREATE TABLE fanclub.fan (fan_id INT PRIMARY KEY, fan_name VARCHAR(40));
                CREATE TABLE fanclub.superfan (fan_id INT PRIMARY KEY, since DATE,
                    FOREIGN KEY (fan_id) REFERENCES fanclub.fan (fan_id));
                CREATE TABLE fanclub.visit (fan_id INT, visited DATE, PRIMARY KEY (fan_id, visited),
                    FOREIGN KEY (fan_id) REFERENCES fanclub.fan (fan_id));
                GRANT SELECT ON fanclub.* TO 'agent'@'%';
                """);
        try {
            Map<String, List<String>> extended = introspector.catalog(sources.find("gadgets").orElseThrow()).await()
                    .atMost(java.time.Duration.ofSeconds(30)).stream()
                    .filter(table -> table.relation().schema().equals("fanclub"))
                    .collect(Collectors.toMap(table -> table.relation().name(), SchemaIntrospector.CatalogTable::extended));

            assertThat(extended).containsExactlyInAnyOrderEntriesOf(
                    Map.of("fan", List.of(), "superfan", List.of("fanclub.fan"), "visit", List.of()));
        } finally {
            MariaDbServer.get().root("DROP DATABASE fanclub;");
        }
    }

    @Test
    void readinessNamesTheMariaDbServer() {
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body("checks.find { it.name == 'sqlagent sources' }.data.gadgets", is("UP"));
    }
}
