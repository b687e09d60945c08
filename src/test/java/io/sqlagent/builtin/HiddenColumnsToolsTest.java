package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * Hidden columns, against Chinook: run_sql refuses every way of reading one (PostgreSQL's plan is
 * the judge), introspect_schema never shows one, and everything else keeps working.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class HiddenColumnsToolsTest {

    private static final String HIDDEN = " hidden and cannot be read";

    @Inject
    SourceRegistry sources;

    private Pool chinook() {
        return sources.find("default").orElseThrow().requirePool();
    }

    private void execute(String sql) {
        sources.find("default").orElseThrow().executeWriting(sql).await().atMost(Duration.ofSeconds(10));
    }

    @BeforeEach
    void createAViewAndAPartitionedTable() {
        execute("DROP SCHEMA IF EXISTS hr CASCADE");
        execute("CREATE SCHEMA hr");
        execute("CREATE VIEW hr.customer_contacts AS SELECT customer_id, first_name, email FROM public.customer");
        execute("CREATE TABLE hr.payslip (id int, month date, amount int, iban text) PARTITION BY RANGE (month)");
        execute("CREATE TABLE hr.payslip_2024 PARTITION OF hr.payslip FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')");
        execute("INSERT INTO hr.payslip VALUES (1, '2024-03-01', 100, 'DE00 SECRET')");
    }

    @AfterEach
    void dropThem() {
        execute("DROP SCHEMA hr CASCADE");
    }

    private static ValidatableResponse call(String tool, String json) {
        return given().contentType(ContentType.JSON).body(json).when().post("/api/tools/" + tool).then();
    }

    private static ValidatableResponse runSql(String sql) {
        return call("run_sql", SnakeCaseJson.MAPPER.createObjectNode().put("sql", sql).toString());
    }

    private static void refused(String sql, String columns) {
        runSql(sql).statusCode(403).body("error", is("blocked"))
                .body("message", startsWith(columns + (columns.contains(",") ? " are" : " is") + HIDDEN));
    }

    @Test
    void everySpellingOfAHiddenColumnIsRefused() {
        refused("SELECT email FROM customer", "Column customer.email");
        refused("SELECT \"email\" FROM Customer", "Column customer.email");
        refused("SELECT * FROM customer", "Columns customer.email, customer.phone");
        refused("SELECT c.* FROM customer c LIMIT 1", "Columns customer.email, customer.phone");
        refused("SELECT c FROM customer c", "Columns customer.email, customer.phone");
        refused("SELECT row_to_json(c) FROM customer c", "Columns customer.email, customer.phone");
        refused("SELECT count(*) FROM customer WHERE email LIKE 'l%'", "Column customer.email");
        refused("SELECT first_name FROM customer ORDER BY email LIMIT 1", "Column customer.email");
        refused("WITH x AS (SELECT email AS e FROM customer) SELECT e FROM x", "Column customer.email");
        refused("VALUES ((SELECT max(email) FROM customer))", "Column customer.email");
        refused("SELECT phone FROM employee", "Column employee.phone");
        refused("SELECT c.first_name FROM customer c JOIN employee e ON e.phone = c.phone",
                "Columns customer.phone, employee.phone");
        refused("SELECT first_name FROM customer c WHERE EXISTS (SELECT 1 FROM employee e WHERE e.phone = c.phone)",
                "Columns customer.phone, employee.phone");
        refused("EXPLAIN SELECT email FROM customer", "Column customer.email");
        refused("SELECT c.first_name, i.total FROM customer c JOIN invoice i USING (customer_id) WHERE c.email = 'x'",
                "Column customer.email");
        refused("SELECT 'luisg@embraer.com.br' INTERSECT SELECT email FROM customer", "Column customer.email");
        refused("SELECT x.e FROM customer c, LATERAL (SELECT c.email AS e) x", "Column customer.email");
        refused("SELECT DISTINCT ON (email) first_name FROM customer", "Column customer.email");
        refused("SELECT count(*) FROM customer GROUP BY email", "Column customer.email");
        refused("SELECT first_name, rank() OVER (ORDER BY email) FROM customer", "Column customer.email");
        refused("SELECT count(*) FROM customer c WHERE c IS NOT NULL", "Columns customer.email, customer.phone");
    }

    @Test
    void viewsAndPartitionsDoNotHideTheRead() {
        refused("SELECT * FROM hr.customer_contacts", "Column customer.email");
        refused("SELECT first_name FROM hr.customer_contacts WHERE email LIKE '%@%'", "Column customer.email");
        refused("SELECT iban FROM hr.payslip", "Column hr.payslip_2024.iban");
        refused("SELECT iban FROM hr.payslip_2024", "Column hr.payslip_2024.iban");
        runSql("SELECT first_name FROM hr.customer_contacts ORDER BY customer_id LIMIT 1").statusCode(200)
                .body("result.rows[0].first_name", is("Luís"));
        runSql("SELECT sum(amount) AS total FROM hr.payslip").statusCode(200).body("result.rows[0].total", is(100));
    }

    @Test
    void queriesThatLeaveHiddenColumnsAloneRun() {
        runSql("SELECT first_name, last_name FROM customer ORDER BY customer_id LIMIT 1").statusCode(200)
                .body("result.rows[0].first_name", is("Luís"));
        runSql("SELECT count(*) AS n FROM customer").statusCode(200).body("result.rows[0].n", is(59));
        runSql("SELECT row_to_json(t) AS j FROM track t ORDER BY track_id LIMIT 1").statusCode(200)
                .body("result.rows[0].j.name", is("For Those About To Rock (We Salute You)"));
        runSql("SELECT 'c.email' AS text, 'c.*' AS star FROM customer c LIMIT 1").statusCode(200)
                .body("result.rows[0].text", is("c.email"));
        runSql("WITH c AS (SELECT 'x' AS email) SELECT email FROM c").statusCode(200).body("result.rows[0].email", is("x"));
        runSql("EXPLAIN SELECT first_name FROM customer").statusCode(200);
        runSql("SELECT 1 AS one").statusCode(200).body("result.rows[0].one", is(1));
        // The scans under a join or an aggregate may fetch whole rows; only what the query uses counts.
        runSql("SELECT count(*) AS n FROM customer WHERE first_name LIKE 'L%'").statusCode(200).body("result.rows[0].n", is(5));
        runSql("SELECT c.first_name, i.total FROM customer c JOIN invoice i USING (customer_id) ORDER BY i.invoice_id LIMIT 1")
                .statusCode(200).body("result.rows[0].first_name", is("Leonie"));
        runSql("SELECT e.last_name, count(*) AS customers FROM employee e JOIN customer c ON c.support_rep_id = e.employee_id "
                + "GROUP BY e.last_name ORDER BY 2 DESC LIMIT 1").statusCode(200).body("result.rows[0].customers", is(21));
    }

    @Test
    void sqlErrorsStillPointIntoTheModelsStatement() {
        runSql("SELECT nme FROM customer").statusCode(422)
                .body("message", startsWith(
                        "column \"nme\" does not exist (SQLSTATE 42703) at character 8: 'SELECT nme FROM customer'"));
        runSql("EXPLAIN (COSTS off) SELECT nme FROM customer").statusCode(422)
                .body("message", containsString("at character 28"));
    }

    @Test
    void plannerStatisticsAreClosedBecauseTheyHoldSampledValues() {
        runSql("SELECT * FROM pg_stats").statusCode(403);
    }

    @Test
    void introspectionNeverShowsAHiddenColumn() {
        call("introspect_schema", "{\"table_name\":\"customer\",\"include_sample_data\":true}").statusCode(200)
                .body("result.columns.name", hasItem("first_name"))
                .body("result.columns.name", not(hasItem("email")))
                .body("result.columns.name", not(hasItem("phone")))
                .body("result.sample_data", everyItem(not(org.hamcrest.Matchers.hasKey("email"))))
                .body("result.sample_data", everyItem(org.hamcrest.Matchers.hasKey("first_name")))
                .body("result.sample_data.size()", is(3));
        call("introspect_schema", "{\"table_name\":\"employee\",\"include_sample_data\":true}").statusCode(200)
                .body("result.columns.name", not(hasItem("phone")))
                .body("result.sample_data", everyItem(not(org.hamcrest.Matchers.hasKey("phone"))));
        call("introspect_schema", "{\"table_name\":\"hr.payslip\",\"include_sample_data\":true}").statusCode(200)
                .body("result.columns.name", is(List.of("id", "month", "amount")))
                .body("result.sample_data[0].amount", is(100));
    }

    @Test
    void aValidatedQueryThatReadsAHiddenColumnIsNotKept() {
        String refusedBody = SnakeCaseJson.MAPPER.createObjectNode().put("name", "hidden_probe_contacts")
                .put("question", "What are the customers' e-mail addresses? (hidden columns test)")
                .put("sql", "SELECT first_name, email FROM customer").put("summary", "Names and e-mails")
                .set("tables_used", SnakeCaseJson.MAPPER.createArrayNode().add("customer")).toString();
        call("save_validated_query", refusedBody).statusCode(403)
                .body("message", startsWith("Column customer.email is" + HIDDEN));
        call("search_knowledge", "{\"query\": \"customers e-mail addresses hidden columns test\", \"type\": \"patterns\"}")
                .statusCode(200).body("result.query_patterns.name", not(hasItem("hidden_probe_contacts")));

        String keptBody = SnakeCaseJson.MAPPER.createObjectNode().put("name", "hidden_probe_names")
                .put("question", "What are the customers' first names? (hidden columns test)")
                .put("sql", "SELECT first_name FROM customer").put("summary", "First names")
                .set("tables_used", SnakeCaseJson.MAPPER.createArrayNode().add("customer")).toString();
        call("save_validated_query", keptBody).statusCode(200).body("result.success", is(true));
    }

    @Test
    void functionsThatRunQueryTextCannotReadAHiddenColumn() {
        // Each would run the inner query inside the server, where the plan check never sees it.
        for (String sql : List.of(
                "SELECT * FROM ts_stat('SELECT to_tsvector(''simple'', email) FROM customer')",
                "SELECT word FROM pg_catalog.ts_stat($$SELECT to_tsvector('simple', email) FROM customer$$)",
                "SELECT ts_rewrite('a'::tsquery, 'SELECT to_tsquery(''simple'', ''x''), to_tsquery(''simple'', split_part(email, ''@'', 1)) FROM customer')",
                "SELECT query_to_xml('SELECT email FROM customer', true, false, '')",
                "SELECT table_to_xml('customer', true, false, '')")) {
            String function = sql.contains("ts_stat") ? "ts_stat"
                    : sql.contains("ts_rewrite") ? "ts_rewrite"
                            : sql.contains("query_to_xml") ? "query_to_xml" : "table_to_xml";
            String body = runSql(sql).statusCode(403).body("error", is("blocked"))
                    .body("message", startsWith("Function " + function + " is not allowed: it can run a query given as text"))
                    .extract().asString();
            assertFalse(body.contains("@"), body);
        }
    }
}
