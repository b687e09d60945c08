package io.sqlagent.workspace.vector;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;

/**
 * With {@code sqlagent.vector.embedding=openai}, text is embedded by the OpenAI-compatible endpoint (here the scripted one).
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class OpenAiEmbeddingsTest {

    private static io.restassured.response.ValidatableResponse call(String tool, String json) {
        return given().contentType(ContentType.JSON).body(json).when().post("/api/tools/" + tool).then().log()
                .ifValidationFails();
    }

    @Test
    void textIsEmbeddedByTheConfiguredEndpointAndSearchedWithIt() {
        call("vector_manage", """
                {"collection": "notes", "operation": "insert", "documents": [
                  {"id": "a", "text": "invoice totals by country"}, {"id": "b", "text": "guitar solo in the last track"}]}""")
                .statusCode(200).body("result.inserted", is(2));

        call("vector_search", "{\"collection\": \"notes\", \"query\": \"country invoice totals\", \"top_k\": 1}")
                .statusCode(200)
                .body("result.results[0].id", is("a"));
        call("vector_search", "{\"collection\": \"notes\", \"query_vector\": [1, 0, 0, 0, 0, 0, 0, 0], \"top_k\": 2}")
                .statusCode(200)
                .body("result.results.size()", is(2));
        call("vector_search", "{\"collection\": \"notes\", \"query_vector\": [1, 0, 0]}").statusCode(422)
                .body("message", startsWith(
                        "Collection 'notes' holds vectors of " + ScriptedOpenAiServer.EMBEDDING_DIMENSIONS + " dimensions"));

        assertTrue(ScriptedModelExtension.server().embeddedTexts().containsAll(
                java.util.List.of("invoice totals by country", "guitar solo in the last track", "country invoice totals")),
                ScriptedModelExtension.server().embeddedTexts().toString());
    }
}
