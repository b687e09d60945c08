package io.sqlagent.knowledge;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;

/** With {@code sqlagent.learning.enabled=false} the save tools are neither listed nor callable; search still works. */
@QuarkusTest
@TestProfile(TestProfiles.TightAgent.class)
@ScriptedModel(timeout = "1s")
class LearningDisabledTest {

    @TestHTTPResource("/api/chat")
    URI chat;

    @Test
    void theSaveToolsAreNotOffered() {
        given().when().get("/api/tools").then().statusCode(200)
                .body("name", not(hasItem("save_learning")))
                .body("name", not(hasItem("save_validated_query")))
                .body("name", hasItem("search_knowledge"));
        given().contentType(ContentType.JSON)
                .body("{\"title\":\"t\",\"description\":\"d\",\"category\":\"schema_fix\"}")
                .when().post("/api/tools/save_learning").then().statusCode(404);
        given().contentType(ContentType.JSON)
                .body("{\"name\":\"n\",\"question\":\"q\",\"sql\":\"SELECT 1\",\"summary\":\"s\",\"tables_used\":[]}")
                .when().post("/api/tools/save_validated_query").then().statusCode(404);
        given().when().get("/api/tools/save_learning").then().statusCode(404);
    }

    @Test
    void searchStillFindsTheShippedKnowledge() {
        given().contentType(ContentType.JSON).body("{\"query\":\"revenue by country\"}")
                .when().post("/api/tools/search_knowledge").then().statusCode(200)
                .body("result.query_patterns[0].name", is("revenue_by_country"));
    }

    @Test
    void theModelIsNotOfferedTheSaveToolsNorToldAboutThem() throws Exception {
        ScriptedOpenAiServer model = ScriptedModelExtension.server();
        model.reset();
        model.then(ScriptedOpenAiServer.toolCalls(ScriptedOpenAiServer.call("x", "save_learning",
                "{\"title\":\"t\",\"description\":\"d\",\"category\":\"schema_fix\"}")),
                ScriptedOpenAiServer.text("Nothing saved."));

        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"Learn something\"}");

        JsonNode request = model.requests().get(0);
        List<String> tools = new ArrayList<>();
        request.path("tools").forEach(tool -> tools.add(tool.path("function").path("name").asText()));
        assertTrue(tools.containsAll(List.of("run_sql", "introspect_schema", "search_knowledge")), tools.toString());
        assertFalse(tools.contains("save_learning") || tools.contains("save_validated_query"), tools.toString());
        String prompt = request.path("messages").get(0).path("content").asText();
        assertFalse(prompt.contains("save_learning") || prompt.contains("save_validated_query"), prompt);
        // A model that calls it anyway gets "unknown tool"; nothing is saved.
        assertEquals("unknown_tool", result.first("tool_result").data().path("outcome").asText());
    }
}
