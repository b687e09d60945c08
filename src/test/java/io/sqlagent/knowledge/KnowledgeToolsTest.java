package io.sqlagent.knowledge;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.ScriptedModel;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The knowledge tools over REST against the real store: the shipped Chinook knowledge is loaded and
 * found, saved learnings and patterns round-trip through search, and duplicates, refused SQL and
 * invalid arguments leave the store as it was.
 */
@QuarkusTest
@ScriptedModel
class KnowledgeToolsTest {

    @Inject
    Pool store;

    @Inject
    KnowledgeLoader loader;

    private static ValidatableResponse call(String tool, ObjectNode arguments) {
        return given().contentType(ContentType.JSON).body(arguments.toString()).when().post("/api/tools/" + tool).then();
    }

    private static ObjectNode search(String query) {
        return SnakeCaseJson.MAPPER.createObjectNode().put("query", query);
    }

    private long count(String sql, Object... values) {
        return store.preparedQuery(sql).execute(Tuple.from(List.of(values))).await().atMost(Duration.ofSeconds(10))
                .iterator().next().getLong(0);
    }

    private static ObjectNode pattern(String name, String question, String sql) {
        ObjectNode arguments = SnakeCaseJson.MAPPER.createObjectNode().put("name", name).put("question", question)
                .put("sql", sql)
                .put("summary", "Albums per artist, most first.");
        arguments.putArray("tables_used").add("album").add("artist");
        return arguments;
    }

    @Test
    void keepsTheContractDescriptionsAndParameters() {
        given().when().get("/api/tools/search_knowledge").then().statusCode(200)
                .body("description", is(
                        "Search the knowledge base for relevant query patterns and learnings. Use this to find similar queries, understand business logic, or discover past learnings about the database."))
                .body("parameters.properties.query.description", is("The search query to find relevant knowledge."))
                .body("parameters.properties.type.enum", is(List.of("all", "patterns", "learnings")))
                .body("parameters.properties.limit.minimum", is(1))
                .body("parameters.properties.limit.maximum", is(20))
                .body("parameters.required", is(List.of("query")))
                .body("read_only", is(true));
        given().when().get("/api/tools/save_learning").then().statusCode(200)
                .body("description", is(
                        "Save a new learning to the knowledge base. Use this when you discover something important about the database schema, business logic, or query patterns that would be useful for future queries."))
                .body("parameters.properties.category.enum",
                        is(List.of("type_error", "schema_fix", "query_pattern", "data_quality", "business_logic")))
                .body("parameters.required", is(List.of("title", "description", "category")));
        given().when().get("/api/tools/save_validated_query").then().statusCode(200)
                .body("description", is(
                        "Save a validated query pattern to the knowledge base. Use this when you have successfully executed a SQL query that correctly answers a user question. This helps future queries by providing proven patterns."))
                .body("parameters.properties.tables_used.type", is("array"))
                .body("parameters.properties.tables_used.items.type", is("string"))
                .body("parameters.required", is(List.of("name", "question", "sql", "summary", "tables_used")));
    }

    @Test
    void shippedPatternsAreLoadedAndTheBestComesFirst() {
        assertEquals(9, count("SELECT count(*) FROM query_pattern WHERE source = 'file' AND source_file = $1",
                "classpath:knowledge/chinook.json"));
        call("search_knowledge", search("revenue by country")).statusCode(200)
                .body("result.query_patterns[0].name", is("revenue_by_country"))
                .body("result.query_patterns[0].tables_used", is(List.of("invoice", "invoice_line")))
                .body("result.query_patterns[0].relevance_score", greaterThan(0f))
                .body("result.total_found", greaterThan(0));
    }

    @Test
    void typeFiltersAndTheLimitBoundsTheWholeAnswer() {
        call("search_knowledge", search("revenue").put("type", "patterns")).statusCode(200)
                .body("result.learnings", empty())
                .body("result.query_patterns", not(empty()));
        // The revenue business rule comes back as a learning.
        call("search_knowledge", search("revenue").put("type", "learnings")).statusCode(200)
                .body("result.query_patterns", empty())
                .body("result.learnings.title", hasItem("revenue"))
                .body("result.learnings.find { it.title == 'revenue' }.category", is("business_logic"));
        call("search_knowledge", search("revenue").put("limit", 2)).statusCode(200)
                .body("result.total_found", is(2));
        call("search_knowledge", search("revenue").put("limit", 20)).statusCode(200)
                .body("result.total_found", lessThanOrEqualTo(20));
        call("search_knowledge", search("zzqx nothing-matches-qqzz")).statusCode(200)
                .body("result.total_found", is(0));
        call("search_knowledge", search("!!! &&& ::")).statusCode(200).body("result.total_found", is(0));
        call("search_knowledge", search("revenue").put("limit", 0)).statusCode(400).body("error", is("invalid_arguments"));
        call("search_knowledge", search("revenue").put("limit", 21)).statusCode(400).body("error", is("invalid_arguments"));
        call("search_knowledge", search("revenue").put("type", "everything")).statusCode(400);
    }

