package io.sqlagent.knowledge;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkiverse.mcp.server.test.McpAssured.ToolInfo;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;
import io.sqlagent.security.TestIdentities;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.core.MultiMap;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Governed learning ({@code sqlagent.learning.approval=required}, set by the Features profile): what
 * the agent and callers save is a proposal that {@code search_knowledge} never returns until a
 * reviewer with scope {@code knowledge:review} approves it, over REST or MCP; every item keeps its
 * provenance; validated queries are run before they are kept and flagged when they break or drift;
 * a learning that says the same as a stored one is refused with a pointer to it. Every refused
 * request is checked to have changed nothing.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class GovernedLearningTest {

    private static final Map<String, String> REVIEWER = TestIdentities.headers("rita", "knowledge:review", null);
    private static final Map<String, String> WRITER = TestIdentities.headers("wes", "knowledge:write,knowledge:read", null);

    @Inject
    Pool store;

    @Inject
    SourceRegistry sources;

    @TestHTTPResource("/api/chat")
    URI chat;

    private static String unique() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    private static ValidatableResponse tool(String name, ObjectNode arguments, Map<String, String> headers) {
        return given().headers(headers).contentType(ContentType.JSON).body(arguments.toString()).when()
                .post("/api/tools/" + name).then();
    }

    private static ValidatableResponse tool(String name, ObjectNode arguments) {
        return tool(name, arguments, Map.of());
    }

    private static ObjectNode learning(String title, String description) {
        return SnakeCaseJson.MAPPER.createObjectNode().put("title", title).put("description", description)
                .put("category", "data_quality");
    }

    private static ObjectNode query(String name, String question, String sql) {
        ObjectNode arguments = SnakeCaseJson.MAPPER.createObjectNode().put("name", name).put("question", question)
                .put("sql", sql)
                .put("summary", "A summary.");
        arguments.putArray("tables_used").add("track");
        return arguments;
    }

    private static List<String> searched(String words) {
        return tool("search_knowledge", SnakeCaseJson.MAPPER.createObjectNode().put("query", words).put("limit", 20))
                .statusCode(200)
                .extract().jsonPath().getList("result.learnings.title");
    }

    private static List<String> searchedPatterns(String words) {
        return tool("search_knowledge", SnakeCaseJson.MAPPER.createObjectNode().put("query", words).put("type", "patterns")
                .put("limit", 20)).statusCode(200).extract().jsonPath().getList("result.query_patterns.name");
    }

    private static ValidatableResponse review(String method, String path, String body, Map<String, String> headers) {
        var request = given().headers(headers);
        if (body != null) {
            request = request.contentType(ContentType.JSON).body(body);
        }
        return request.when().request(method, "/api/knowledge/" + path).then();
    }

    private static JsonPath proposals() {
        return review("GET", "proposals?limit=100", null, REVIEWER).statusCode(200).extract().jsonPath();
    }

    private String row(String sql, Object... values) {
        var rows = store.preparedQuery(sql).execute(Tuple.from(List.of(values))).await().atMost(Duration.ofSeconds(10));
        return rows.size() == 0 ? null : String.valueOf(rows.iterator().next().getValue(0));
    }

    private void chinook(String sql) {
        sources.find("default").orElseThrow().executeWriting(sql).await().atMost(Duration.ofSeconds(10));
    }

    @Test
    void aSavedLearningIsProposedUnsearchedAndSearchedOnceApprovedWithEdits() {
        String word = "ocelot" + unique();
        int id = tool("save_learning", learning("Prices of " + word + " are in cents", "Divide " + word + " prices by 100."),
                WRITER).statusCode(200)
                .body("result.success", is(true))
                .body("result.status", is("proposed"))
                .body("result.message", is("Learning proposed; it is used once a reviewer approves it."))
                .extract().jsonPath().getInt("result.learning_id");
        String itemId = "learning-" + id;
        assertFalse(searched(word).contains("Prices of " + word + " are in cents"), "a proposal is never searched");

        JsonPath listed = proposals();
        int index = listed.getList("items.id").indexOf(itemId);
        assertTrue(index >= 0, listed.prettify());
        String item = "items[" + index + "].";
        assertEquals("learning", listed.getString(item + "kind"));
        assertEquals("proposed", listed.getString(item + "status"));
        assertEquals("Prices of " + word + " are in cents", listed.getString(item + "title"));
        assertEquals("wes", listed.getString(item + "provenance.proposed_by"));
        assertEquals("rest", listed.getString(item + "provenance.source"));
        assertTrue(listed.getString(item + "provenance.proposed_at") != null);

        review("POST", "proposals/" + itemId + "/approve", "{\"title\": \"Prices of " + word + " are stored in cents\"}",
                REVIEWER)
                .statusCode(200)
                .body("id", is(itemId))
                .body("status", is("approved"))
                .body("title", is("Prices of " + word + " are stored in cents"))
                .body("description", is("Divide " + word + " prices by 100."))
                .body("provenance.proposed_by", is("wes"))
                .body("provenance.reviewed_by", is("rita"))
                .body("provenance.reviewed_at", notNullValue());
        assertEquals(List.of("Prices of " + word + " are stored in cents"), searched(word));
        assertFalse(proposals().getList("items.id").contains(itemId));

        // Decided once: a second approval or a rejection is refused and changes nothing.
        review("POST", "proposals/" + itemId + "/approve", "{\"title\": \"Another title\"}", REVIEWER).statusCode(409)
                .body("error", is("already_reviewed"))
                .body("message", containsString("approved by rita"));
        review("POST", "proposals/" + itemId + "/reject", null, REVIEWER).statusCode(409).body("error", is("already_reviewed"));
        assertEquals("Prices of " + word + " are stored in cents", row("SELECT title FROM learning WHERE id = $1", (long) id));
        assertEquals("approved", row("SELECT status FROM learning WHERE id = $1", (long) id));
    }

    @Test
    void aRejectedLearningKeepsItsReasonAndIsNeverSearchedNorProposedAgain() {
        String word = "tapir" + unique();
        String title = "The " + word + " table is empty";
        int id = tool("save_learning", learning(title, "Nothing is ever written to " + word + "."), WRITER).statusCode(200)
                .extract().jsonPath().getInt("result.learning_id");

        review("POST", "proposals/learning-" + id + "/reject", "{\"reason\": \"It is not empty.\"}", REVIEWER).statusCode(200)
                .body("status", is("rejected"))
                .body("provenance.reviewed_by", is("rita"))
                .body("provenance.review_note", is("It is not empty."));
        assertFalse(searched(word).contains(title));
        review("POST", "proposals/learning-" + id + "/approve", null, REVIEWER).statusCode(409)
                .body("message", containsString("rejected by rita"));
        tool("save_learning", learning(title, "Nothing is ever written to " + word + "."), WRITER).statusCode(422)
                .body("message", containsString("already known"))
                .body("message", containsString("rejected"));
        assertEquals("1", row("SELECT count(*) FROM learning WHERE title = $1", title));
    }

    @Test
    void aRejectionBodyIsBoundStrictlyAfterTheScopeCheckAndChangesNothing() {
        String word = "quokka" + unique();
        int id = tool("save_learning", learning("Column " + word + " holds grams", "The " + word + " weights are grams."),
                WRITER).statusCode(200).extract().jsonPath().getInt("result.learning_id");
        String reject = "proposals/learning-" + id + "/reject";
        Map<String, String[]> bad = new LinkedHashMap<>();
        bad.put("null", new String[] { "invalid_body", "The body must be a JSON object {\"reason\": …}, not null" });
        bad.put("[]", new String[] { "invalid_body", "not an array" });
        bad.put("\"no\"", new String[] { "invalid_body", "not a string" });
        bad.put("7", new String[] { "invalid_body", "not a number" });
        bad.put("{\"reason\": 5}", new String[] { "invalid_body", "\"reason\" must be a string" });
        bad.put("{\"reason\": true}", new String[] { "invalid_body", "\"reason\" must be a string" });
        bad.put("{\"reason\": [\"a\"]}", new String[] { "invalid_body", "\"reason\" must be a string" });
        bad.put("{\"reason\": {\"a\": \"b\"}}", new String[] { "invalid_body", "\"reason\" must be a string" });
        bad.put("{\"reason\": \"a\", \"why\": \"b\"}", new String[] { "invalid_body", "Unknown field 'why'" });
        bad.put("{\"reason\": \"a\", \"reason\": \"b\"}", new String[] { "malformed_json", "reason" });
        bad.put("{\"reason\": \"a\"} {}", new String[] { "malformed_json", "more after its JSON value" });
        bad.put("{\"reason\": ", new String[] { "malformed_json", "not valid JSON" });
        bad.put("{\"reason\": \"" + "x".repeat(2001) + "\"}", new String[] { "invalid_edits", "at most 2000 characters" });
        bad.put("{\"reason\": \"nul \\u0000\"}", new String[] { "invalid_edits", "'reason' holds a NUL character" });
        for (Map.Entry<String, String[]> body : bad.entrySet()) {
            String shown = body.getKey().length() > 60 ? body.getKey().substring(0, 60) + "…" : body.getKey();
            var refused = review("POST", reject, body.getKey(), REVIEWER).extract();
            Assertions.assertThat(refused.statusCode()).as("%s: %s", shown, refused.asString())
                    .isEqualTo(400);
            Assertions.assertThat(refused.jsonPath().getString("error")).as(shown)
                    .isEqualTo(body.getValue()[0]);
            Assertions.assertThat(refused.jsonPath().getString("message")).as(shown)
                    .contains(body.getValue()[1]);
            // Without scope knowledge:review the answer is 403 whatever the body, as before it was bound.
            review("POST", reject, body.getKey(), WRITER).statusCode(403).body("error", is("forbidden"));
        }
        Assertions.assertThat(row("SELECT status FROM learning WHERE id = $1", (long) id))
                .as("every refused rejection left the proposal as it was").isEqualTo("proposed");
        // An empty body and a null reason reject without a note.
        review("POST", reject, "{\"reason\": null}", REVIEWER).statusCode(200).body("status", is("rejected"));
    }

    @Test
    void badReviewRequestsAreRefusedAndChangeNothing() {
        String word = "numbat" + unique();
        String title = "Column " + word + " holds kilograms";
        int id = tool("save_learning", learning(title, "The " + word + " weights are kilograms."), WRITER).statusCode(200)
                .extract().jsonPath().getInt("result.learning_id");
        String path = "proposals/learning-" + id;

        // Unknown ids: 404.
        review("POST", "proposals/learning-999999999/approve", null, REVIEWER).statusCode(404)
                .body("error", is("proposal_not_found"));
        review("POST", "proposals/bogus/reject", null, REVIEWER).statusCode(404).body("error", is("proposal_not_found"));
        review("DELETE", "items/query-999999999", null, REVIEWER).statusCode(404).body("error", is("proposal_not_found"));
        review("GET", "items/learning-999999999", null, REVIEWER).statusCode(404);
        // Edits that are not valid: 400, naming each problem.
        review("POST", path + "/approve", "{\"category\": \"gossip\", \"name\": \"x\", \"description\": \" \"}", REVIEWER)
                .statusCode(400)
                .body("error", is("invalid_edits"))
                .body("message", containsString("'category' must be one of"))
                .body("message", containsString("'name' cannot be edited on a learning"))
                .body("message", containsString("'description' must be a non-blank string"));
        review("POST", path + "/approve", "{\"title\": \"" + "x".repeat(101) + "\"}", REVIEWER).statusCode(400)
                .body("message", containsString("at most 100 characters"));
        review("POST", path + "/approve", "{\"title\": \"half \\udc00 pair\", \"description\": \"a\\u0000b\"}", REVIEWER)
                .statusCode(400)
                .body("error", is("invalid_edits"))
                .body("message", containsString("'title' holds a NUL character (U+0000) or half of a surrogate pair"))
                .body("message", containsString("'description' holds"));
        review("POST", path + "/approve", "{\"title\": ", REVIEWER).statusCode(400).body("error", is("malformed_json"));
        review("POST", path + "/approve", "[]", REVIEWER).statusCode(400).body("error", is("invalid_body"));
        review("POST", path + "/reject", "{\"because\": \"no\"}", REVIEWER).statusCode(400).body("error", is("invalid_body"))
                .body("message", is("Unknown field 'because': a rejection takes only \"reason\""));
        // A long unknown name is quoted shortened, never whole.
        review("POST", path + "/reject", "{\"" + "x".repeat(500) + "\": 1}", REVIEWER).statusCode(400)
                .body("message", is("Unknown field '" + "x".repeat(40) + "…': a rejection takes only \"reason\""));
        review("POST", path + "/reject", "{\"reason\": \"" + "x".repeat(2001) + "\"}", REVIEWER).statusCode(400);
        // Without scope knowledge:review: 403, for every endpoint that decides (reading is KnowledgeIsolationTest's).
        for (String[] request : List.of(new String[] { "POST", path + "/approve" }, new String[] { "POST", path + "/reject" },
                new String[] { "DELETE", "items/learning-" + id }, new String[] { "POST", "validated-queries/check" })) {
            review(request[0], request[1], null, WRITER).statusCode(403)
                    .body("error", is("forbidden"))
                    .body("message", containsString("knowledge:review"));
        }
        for (String read : List.of("proposals", "items/learning-" + id)) {
            review("GET", read, null, TestIdentities.headers("sam", "sql:read", null)).statusCode(403)
                    .body("error", is("forbidden"))
                    .body("message", containsString("knowledge:read"));
        }

        assertEquals("proposed", row("SELECT status FROM learning WHERE id = $1", (long) id));
        assertEquals(title, row("SELECT title FROM learning WHERE id = $1", (long) id));
        assertEquals(null, row("SELECT reviewed_by FROM learning WHERE id = $1 AND reviewed_by IS NOT NULL", (long) id));
        assertFalse(searched(word).contains(title));
    }

    @Test
    void anItemCanBeReadAndDeleted() {
        String word = "quoll" + unique();
        int id = tool("save_learning", learning("The " + word + " flag is inverted", "A true " + word + " means no."), WRITER)
                .statusCode(200).extract().jsonPath().getInt("result.learning_id");
        review("GET", "items/learning-" + id, null, REVIEWER).statusCode(200)
                .body("status", is("proposed"))
                .body("provenance.reviewed_by", nullValue());
        review("DELETE", "items/learning-" + id, null, REVIEWER).statusCode(204);
        review("GET", "items/learning-" + id, null, REVIEWER).statusCode(404);
        review("DELETE", "items/learning-" + id, null, REVIEWER).statusCode(404);
        assertEquals("0", row("SELECT count(*) FROM learning WHERE id = $1", (long) id));
    }

    @Test
    void aValidatedQueryRunsBeforeItIsKeptAndRecordsItsResultsShape() {
        String suffix = unique();
        tool("save_validated_query", query("broken_" + suffix, "Broken " + suffix + "?", "SELECT trackname FROM track"))
                .statusCode(422)
                .body("message", containsString("The query does not run, so it is not saved"))
                .body("message", containsString("column \"trackname\" does not exist"));
        tool("save_validated_query", query("writes_" + suffix, "Writes " + suffix + "?", "DELETE FROM track")).statusCode(403)
                .body("error", is("blocked"));
        assertEquals("0", row("SELECT count(*) FROM query_pattern WHERE name LIKE $1", "%" + suffix));

        int id = tool("save_validated_query", query("genres_" + suffix, "How many genres " + suffix + "?",
                "SELECT count(*) AS genres FROM genre")).statusCode(200)
                .body("result.status", is("proposed"))
                .body("result.result.columns[0].name", is("genres"))
                .body("result.result.columns[0].type", is("bigint"))
                .body("result.result.row_count", is(1))
                .body("result.result.digest", notNullValue())
                .extract().jsonPath().getInt("result.pattern_id");
        assertFalse(searchedPatterns("genres " + suffix).contains("genres_" + suffix));
        review("GET", "items/query-" + id, null, REVIEWER).statusCode(200)
                .body("kind", is("validated_query"))
                .body("result.columns[0].type", is("bigint"))
                .body("result.check_status", is("ok"))
                .body("provenance.proposed_by", is("anonymous"));

        // An edited SQL runs again (as the reviewer's run_sql) before the approval: one that fails approves nothing.
        review("POST", "proposals/query-" + id + "/approve", "{\"sql\": \"SELECT count(*) AS genres FROM genres\"}", REVIEWER)
                .statusCode(403); // the reviewer has no sql:read
        review("POST", "proposals/query-" + id + "/approve", "{\"sql\": \"SELECT count(*) AS genres FROM genres\"}", Map.of())
                .statusCode(422).body("error", is("tool_failed"));
        assertEquals("proposed", row("SELECT status FROM query_pattern WHERE id = $1", (long) id));
        review("POST", "proposals/query-" + id + "/approve",
                "{\"sql\": \"SELECT count(*) AS genres, 1 AS one FROM genre\", \"tables_used\": [\"genre\"]}", Map.of())
                .statusCode(200)
                .body("status", is("approved"))
                .body("tables_used", is(List.of("genre")))
                .body("result.columns.name", is(List.of("genres", "one")))
                .body("provenance.reviewed_by", is("anonymous"));
        assertTrue(searchedPatterns("genres " + suffix).contains("genres_" + suffix));
    }

    @Test
    void theCheckFlagsQueriesThatDriftedOrNoLongerRunAndSearchLeavesThemOut() {
        String suffix = unique();
        String table = "governed_drift_" + suffix;
        chinook("CREATE TABLE " + table + " (n int)");
        try {
            chinook("INSERT INTO " + table + " VALUES (1)");
            int id = tool("save_validated_query", query("drift_" + suffix, "Drift " + suffix + "?", "SELECT n FROM " + table))
                    .statusCode(200).extract().jsonPath().getInt("result.pattern_id");
            review("POST", "proposals/query-" + id + "/approve", null, Map.of()).statusCode(200);
            assertTrue(searchedPatterns("drift " + suffix).contains("drift_" + suffix));

            JsonPath unchanged = review("POST", "validated-queries/check", null, Map.of()).statusCode(200).extract().jsonPath();
            assertFalse(unchanged.getList("flagged.id").contains("query-" + id), unchanged.prettify());
            assertTrue(unchanged.getInt("checked") >= 1);

            chinook("INSERT INTO " + table + " VALUES (2)");
            JsonPath drifted = review("POST", "validated-queries/check", null, Map.of()).statusCode(200).extract().jsonPath();
            int index = drifted.getList("flagged.id").indexOf("query-" + id);
            assertTrue(index >= 0, drifted.prettify());
            assertEquals("drifted", drifted.getString("flagged[" + index + "].status"));
            assertEquals("drifted", row("SELECT check_status FROM query_pattern WHERE id = $1", (long) id));
            assertFalse(searchedPatterns("drift " + suffix).contains("drift_" + suffix), "a drifted query is not searched");

            // Back as it was: no longer flagged.
            chinook("DELETE FROM " + table + " WHERE n = 2");
            review("POST", "validated-queries/check", null, Map.of()).statusCode(200);
            assertEquals("ok", row("SELECT check_status FROM query_pattern WHERE id = $1", (long) id));
            assertTrue(searchedPatterns("drift " + suffix).contains("drift_" + suffix));

            chinook("DROP TABLE " + table);
            JsonPath failed = review("POST", "validated-queries/check", null, Map.of()).statusCode(200).extract().jsonPath();
            index = failed.getList("flagged.id").indexOf("query-" + id);
            assertEquals("failed", failed.getString("flagged[" + index + "].status"));
            assertTrue(failed.getString("flagged[" + index + "].message").contains("does not exist"));
            assertFalse(searchedPatterns("drift " + suffix).contains("drift_" + suffix));
        } finally {
            chinook("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void aLearningThatSaysTheSameInOtherWordsIsRefusedWithAPointer() {
        String word = "Zorilla" + unique();
        ObjectNode first = learning(word + " invoice totals are stored in dollars",
                "The " + word + " invoice.total column holds the amount in US dollars with two decimals.");
        int id = tool("save_learning", first).statusCode(200).extract().jsonPath().getInt("result.learning_id");

        tool("save_learning", learning(word + " invoice totals are in US dollars",
                "Amounts in the " + word + " invoice.total are dollars (two decimal places), not cents.")).statusCode(200)
                .body("result.success", is(false))
                .body("result.message", containsString("says the same"))
                .body("result.duplicate_of.id", is("learning-" + id))
                .body("result.duplicate_of.title", is(word + " invoice totals are stored in dollars"))
                .body("result.duplicate_of.status", is("proposed"));
        // Something else about the same table is new knowledge.
        tool("save_learning", learning(word + " tracks last milliseconds",
                "The " + word + " track.milliseconds column holds the duration; divide by 60000 for minutes.")).statusCode(200)
                .body("result.success", is(true));
        // The exact same learning is still refused as before.
        tool("save_learning", first).statusCode(422).body("message", containsString("already known"));
        assertEquals("2", row("SELECT count(*) FROM learning WHERE title LIKE $1", word + "%"));
    }

    private static Map<String, String> mcp(String principal, String scopes) {
        return TestIdentities.headers(principal, scopes, null);
    }

    private static McpStreamableTestClient mcpClient(Map<String, String> headers) {
        return McpAssured.newStreamableClient()
                .setAdditionalHeaders(message -> MultiMap.caseInsensitiveMultiMap().addAll(headers))
                .build().connect();
    }

    private static ToolResponse mcpCall(McpStreamableTestClient client, String tool, Map<String, Object> arguments) {
        ToolResponse[] response = new ToolResponse[1];
        client.when().toolsCall(tool).withArguments(arguments).withAssert(r -> response[0] = r).send().thenAssertResults();
        return response[0];
    }

    @Test
    void reviewersListAndDecideOverMcpAndOthersDoNotSeeTheTools() throws Exception {
        String word = "dugong" + unique();
        int approved = tool("save_learning", learning("The " + word + " column is a percentage", "Values of " + word
                + " run from 0 to 100."), WRITER).statusCode(200).extract().jsonPath().getInt("result.learning_id");
        int rejected = tool("save_learning", learning("The " + word + " view is stale on Mondays", "The " + word
                + " view refreshes on Tuesday nights."), WRITER).statusCode(200).extract().jsonPath()
                .getInt("result.learning_id");

        McpStreamableTestClient writer = mcpClient(mcp("wes", "knowledge:write,knowledge:read"));
        writer.when().toolsList(page -> {
            Set<String> names = page.tools().stream().map(ToolInfo::name).collect(Collectors.toSet());
            assertTrue(names.contains("save_learning"), names.toString());
            assertFalse(names.contains("review_proposal") || names.contains("list_proposals"), names.toString());
        }).thenAssertResults();
        ToolResponse refused = mcpCall(writer, "review_proposal", Map.of("id", "learning-" + approved,
                "decision", "approve"));
        assertTrue(refused.isError());
        assertTrue(refused.firstContent().asText().text().contains("knowledge:review"), refused.firstContent().asText().text());
        writer.disconnect();

        McpStreamableTestClient reviewer = mcpClient(mcp("rui", "knowledge:review"));
        ToolResponse listed = mcpCall(reviewer, "list_proposals", Map.of("limit", 100));
        assertFalse(listed.isError(), listed.firstContent().asText().text());
        JsonNode items = SnakeCaseJson.MAPPER.readTree(listed.firstContent().asText().text()).path("items");
        List<String> ids = new ArrayList<>();
        items.forEach(item -> ids.add(item.path("id").asText()));
        assertTrue(ids.containsAll(List.of("learning-" + approved, "learning-" + rejected)), ids.toString());

        ToolResponse approval = mcpCall(reviewer, "review_proposal", Map.of("id", "learning-" + approved,
                "decision", "approve", "description", "Values of " + word + " run from 0 to 100 (a percentage)."));
        assertFalse(approval.isError(), approval.firstContent().asText().text());
        JsonNode item = SnakeCaseJson.MAPPER.readTree(approval.firstContent().asText().text()).path("item");
        assertEquals("approved", item.path("status").asText());
        assertEquals("rui", item.path("provenance").path("reviewed_by").asText());
        assertEquals("Values of " + word + " run from 0 to 100 (a percentage).", item.path("description").asText());

        ToolResponse rejection = mcpCall(reviewer, "review_proposal", Map.of("id", "learning-" + rejected,
                "decision", "reject", "reason", "Not true."));
        assertFalse(rejection.isError(), rejection.firstContent().asText().text());
        ToolResponse again = mcpCall(reviewer, "review_proposal", Map.of("id", "learning-" + rejected,
                "decision", "approve"));
        assertTrue(again.isError());
        assertTrue(again.firstContent().asText().text().contains("not a proposal"), again.firstContent().asText().text());
        ToolResponse unknown = mcpCall(reviewer, "review_proposal", Map.of("id", "learning-999999999",
                "decision", "delete"));
        assertTrue(unknown.isError());
        ToolResponse editsOnReject = mcpCall(reviewer, "review_proposal", Map.of("id", "learning-" + approved,
                "decision", "reject", "title", "x"));
        assertTrue(editsOnReject.isError());
        reviewer.disconnect();

        assertEquals(List.of("The " + word + " column is a percentage"), searched(word));
        assertEquals("rejected", row("SELECT status FROM learning WHERE id = $1", (long) rejected));
        assertEquals("Not true.", row("SELECT review_note FROM learning WHERE id = $1", (long) rejected));
    }

    @Test
    void theAgentProposesWithItsQuestionAndCannotReview() throws Exception {
        ScriptedOpenAiServer model = ScriptedModelExtension.server();
        model.reset();
        String word = "axolotl" + unique();
        String question = "What do I need to know about " + word + "?";
        model.then(toolCalls(call("c1", "save_learning", SnakeCaseJson.MAPPER.createObjectNode()
                .put("title", "The " + word + " column is nullable").put("description", "Filter " + word + " IS NOT NULL.")
                .put("category", "data_quality").toString())),
                toolCalls(call("c2", "review_proposal", "{\"id\":\"learning-1\",\"decision\":\"approve\"}")),
                text("Saved."));

        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"" + question + "\"}");

        List<SseClient.Event> results = result.named("tool_result");
        assertEquals("proposed", results.get(0).data().path("result").path("status").asText(), results.toString());
        assertEquals("blocked", results.get(1).data().path("outcome").asText(), results.toString());
        assertTrue(results.get(1).data().path("error").asText().contains("the agent may not call it"), results.toString());
        List<String> offered = new ArrayList<>();
        model.requests().get(0).path("tools").forEach(tool -> offered.add(tool.path("function").path("name").asText()));
        assertTrue(offered.contains("save_learning"), offered.toString());
        assertFalse(offered.contains("review_proposal") || offered.contains("list_proposals")
                || offered.contains("check_validated_queries"), offered.toString());

        JsonPath listed = proposals();
        int index = listed.getList("items.title").indexOf("The " + word + " column is nullable");
        assertTrue(index >= 0, listed.prettify());
        assertEquals(question, listed.getString("items[" + index + "].provenance.question"));
        assertEquals(result.conversationId(), listed.getString("items[" + index + "].provenance.conversation_id"));
        assertEquals("agent", listed.getString("items[" + index + "].provenance.source"));
        assertFalse(searched(word).contains("The " + word + " column is nullable"));
        assertThat(listed.getList("items.id"), not(hasItem(nullValue())));
    }

    private static <T> void assertThat(T actual, org.hamcrest.Matcher<? super T> matcher) {
        org.hamcrest.MatcherAssert.assertThat(actual, matcher);
    }
}
