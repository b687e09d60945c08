package io.sqlagent.declarative;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.audit.AuditLog;
import io.sqlagent.audit.AuditRows;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;

/** Every tool of the shipped config/tools/chinook.yaml, called over REST against the embedded Chinook database. */
@QuarkusTest
@ScriptedModel
class ChinookToolsTest {

    @Inject
    AuditLog auditLog;

    @Inject
    Pool store;

    private static io.restassured.response.ValidatableResponse call(String tool, String body) {
        return given().contentType(ContentType.JSON).body(body).when().post("/api/tools/" + tool).then();
    }

    @Test
    void theShippedToolsAreListedWithTheBuiltInOnes() {
        given().when().get("/api/tools")
                .then().statusCode(200)
                .body("name", hasItems("run_sql", "search_tracks", "artist_albums", "tracks_by_ids",
                        "sales_by_country_and_month", "top_customers", "invoice_lines", "genre_summary"));
    }

    @Test
    void searchTracksFindsByTextAndOptionalGenre() {
        call("search_tracks", "{\"query\": \"balls to the wall\"}")
                .statusCode(200)
                .body("result.rows[0].track", is("Balls to the Wall"))
                .body("result.rows[0].artist", is("Accept"))
                .body("result.truncated", is(false));
        call("search_tracks", "{\"query\": \"the\", \"genre\": \"Jazz\", \"limit\": 3}")
                .statusCode(200)
                .body("result.row_count", is(3))
                .body("result.rows.genre", everyItem(is("Jazz")));
    }

    @Test
    void artistAlbumsIsAMarkdownTable() {
        String table = call("artist_albums", "{\"artist\": \"Led Zeppelin\"}")
                .statusCode(200).extract().path("result");
        assertTrue(
                table.startsWith(
                        "### Albums of an artist\n\n| artist | album | tracks | minutes |\n| --- | --- | --- | --- |\n"),
                table);
        assertTrue(table.contains("| Led Zeppelin | IV | 8 |"), table);
        assertTrue(table.endsWith("_14 rows._\n"), table);
    }

    @Test
    void tracksByIdsExpandsTheArray() {
        call("tracks_by_ids", "{\"track_ids\": [3, 1, 2]}")
                .statusCode(200)
                .body("result.rows.track_id", equalTo(List.of(1, 2, 3)))
                .body("result.rows[0].name", is("For Those About To Rock (We Salute You)"));
    }

    @Test
    void salesByCountryAndMonthFiltersByYearAndCountries() {
        String all = call("sales_by_country_and_month", "{}").statusCode(200).extract().path("result");
        assertTrue(all.contains("| Argentina | 2022-06 | 1 | 1.98 |"), all);
        assertTrue(all.contains("_100 of 319 rows shown._"), all);

        String some = call("sales_by_country_and_month", "{\"year\": 2022, \"countries\": [\"Canada\", \"Norway\"]}")
                .statusCode(200).extract().path("result");
        assertTrue(some.contains("| Canada | 2022-"), some);
        assertTrue(some.endsWith("_8 rows._\n"), some);
        assertTrue(!some.contains("| USA |") && !some.contains("2021-"), some);
    }

    @Test
    void topCustomersIsAuditedWithItsArguments() throws InterruptedException {
        call("top_customers", "{}").statusCode(200).body("result.row_count", is(5));
        call("top_customers", "{\"limit\": 3, \"country\": \"Brazil\"}")
                .statusCode(200)
                .body("result.row_count", is(3))
                .body("result.rows.country", everyItem(is("Brazil")));

        Row row = AuditRows.await(auditLog, store, "top_customers", "arguments IS NOT NULL");
        assertEquals("Brazil", row.getJsonObject("arguments").getString("country"));
    }

    @Test
    void invoiceLinesShowsOneInvoice() {
        String table = call("invoice_lines", "{\"invoice_id\": 1}").statusCode(200).extract().path("result");
        assertTrue(table.contains("| line | track | artist | unit_price | quantity | line_total |"), table);
        assertTrue(table.endsWith("_2 rows._\n"), table);
        String none = call("invoice_lines", "{\"invoice_id\": 999999}").statusCode(200).extract().path("result");
        assertTrue(none.contains("_No rows._"), none);
    }

    @Test
    void genreSummaryUsesItsDefault() {
        call("genre_summary", "{}").statusCode(200)
                .body("result.row_count", is(25))
                .body("result.rows[0].genre", is("Rock"));
        call("genre_summary", "{\"min_tracks\": 500}").statusCode(200)
                .body("result.rows.genre", equalTo(List.of("Rock", "Latin")));
    }

