package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.TestProfiles;

/** Allowed and denied tables, respected by run_sql and introspect_schema alike. */
@QuarkusTest
@TestProfile(TestProfiles.Restricted.class)
class TablePolicyToolsTest {

    private static ValidatableResponse call(String tool, String json) {
        return given().contentType(ContentType.JSON).body(json).when().post("/api/tools/" + tool).then();
    }

    private static ValidatableResponse runSql(String sql) {
        return call("run_sql", SnakeCaseJson.MAPPER.createObjectNode().put("sql", sql).toString());
    }

    @Test
    void runSqlQueriesAllowedTablesOnly() {
        runSql("SELECT count(*) AS n FROM track JOIN genre USING (genre_id)").statusCode(200).body("result.rows[0].n",
                is(3503));
        runSql("SELECT * FROM customer").statusCode(403)
                .body("message", is(
                        "Table customer is not available to the agent; use introspect_schema to see the tables it may query"));
        runSql("SELECT * FROM invoice i JOIN customer c USING (customer_id)").statusCode(403)
                .body("message", startsWith("Tables customer, invoice are not available"));
        runSql("SELECT * FROM pg_stats").statusCode(403);
    }

    @Test
    void catalogsAndCteNamesAreNotTables() {
        runSql("SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'").statusCode(200);
        runSql("WITH customer AS (SELECT 1 AS x) SELECT x FROM customer").statusCode(200).body("result.rows[0].x", is(1));
    }

    @Test
    void introspectionShowsOnlyPermittedTables() {
        call("introspect_schema", "{}").statusCode(200)
                .body("result.tables", is(List.of("album", "artist", "genre", "track")))
                .body("result.count", is(4));
        call("introspect_schema", "{\"table_name\":\"customer\"}").statusCode(422)
                .body("message",
                        startsWith("Table 'customer' does not exist or cannot be read. Tables: album, artist, genre, track"));
        // A permitted table's keys into refused tables (media_type, invoice_line, playlist_track) name none of them.
        call("introspect_schema", "{\"table_name\":\"track\"}").statusCode(200)
                .body("result.relationships.related_table", is(List.of("album", "genre")))
                .body("result.columns.find { it.name == 'media_type_id' }.references", is((Object) null))
                .body("result.columns.find { it.name == 'album_id' }.references", is("album.album_id"));
    }

    @Test
    void aValidatedQueryOverATableOutsideThePolicyIsNotKept() {
        String body = SnakeCaseJson.MAPPER.createObjectNode().put("name", "policy_probe_customers")
                .put("question", "How many customers are there? (table policy test)")
                .put("sql", "SELECT count(*) FROM customer").put("summary", "Counts customers")
                .set("tables_used", SnakeCaseJson.MAPPER.createArrayNode().add("customer")).toString();
        call("save_validated_query", body).statusCode(403)
                .body("message", is(
                        "Table customer is not available to the agent; use introspect_schema to see the tables it may query"));
    }

    @Test
    void noSpellingOrFunctionReadsATableOutsideThePolicy() {
        runSql("SELECT * FROM chinook.public.customer").statusCode(403)
                .body("message", is(
                        "Table public.customer is not available to the agent; use introspect_schema to see the tables it may query"));
        runSql("SELECT count(*) AS n FROM chinook.public.track").statusCode(200).body("result.rows[0].n", is(3503));
        runSql("SELECT * FROM ts_stat('SELECT to_tsvector(''simple'', first_name) FROM customer')").statusCode(403)
                .body("error", is("blocked")).body("message", startsWith("Function ts_stat is not allowed"));
        runSql("SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, to_tsquery(''simple'', total::text) FROM invoice')")
                .statusCode(403).body("message", startsWith("Function ts_rewrite is not allowed"));
        runSql("SELECT pg_sequence_last_value('invoice_invoice_id_seq')").statusCode(403)
                .body("message", startsWith("Function pg_sequence_last_value is not allowed"));
    }
}
