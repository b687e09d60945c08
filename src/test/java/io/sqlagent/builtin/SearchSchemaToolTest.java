package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.embedded.EmbeddedDatabase;
import io.sqlagent.knowledge.schema.SchemaSearch;

/** {@code search_schema} and the schema index over REST and MCP, on Chinook. */
@QuarkusTest
@ScriptedModel
class SearchSchemaToolTest {

    @Inject
    SchemaSearch search;

    @ConfigProperty(name = "sqlagent.sources.default.url")
    String defaultSourceUrl;

    /** Searches rank by words until the vectors are in; these tests expect the full ranking. */
    @BeforeEach
    void vectorsAreIn() throws Exception {
        awaitVectors(search);
    }

    static void awaitVectors(SchemaSearch search) throws Exception {
        if (!search.status().semantic()) {
            search.refresh().done().get(180, TimeUnit.SECONDS);
        }
    }

    static ValidatableResponse searchSchema(String body) {
        return given().contentType(ContentType.JSON).body(body).when().post("/api/tools/search_schema").then();
    }

    @Test
    void describesItsArguments() {
        given().when().get("/api/tools/search_schema")
                .then().statusCode(200)
                .body("parameters.properties.query.type", is("string"))
                .body("parameters.properties.query.maxLength", is(1000))
                .body("parameters.properties.limit.minimum", is(1))
                .body("parameters.properties.limit.maximum", is(50))
                .body("parameters.properties.limit.default", is(10))
                .body("parameters.required", is(List.of("query")));
    }

    @Test
    void findsTheTablesAQuestionNeedsBestFirst() {
        searchSchema("{\"query\":\"Which artists released the most albums?\",\"limit\":3}")
                .statusCode(200)
                .body("result.tables", hasSize(3))
                .body("result.tables.table", hasItem("public.artist"))
                .body("result.tables.table", hasItem("public.album"))
                .body("result.tables.score", everyItem(lessThanOrEqualTo(1.0f)))
                .body("result.tables[0].score", greaterThan(0.0f));
    }

    @Test
    void findsATableByMeaningWhenNoWordMatches() {
        // No table or column is named after songs or music styles: track and genre are found by meaning.
        searchSchema("{\"query\":\"songs by music style\",\"limit\":5}")
                .statusCode(200)
                .body("result.tables.table", hasItem("public.track"))
                .body("result.tables.table", hasItem("public.genre"));
    }

    @Test
    void theLimitBoundsTheAnswerAndDefaultsToTen() {
        searchSchema("{\"query\":\"invoice customer\",\"limit\":1}").statusCode(200).body("result.tables", hasSize(1));
        searchSchema("{\"query\":\"invoice customer\"}").statusCode(200).body("result.tables", hasSize(10));
    }

    @Test
    void aLimitOutsideOneToFiftyIsRefusedNamingIt() {
        for (String limit : List.of("0", "51", "-3", "\"ten\"", "2.5")) {
            searchSchema("{\"query\":\"invoices\",\"limit\":" + limit + "}")
                    .statusCode(400)
                    .body("error", is("invalid_arguments"))
                    .body("details[0].argument", is("limit"));
        }
    }

    @Test
    void anEmptyBlankMissingOrOverlongQueryIsRefusedNamingIt() {
        for (String body : List.of("{\"query\":\"\"}", "{\"query\":\"   \"}", "{}", "{\"query\":42}",
                "{\"query\":\"" + "x".repeat(1001) + "\"}")) {
            searchSchema(body)
                    .statusCode(400)
                    .body("error", is("invalid_arguments"))
                    .body("message", startsWith("Invalid arguments for tool 'search_schema'"))
                    .body("details[0].argument", is("query"));
        }
    }

    @Test
    void aQueryOfOnlyPunctuationFindsByMeaningOrNothingButNeverFails() {
        searchSchema("{\"query\":\"?!\"}").statusCode(200);
    }

    @Test
    void aQueryWithNothingTheModelCanReadIsRankedByWordsAndNeverFails() {
        // A NUL, a zero-width space or half a surrogate pair gives the model's tokenizer nothing, and it refused to embed
        // them: 422 with the library's exception. The pattern \\S lets them through, as they are not white space.
        for (String query : List.of("\\u0000", "\\u200b", "\\ud800", "\\u0000\\ud800\\u200b")) {
            searchSchema("{\"query\":\"" + query + "\"}").statusCode(200).body("result.tables", notNullValue());
        }
        searchSchema("{\"query\":\"\\u200bgenres\\u0000\"}").statusCode(200).body("result.tables[0].table", is("public.genre"));
    }

    @Test
    void isOfferedAndCallableOverMcp() throws Exception {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        boolean[] listed = new boolean[1];
        client.when().toolsList(page -> listed[0] = page.tools().stream().anyMatch(tool -> tool.name().equals("search_schema")))
                .thenAssertResults();
        assertTrue(listed[0]);

        ToolResponse[] response = new ToolResponse[1];
        client.when().toolsCall("search_schema").withArguments(Map.of("query", "employees and who they report to", "limit", 2))
                .withAssert(r -> response[0] = r).send().thenAssertResults();

        String text = response[0].firstContent().asText().text();
        assertFalse(response[0].isError(), text);
        JsonNode tables = SnakeCaseJson.MAPPER.readTree(text).path("tables");
        assertEquals(2, tables.size());
        assertEquals("public.employee", tables.get(0).path("table").asText());
        client.disconnect();
    }

