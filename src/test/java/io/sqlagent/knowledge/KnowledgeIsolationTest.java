package io.sqlagent.knowledge;

import static io.restassured.RestAssured.given;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.security.TestIdentities;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.core.MultiMap;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * What one principal proposes to the knowledge base does not reach another before a reviewer approves it
 * ({@code sqlagent.learning.approval=required}, the Features profile): principal A's proposal is invisible to
 * principal B through the REST list and read, {@code search_knowledge} over REST and MCP, and the near-duplicate and
 * same-title answers of a save, while A and a reviewer see it. Once approved, B reads it without A's provenance.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class KnowledgeIsolationTest {

    private static final String SCOPES = "knowledge:write,knowledge:read,sql:read";
    private static final Map<String, String> ALICE = TestIdentities.headers("alice-iso", SCOPES, "pg_role=support_rep_3");
    private static final Map<String, String> BOB = TestIdentities.headers("bob-iso", SCOPES, "pg_role=support_rep_4");
    private static final Map<String, String> REVIEWER = TestIdentities.headers("rhea-iso", "knowledge:review", null);

    @Inject
    Pool store;

    @Inject
    SourceRegistry sources;

    /** The roles the two principals' statements run as (the test settings map {@code pg_role} on the demo source). */
    private void roles() {
        for (int rep : new int[] { 3, 4 }) {
            for (String sql : List.of("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'support_rep_" + rep
                    + "') THEN CREATE ROLE support_rep_" + rep + " NOLOGIN; END IF; END $$",
                    "GRANT USAGE ON SCHEMA public TO support_rep_" + rep,
                    "GRANT SELECT ON ALL TABLES IN SCHEMA public TO support_rep_" + rep)) {
                sources.find("default").orElseThrow().executeWriting(sql).await().atMost(Duration.ofSeconds(10));
            }
        }
    }

    private static String unique() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    private static ValidatableResponse tool(String name, ObjectNode arguments, Map<String, String> headers) {
        return given().headers(headers).contentType(ContentType.JSON).body(arguments.toString()).when()
                .post("/api/tools/" + name).then();
    }

    private static ObjectNode learning(String title, String description) {
        return SnakeCaseJson.MAPPER.createObjectNode().put("title", title).put("description", description)
                .put("category", "data_quality");
    }

    private static ValidatableResponse knowledge(String path, Map<String, String> headers) {
        return given().headers(headers).when().get("/api/knowledge/" + path).then();
    }

    private static String searched(String words, Map<String, String> headers) {
        return tool("search_knowledge", SnakeCaseJson.MAPPER.createObjectNode().put("query", words).put("limit", 20), headers)
                .statusCode(200).extract().body().asString();
    }

    private static String searchedOverMcp(String words, Map<String, String> headers) {
        McpStreamableTestClient client = McpAssured.newStreamableClient()
                .setAdditionalHeaders(message -> MultiMap.caseInsensitiveMultiMap().addAll(headers))
                .build().connect();
        ToolResponse[] response = new ToolResponse[1];
        client.when().toolsCall("search_knowledge").withArguments(Map.of("query", words, "limit", 20))
                .withAssert(r -> response[0] = r).send().thenAssertResults();
        client.disconnect();
        assertThat(response[0].isError(), is(false));
        return response[0].firstContent().asText().text();
    }

    private long count(String sql, Object... values) {
        return store.preparedQuery(sql).execute(Tuple.from(List.of(values))).await().atMost(Duration.ofSeconds(10))
                .iterator().next().getLong(0);
    }

    @Test
    void aProposalIsSeenByItsAuthorAndReviewersOnlyThroughEveryReadPath() {
        String word = "pangolin" + unique();
        String title = "Discounts on " + word + " orders are stored negative";
        int id = tool("save_learning", learning(title, "The " + word + " discount column holds negative amounts."), ALICE)
                .statusCode(200)
                .body("result.status", is("proposed"))
                .extract().jsonPath().getInt("result.learning_id");
        String itemId = "learning-" + id;

        // B: not in its list, not readable by id (the same 404 as an id nobody has), not searched over REST or MCP.
        knowledge("proposals?limit=100", BOB).statusCode(200)
                .body("items.id", not(hasItem(itemId)))
                .body("can_review", is(false));
        knowledge("items/" + itemId, BOB).statusCode(404)
                .body("error", is("proposal_not_found"))
                .body("message", not(containsString(word)));
        assertThat(searched(word, BOB), not(containsString(word)));
        assertThat(searchedOverMcp(word, BOB), not(containsString(word)));

        // A: its own proposal, listed and readable with its provenance.
        knowledge("proposals?limit=100", ALICE).statusCode(200)
                .body("items.id", hasItem(itemId))
                .body("items.provenance.proposed_by", not(hasItem("bob-iso")))
                .body("can_review", is(false));
        knowledge("items/" + itemId, ALICE).statusCode(200)
                .body("title", is(title))
                .body("provenance.proposed_by", is("alice-iso"));
        // A reviewer: every proposal.
        knowledge("proposals?limit=100", REVIEWER).statusCode(200).body("items.id", hasItem(itemId)).body("can_review",
                is(true));
        knowledge("items/" + itemId, REVIEWER).statusCode(200).body("status", is("proposed"));

        // Approved, it is shared: B reads and finds it, without A's question, conversation or name.
        given().headers(REVIEWER).when().post("/api/knowledge/proposals/" + itemId + "/approve").then().statusCode(200);
        knowledge("items/" + itemId, BOB).statusCode(200)
                .body("title", is(title))
                .body("provenance.source", is("rest"))
                .body("provenance.proposed_by", nullValue())
                .body("provenance.question", nullValue())
                .body("provenance.conversation_id", nullValue())
                .body("provenance.reviewed_by", nullValue());
        assertThat(searched(word, BOB), containsString(title));
        assertThat(searchedOverMcp(word, BOB), containsString(title));
    }

    @Test
    void aDuplicateOfAnotherPrincipalsProposalNamesNothingOfIt() {
        String word = "Quokka" + unique();
        String title = word + " invoice totals are stored in dollars";
        int id = tool("save_learning", learning(title,
                "The " + word + " invoice.total column holds the amount in US dollars with two decimals."), ALICE)
                .statusCode(200).extract().jsonPath().getInt("result.learning_id");

        // The same in other words: for B, A's proposal is no duplicate, so B's own is proposed.
        String other = word + " invoice totals are in US dollars";
        ObjectNode sameInOtherWords = learning(other,
                "Amounts in the " + word + " invoice.total are dollars (two decimal places), not cents.");
        String answer = tool("save_learning", sameInOtherWords, BOB).statusCode(200)
                .body("result.success", is(true))
                .body("result.status", is("proposed"))
                .body("result.duplicate_of", nullValue())
                .extract().body().asString();
        assertThat(answer, not(containsString(title)));
        assertThat(answer, not(containsString("learning-" + id)));

        // A gets the pointer to what it may read: its own proposal.
        tool("save_learning", learning(word + " invoice totals are kept in US dollars",
                "In the " + word + " invoice.total column amounts are US dollars with two decimals, not cents."), ALICE)
                .statusCode(200)
                .body("result.success", is(false))
                .body("result.duplicate_of.id", is("learning-" + id));

        // The very same title: refused (the store keeps one), without which item, whose, or its status.
        String refused = tool("save_learning", learning(title.toUpperCase(), "Anything."), BOB).statusCode(422)
                .body("message", containsString("already known or waiting for review"))
                .extract().body().asString();
        assertThat(refused, not(containsString(String.valueOf(id))));
        assertThat(refused, not(containsString("proposed")));
        tool("save_learning", learning(title, "Anything."), ALICE).statusCode(422)
                .body("message", containsString("id " + id));
        assertThat(count("SELECT count(*) FROM learning WHERE title ILIKE $1", word + "%"), is(2L));
    }

    @Test
    void aValidatedQueryForTheSameQuestionDoesNotNameAnotherPrincipalsProposal() {
        roles();
        String suffix = unique();
        String question = "How many media types are there " + suffix + "?";
        ObjectNode query = SnakeCaseJson.MAPPER.createObjectNode().put("name", "media_types_" + suffix)
                .put("question", question)
                .put("sql", "SELECT count(*) FROM media_type").put("summary", "Counts media types.");
        query.putArray("tables_used").add("media_type");
        tool("save_validated_query", query, ALICE).statusCode(200).body("result.status", is("proposed"));

        ObjectNode sameQuestion = query.deepCopy().put("name", "bobs_media_types_" + suffix);
        String answer = tool("save_validated_query", sameQuestion, BOB).statusCode(422)
                .body("message", containsString("already known or waiting for review"))
                .extract().body().asString();
        assertThat(answer, not(containsString("media_types_" + suffix + "'")));
        ObjectNode sameName = query.deepCopy().put("question", "Another question " + suffix + "?");
        tool("save_validated_query", sameName, BOB).statusCode(422)
                .body("message", is("The name 'media_types_" + suffix + "' is taken; choose another name."));
        // The author is told which one it already has.
        tool("save_validated_query", sameQuestion, ALICE).statusCode(422)
                .body("message", containsString("'media_types_" + suffix + "' (id "));
        assertThat(count("SELECT count(*) FROM query_pattern WHERE name LIKE $1", "%media_types_" + suffix), is(1L));
    }
}