    @Inject
    io.micrometer.core.instrument.MeterRegistry meters;

    private double saved(String kind, String category) {
        var counter = meters.find("sqlagent.knowledge.saved").tags("kind", kind, "category", category).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void theShippedKnowledgeIsLoadedForTheEmbeddedDemo() {
        // Source default is the embedded Chinook demo here; ExternalSourceTest has a database of the user's own.
        assertEquals("classpath:knowledge/chinook.json", loader.documents().get(0).name());
    }

    @Test
    void aLearningIsSavedOnceAndFound() {
        double savedBefore = saved("learning", "data_quality");
        String title = "Quokka prices are stored in cents " + UUID.randomUUID().toString().substring(0, 8);
        ObjectNode learning = SnakeCaseJson.MAPPER.createObjectNode().put("title", title)
                .put("description", "The quokka table stores prices in cents; divide by 100.")
                .put("category", "data_quality").put("sql", "SELECT 1");
        int id = call("save_learning", learning).statusCode(200)
                .body("result.success", is(true))
                .body("result.message", is("Learning saved successfully."))
                .body("result.title", is(title))
                .body("result.category", is("data_quality"))
                .extract().jsonPath().getInt("result.learning_id");
        call("search_knowledge", search("quokka cents").put("type", "learnings")).statusCode(200)
                .body("result.learnings[0].title", is(title))
                .body("result.learnings[0].sql", is("SELECT 1"))
                .body("result.learnings[0].category", is("data_quality"));

        learning.put("title", "  " + title.toUpperCase() + " ");
        call("save_learning", learning).statusCode(422)
                .body("error", is("tool_failed"))
                .body("message", containsString("already known"))
                .body("message", containsString("id " + id));
        assertEquals(1, count("SELECT count(*) FROM learning WHERE lower(title) = lower($1)", title));
        assertEquals(1, count("SELECT count(*) FROM learning WHERE id = $1 AND source = 'rest'", (long) id));
        assertEquals(savedBefore + 1, saved("learning", "data_quality"), "the refused duplicate must not count");
    }

    @Test
    void invalidLearningsAreRefusedBeforeRunning() {
        ObjectNode learning = SnakeCaseJson.MAPPER.createObjectNode().put("title", "Wrong category").put("description", "x")
                .put("category", "gossip");
        call("save_learning", learning).statusCode(400).body("error", is("invalid_arguments"));
        learning.put("category", "schema_fix").put("title", "x".repeat(101));
        call("save_learning", learning).statusCode(400).body("error", is("invalid_arguments"));
        learning.remove("title");
        call("save_learning", learning).statusCode(400).body("error", is("invalid_arguments"));
        assertEquals(0, count("SELECT count(*) FROM learning WHERE title = 'Wrong category' OR length(title) > 100"));
    }

    @Test
    void textTheStoreCannotHoldIsRefusedNamingTheArgumentAndNothingIsSaved() {
        // PostgreSQL text holds no NUL, and half a surrogate pair is no UTF-8: refused as the caller's mistake (400), not a
        // failed tool with an error id (422), whichever argument holds it.
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String nul = "\u0000";
        ObjectNode learning = SnakeCaseJson.MAPPER.createObjectNode().put("title", "Weights " + suffix)
                .put("description", "grams" + nul + "not kilograms").put("category", "data_quality");
        call("save_learning", learning).statusCode(400)
                .body("error", is("invalid_arguments"))
                .body("message", containsString("description holds a NUL character (U+0000)"))
                .body("details[0].argument", is("description"));
        // Half a pair only travels as a JSON escape: a Java string holding one would be sent as '?'.
        String halfPair = learning.put("description", "grams").put("sql", "SELECT 1 -- HALF").toString().replace("HALF",
                "\\ud800");
        given().contentType(ContentType.JSON).body(halfPair).when().post("/api/tools/save_learning").then().statusCode(400)
                .body("details[0].argument", is("sql"))
                .body("details[0].problem", containsString("half of a surrogate pair"));
        // Only invisible characters (a zero-width space) are blank too: before, the model refused to embed them (422 with
        // its exception and an error id).
        learning.put("title", "\u200b\u2060").put("description", "\u200b").remove("sql");
        call("save_learning", learning).statusCode(422).body("message", is("The title and the description must not be blank."));
        assertEquals(0, count("SELECT count(*) FROM learning WHERE title = $1 OR title = $2", "Weights " + suffix,
                "\u200b\u2060"));

        ObjectNode pattern = pattern("weights_" + suffix, "Which tracks weigh most " + suffix + "?", "SELECT 1");
        pattern.putArray("tables_used").add("track").add("al" + nul + "bum");
        pattern.put("summary", "the " + nul + " heaviest");
        call("save_validated_query", pattern).statusCode(400)
                .body("error", is("invalid_arguments"))
                .body("details.argument", is(List.of("summary", "tables_used[1]")))
                .body("message", containsString("nothing was saved"));
        assertEquals(0, count("SELECT count(*) FROM query_pattern WHERE name = $1", "weights_" + suffix));
        pattern.putArray("tables_used").add("track");
        pattern.put("summary", "the heaviest");
        call("save_validated_query", pattern).statusCode(200).body("result.success", is(true));
    }

    @Test
    void aValidatedQueryIsSavedAndFoundAndTheSameQuestionIsRefused() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String question = "How many albums does each wombat artist have " + suffix + "?";
        ObjectNode saved = pattern("albums_per_wombat_" + suffix, question,
                "SELECT ar.name, count(*) AS albums FROM album al JOIN artist ar USING (artist_id) GROUP BY ar.name ORDER BY albums DESC");
        int id = call("save_validated_query", saved).statusCode(200)
                .body("result.success", is(true))
                .body("result.message", is("Query pattern saved successfully."))
                .body("result.name", is("albums_per_wombat_" + suffix))
                .body("result.tables_used", is(List.of("album", "artist")))
                .extract().jsonPath().getInt("result.pattern_id");
        call("search_knowledge", search("wombat albums " + suffix).put("type", "patterns")).statusCode(200)
                .body("result.query_patterns[0].name", is("albums_per_wombat_" + suffix))
                .body("result.query_patterns[0].question", is(question));

        call("save_validated_query", pattern("another_name_" + suffix, " " + question.toUpperCase(), "SELECT 1"))
                .statusCode(422)
                .body("message", is("A validated query for this question already exists: 'albums_per_wombat_" + suffix
                        + "' (id " + id + ")"));
        call("save_validated_query", pattern("albums_per_wombat_" + suffix, "A different question " + suffix, "SELECT 1"))
                .statusCode(422).body("message", containsString("already exists (id " + id + ")"));
        assertEquals(1, count("SELECT count(*) FROM query_pattern WHERE name LIKE $1", "%" + suffix));
        assertEquals(1, count("SELECT count(*) FROM query_pattern WHERE id = $1 AND source = 'agent'", (long) id));
    }