    /**
     * The driver itself, not DriverManager: after another test profile's restart DriverManager may hold the driver of an
     * earlier class loader only, which it refuses to hand to this one ("No suitable driver").
     */
    private Connection connect() throws Exception {
        Properties login = new Properties();
        login.setProperty("user", EmbeddedDatabase.USER);
        return new org.postgresql.Driver().connect("jdbc:" + defaultSourceUrl, login);
    }

    @Test
    void theIndexFollowsSchemaChangesOnRefreshWhileSearchesUseTheOldOne() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE public.podcast_episode (episode_id int PRIMARY KEY, title text)");
            statement.execute("COMMENT ON TABLE public.podcast_episode IS 'Episodes of the store''s podcasts'");
            try {
                search.index().await().atMost(java.time.Duration.ofSeconds(60));
                SchemaSearch.Build build = search.refresh();
                // Until the rebuild is in, a search still answers, from the old index.
                searchSchema("{\"query\":\"albums\"}").statusCode(200);
                build.done().get(60, TimeUnit.SECONDS);
                searchSchema("{\"query\":\"podcast episodes\",\"limit\":1}").statusCode(200)
                        .body("result.tables[0].table", is("public.podcast_episode"));
            } finally {
                statement.execute("DROP TABLE public.podcast_episode");
            }
            search.refresh().done().get(60, TimeUnit.SECONDS);
            searchSchema("{\"query\":\"podcast episodes\"}").statusCode(200)
                    .body("result.tables.table", not(hasItem("public.podcast_episode")));
        }
    }

    @Test
    void aRefreshAskedWhileARebuildIsUnderWaySeesTheChangeMadeBeforeIt() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            // Given a rebuild under way, with 150 new tables to embed, that read the catalog before the migration
            statement.execute("""
                    CREATE SCHEMA refresh_load;
                    DO $$ BEGIN FOR i IN 1..150 LOOP
                        EXECUTE format('CREATE TABLE refresh_load.ledger_%s (id int, note text)', i);
                        EXECUTE format('COMMENT ON TABLE refresh_load.ledger_%s IS %L', i, 'Ledger number ' || i);
                    END LOOP; END $$""");
            try {
                search.index().await().atMost(java.time.Duration.ofSeconds(60));
                SchemaSearch.Build underWay = search.refresh();
                underWay.words().get(60, TimeUnit.SECONDS);
                statement.execute("CREATE TABLE public.lighthouse_keeper (keeper_id int PRIMARY KEY, lamp text)");
                assertFalse(underWay.done().isDone(), "the first rebuild is still embedding");
                // When a refresh is asked after the migration
                SchemaSearch.Build asked = search.refresh();
                asked.done().get(120, TimeUnit.SECONDS);
                // Then the index it completes with has the new table, and searches find it
                assertTrue(asked.done().get().entries().stream()
                        .anyMatch(entry -> entry.table().equals("public.lighthouse_keeper")));
                searchSchema("{\"query\":\"lighthouse keepers\",\"limit\":1}").statusCode(200)
                        .body("result.tables[0].table", is("public.lighthouse_keeper"));
            } finally {
                statement.execute("DROP TABLE IF EXISTS public.lighthouse_keeper; DROP SCHEMA refresh_load CASCADE");
                search.refresh().done().get(120, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aRefreshOnDemandAnswersAtOnceAndNeedsAdmin() {
        given().when().post("/api/schema/refresh")
                .then().statusCode(202)
                .body("source", is("default"));
        given().header("X-Test-Principal", "reader").header("X-Test-Scopes", "sql:read")
                .when().post("/api/schema/refresh")
                .then().statusCode(403)
                .body("error", is("forbidden"))
                .body("message", is("Rebuilding the schema index needs scope 'admin', which caller 'reader' does not have"));
        given().header("X-Test-Principal", "reader").header("X-Test-Scopes", "sql:read")
                .when().get("/api/schema/index")
                .then().statusCode(200)
                .body("source", is("default"))
                // Named as every other body names its fields; the time an ISO-8601 instant.
                .body("keySet()", hasItems("source", "state", "tables", "semantic", "built_at", "build_millis",
                        "embedding_millis", "error"))
                .body("built_at", anyOf(nullValue(), matchesPattern("\\d{4}-\\d{2}-\\d{2}T.*Z")));
    }

    @Test
    void describesLowCardinalityTextColumnsWithTheirValues() {
        given().contentType(ContentType.JSON).body("{\"table_name\":\"media_type\"}")
                .when().post("/api/tools/introspect_schema")
                .then().statusCode(200)
                .body("result.columns.find { it.name == 'name' }.values", hasItem("MPEG audio file"))
                .body("result.columns.find { it.name == 'name' }.values", hasSize(5))
                .body("result.columns.find { it.name == 'media_type_id' }.values", is((Object) null));
        // Thousands of track names: no hint.
        given().contentType(ContentType.JSON).body("{\"table_name\":\"track\"}")
                .when().post("/api/tools/introspect_schema")
                .then().statusCode(200)
                .body("result.columns.find { it.name == 'name' }.values", is((Object) null));
    }
}