    @Test
    void badArgumentsAreRejectedBeforeTheDatabase() {
        call("search_tracks", "{\"query\": \"a\"}").statusCode(400)
                .body("error", is("invalid_arguments"))
                .body("details[0].argument", is("query"));
        call("search_tracks", "{}").statusCode(400).body("details[0].argument", is("query"));
        call("search_tracks", "{\"query\": \"love\", \"limit\": 1000}").statusCode(400).body("details[0].argument",
                is("limit"));
        call("search_tracks", "{\"query\": \"love\", \"nope\": 1}").statusCode(400).body("details[0].argument", is("nope"));
        call("tracks_by_ids", "{\"track_ids\": []}").statusCode(400).body("details[0].argument", is("track_ids"));
        call("tracks_by_ids", "{\"track_ids\": [\"1\"]}").statusCode(400).body("details[0].argument", is("track_ids[0]"));
        call("invoice_lines", "{\"invoice_id\": \"1; DROP TABLE invoice\"}").statusCode(400);
        call("tracks_by_ids", "[1]").statusCode(400).body("error", is("invalid_body"));
        call("tracks_by_ids", "{").statusCode(400).body("error", is("malformed_json"));
    }

    @Test
    void numbersBeyondWhatTheParameterCanHoldAreInvalidNeverWrapped() {
        // 2^64 + 1 wraps to invoice 1 when bound as a bigint, and passes "minimum: 1" unchecked.
        call("invoice_lines", "{\"invoice_id\": 18446744073709551617}").statusCode(400)
                .body("error", is("invalid_arguments"))
                .body("message",
                        containsString("invoice_id must be an integer from -9223372036854775808 to 9223372036854775807"))
                .body("details[0].argument", is("invoice_id"))
                .body("details[0].problem", is("must be an integer from -9223372036854775808 to 9223372036854775807"
                        + " (got 18446744073709551617)"));
        call("invoice_lines", "{\"invoice_id\": 1e30}").statusCode(400).body("details[0].argument", is("invoice_id"));
        call("genre_summary", "{\"min_tracks\": 1e400}").statusCode(400).body("details[0].argument", is("min_tracks"));
        call("tracks_by_ids", "{\"track_ids\": [1, 18446744073709551617]}").statusCode(400)
                .body("details[0].argument", is("track_ids[1]"));
    }

    @Test
    void descriptorsCarryMetadataAndSecurity() {
        given().when().get("/api/tools/top_customers")
                .then().statusCode(200)
                .body("title", is("Top customers"))
                .body("namespace", is("declarative"))
                .body("read_only", is(true))
                .body("audit_arguments", is(true))
                .body("metadata.scopes", equalTo(List.of("sales:read", "customers:read")))
                .body("metadata.warning", is("Returns customers' e-mail addresses."))
                .body("metadata.domain", is("business"))
                .body("parameters.properties.limit.default", is(5))
                .body("parameters.properties.limit.maximum", is(50))
                .body("parameters.required", org.hamcrest.Matchers.nullValue());
        given().when().get("/api/tools/tracks_by_ids")
                .then().statusCode(200)
                .body("parameters.properties.track_ids.items.type", is("integer"))
                .body("parameters.properties.track_ids.maxItems", is(50))
                .body("parameters.required", equalTo(List.of("track_ids")));
    }

    @Test
    void toolsetsFilterTheList() {
        List<String> catalog = given().queryParam("toolset", "catalog").when().get("/api/tools")
                .then().statusCode(200).extract().path("name");
        assertEquals(List.of("artist_albums", "genre_summary", "search_tracks", "tracks_by_ids"), catalog);
        List<String> both = given().queryParam("toolset", "catalog,sales").when().get("/api/tools")
                .then().statusCode(200).extract().path("name");
        assertEquals(7, both.size());
        given().queryParam("toolset", "nope").when().get("/api/tools")
                .then().statusCode(400)
                .body("error", is("unknown_toolset"))
                .body("message", startsWith("Unknown toolset nope; known: "))
                .body("message", containsString("catalog"));
    }

    @Test
    void aRunSqlToolIsStillThere() {
        given().when().get("/api/tools?toolset=sales")
                .then().statusCode(200)
                .body("name", not(hasItems("run_sql")));
    }
}
