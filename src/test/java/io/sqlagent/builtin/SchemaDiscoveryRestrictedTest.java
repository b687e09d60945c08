package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.in;
import static org.hamcrest.Matchers.is;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.sqlagent.TestProfiles;

/**
 * {@code search_schema} under a table policy (only track, album, artist and genre): a hidden table is never found, not
 * even when the question is about it and the knowledge base's patterns name it.
 */
@QuarkusTest
@TestProfile(TestProfiles.Restricted.class)
class SchemaDiscoveryRestrictedTest {

    private static final List<String> VISIBLE = List.of("public.track", "public.album", "public.artist", "public.genre");

    @Test
    void hiddenTablesAreNeverFound() {
        for (String question : List.of("invoice totals per customer billing country", "employees and their customers",
                "which tracks are on the most invoices", "playlists")) {
            given().contentType(ContentType.JSON).body("{\"query\":\"" + question + "\",\"limit\":50}")
                    .when().post("/api/tools/search_schema")
                    .then().statusCode(200)
                    .body("result.tables.table", everyItem(is(in(VISIBLE))));
        }
    }

    @Test
    void theIndexHoldsOnlyThePermittedTables() {
        // Every word names a table: the four permitted are found, and no other.

        given().contentType(ContentType.JSON)
                .body("{\"query\":\"tracks albums artists genres invoices customers employees playlists\",\"limit\":50}")
                .when().post("/api/tools/search_schema")
                .then().statusCode(200)
                .body("result.tables", hasSize(4))
                .body("result.tables.table", everyItem(is(in(VISIBLE))));
    }
}
