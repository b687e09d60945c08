package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;

/**
 * Schema discovery with hidden columns ({@code customer.email}, {@code *.phone}) and with Chinook counted as a large
 * database (listing pages of four above five tables): the paged listing, and nothing hidden in search results or value
 * hints.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class SchemaDiscoveryFeaturesTest {

    private static ValidatableResponse introspect(String body) {
        return given().contentType(ContentType.JSON).body(body).when().post("/api/tools/introspect_schema").then();
    }

    @Test
    void aLargeDatabaseIsListedOnePageOfSummariesAtATime() {
        introspect("{}").statusCode(200)
                .body("result.count", is(11))
                .body("result.page", is(1))
                .body("result.pages", is(3))
                .body("result.tables", hasSize(4))
                .body("result.tables[0].table", is("public.album"))
                .body("result.tables[0].summary", not(nullValue()))
                .body("result.next_page", is(2))
                .body("result.hint", containsString("search_schema"));
        introspect("{\"page\":3}").statusCode(200)
                .body("result.tables", hasSize(3))
                .body("result.tables.table", hasItem("public.track"))
                .body("result.next_page", nullValue());
    }

    @Test
    void aPagePastTheEndOrBelowOneIsRefused() {
        introspect("{\"page\":4}").statusCode(422)
                .body("message", is("Page 4 is past the last page of the table listing (3)"));
        introspect("{\"page\":0}").statusCode(400)
                .body("error", is("invalid_arguments"))
                .body("details[0].argument", is("page"));
    }

    @Test
    void searchResultsNeverShowHiddenColumns() {
        given().contentType(ContentType.JSON).body("{\"query\":\"customer email and phone numbers\",\"limit\":50}")
                .when().post("/api/tools/search_schema")
                .then().statusCode(200)
                .body("result.tables.table", hasItem("public.customer"))
                .body("result.tables.summary", everyItem(not(containsString("email"))))
                .body("result.tables.summary", everyItem(not(containsString("phone"))));
    }

    @Test
    void valueHintsLeaveHiddenColumnsOut() {
        introspect("{\"table_name\":\"employee\"}").statusCode(200)
                .body("result.columns.name", not(hasItem("phone")))
                .body("result.columns.find { it.name == 'title' }.values", hasItem("Sales Support Agent"))
                .body("result.columns.find { it.name == 'city' }.values", hasItem("Calgary"));
        introspect("{\"table_name\":\"customer\"}").statusCode(200)
                .body("result.columns.name", not(hasItem("email")))
                .body("result.columns.name", not(hasItem("phone")));
    }
}
