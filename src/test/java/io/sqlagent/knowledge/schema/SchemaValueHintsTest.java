package io.sqlagent.knowledge.schema;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;

/**
 * Column values in the schema index, read from the real PostgreSQL statistics: a question naming a value finds the
 * table holding it, and the values of a hidden column ({@code *.phone}), of a denied table ({@code vault.*}) and of a
 * table with row-level security neither steer {@code search_schema} nor appear in what it answers.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class SchemaValueHintsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    SourceRegistry sources;

    @Inject
    SchemaSearch search;

    private Source source() {
        return sources.find("default").orElseThrow();
    }

    private void execute(String sql) {
        source().executeWriting(sql).await().atMost(WAIT);
    }

    private void rebuild() throws Exception {
        search.refresh().done().get(180, TimeUnit.SECONDS);
    }

    @BeforeEach
    void createTablesWithDistinctiveValues() throws Exception {
        execute("""
                CREATE TABLE public.courier (courier_id int PRIMARY KEY, zone text, phone text);
                INSERT INTO public.courier SELECT i, CASE WHEN i % 2 = 0 THEN 'Quillback' ELSE 'Tarpon' END, 'Sturgeonite'
                    FROM generate_series(1, 40) i;
                CREATE SCHEMA IF NOT EXISTS vault;
                CREATE TABLE vault.cellar (cellar_id int PRIMARY KEY, shelf text);
                INSERT INTO vault.cellar SELECT i, 'Marblefin' FROM generate_series(1, 40) i;
                CREATE TABLE public.courier_note (note_id int PRIMARY KEY, mood text);
                INSERT INTO public.courier_note SELECT i, 'Wobbegong' FROM generate_series(1, 40) i;
                ALTER TABLE public.courier_note ENABLE ROW LEVEL SECURITY;
                ANALYZE public.courier, vault.cellar, public.courier_note;""");
        rebuild();
    }

    @AfterEach
    void dropThem() throws Exception {
        execute("DROP TABLE IF EXISTS public.courier, vault.cellar, public.courier_note; DROP SCHEMA IF EXISTS vault");
        rebuild();
    }

    private static String searchSchema(String query) {
        return given().contentType(ContentType.JSON).body(Map.of("query", query, "limit", 50))
                .when().post("/api/tools/search_schema")
                .then().statusCode(200).extract().asString();
    }

    private static List<String> tables(String query) {
        return given().contentType(ContentType.JSON).body(Map.of("query", query, "limit", 5))
                .when().post("/api/tools/search_schema")
                .then().statusCode(200).extract().jsonPath().getList("result.tables.table", String.class);
    }

    @Test
    void aValueOfAVisibleColumnFindsItsTable() {
        // No name holds the word: the value alone brings the table among the first five.
        assertThat(tables("parcels for quillback")).contains("public.courier");
    }

    @Test
    void valuesThePolicyHidesNeitherSteerNorShow() {
        // The statistics hold them all (the test's role owns the tables, so row-level security does not hide them).
        Map<String, Map<String, List<String>>> statistics = ColumnValues.read(source(), 100).await().atMost(WAIT);
        assertThat(statistics.get("public.courier")).containsKeys("zone", "phone");
        assertThat(statistics).containsKey("vault.cellar").doesNotContainKey("public.courier_note");

        // None of them is in the index the service searches, so none can steer a search: with the words of the
        // question naming no table, only a value could bring one.
        SchemaIndex index = search.index().await().atMost(WAIT);
        assertThat(index.entries()).flatExtracting(SchemaIndex.Entry::values).contains("Quillback", "Tarpon")
                .doesNotContain("Sturgeonite", "Marblefin", "Wobbegong");
        assertThat(index.entries()).extracting(SchemaIndex.Entry::table).doesNotContain("vault.cellar");
        for (String value : List.of("sturgeonite", "marblefin", "wobbegong")) {
            assertThat(index.search(value, null, List.of(), 5)).isEmpty();
        }
        assertThat(index.search("quillback", null, List.of(), 5)).extracting(SchemaIndex.Hit::table)
                .containsExactly("public.courier");
        for (String query : List.of("sturgeonite", "marblefin", "wobbegong", "courier cellar note mood shelf phone")) {
            assertThat(searchSchema(query)).doesNotContainIgnoringCase("sturgeonite").doesNotContainIgnoringCase("marblefin")
                    .doesNotContainIgnoringCase("wobbegong").doesNotContain("vault.cellar");
        }
    }
}