    @Test
    void sqlTheGuardRefusesIsNotSaved() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        call("save_validated_query",
                pattern("delete_all_" + suffix, "Remove every invoice line " + suffix, "DELETE FROM invoice_line"))
                .statusCode(403)
                .body("error", is("blocked"))
                .body("message", containsString("DELETE statements are not allowed"));
        assertEquals(0, count("SELECT count(*) FROM query_pattern WHERE name LIKE $1", "%" + suffix));
        ObjectNode noTables = pattern("no_tables_" + suffix, "q " + suffix, "SELECT 1");
        noTables.remove("tables_used");
        call("save_validated_query", noTables).statusCode(400).body("error", is("invalid_arguments"));
        call("save_validated_query", pattern("x".repeat(101), "q " + suffix, "SELECT 1")).statusCode(400);
        assertEquals(0, count("SELECT count(*) FROM query_pattern WHERE question LIKE $1", "%" + suffix));
    }

    @Test
    void loadingIsIdempotentAndSkipsWhatIsInvalid() {
        String file = """
                {"rules": [{"name": "loader rule", "description": "Reloading keeps one row."}],
                 "query_patterns": [
                   {"name": "loader_ok", "question": "Loader ok?", "sql": "SELECT 1", "summary": "s", "tables_used": []},
                   {"name": "loader_delete", "question": "Loader delete?", "sql": "DELETE FROM track", "summary": "s"},
                   {"name": "loader_no_sql", "question": "Loader no sql?", "summary": "s"}]}
                """;
        KnowledgeLoader.Document document = new KnowledgeLoader.Document("test-loader.json", file);
        assertEquals(2, loader.load(document).await().atMost(Duration.ofSeconds(10)));
        assertEquals(2, loader.load(document).await().atMost(Duration.ofSeconds(10)));
        assertEquals(1, count("SELECT count(*) FROM query_pattern WHERE source_file = 'test-loader.json'"));
        assertEquals(1, count("SELECT count(*) FROM knowledge_doc WHERE source_file = 'test-loader.json'"));
        assertEquals(0, count("SELECT count(*) FROM query_pattern WHERE name IN ('loader_delete', 'loader_no_sql')"));
        // Not JSON, or an unknown section: the file is skipped, and the error names it.
        assertEquals(0, loader.load(new KnowledgeLoader.Document("broken.json", "{\"rules\": [")).await()
                .atMost(Duration.ofSeconds(10)));
        IllegalArgumentException error = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> KnowledgeLoader.parse(new KnowledgeLoader.Document("typo.json", "{\"query_pattern\": []}")));
        org.junit.jupiter.api.Assertions.assertTrue(error.getMessage().startsWith("Knowledge file typo.json is not valid"),
                error.getMessage());
    }

    @Test
    void listsTheSaveTools() {
        given().when().get("/api/tools").then().statusCode(200)
                .body("name", hasItem("save_learning"))
                .body("name", hasItem("save_validated_query"))
                .body("name", hasItem("search_knowledge"))
                .body("findAll { it.name == 'save_learning' }", hasSize(1));
    }
}
