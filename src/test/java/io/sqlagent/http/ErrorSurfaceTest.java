package io.sqlagent.http;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;

/**
 * One error surface: the same failed tool call reads the same over REST, over MCP (structured
 * content) and in what the model is sent, and every REST resource answers its refusals with the
 * same body.
 */
@QuarkusTest
@ScriptedModel
class ErrorSurfaceTest {

    @TestHTTPResource("/api/chat")
    URI chat;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    @Test
    void aFailedToolCallReadsTheSameOverRestMcpAndToTheModel() throws Exception {
        assertSameEverywhere("{\"sql\":\"SELECT no_such_column FROM track\"}", 422, "tool_failed");
        assertSameEverywhere("{\"sql\":\"DELETE FROM track\"}", 403, "blocked");
        assertSameEverywhere("{\"sql\":42}", 400, "invalid_arguments");
    }

    private void assertSameEverywhere(String arguments, int status, String code) throws Exception {
        String overRest = given().contentType("application/json").body(arguments)
                .post("/api/tools/run_sql").then().statusCode(status).extract().asString();
        JsonNode rest = SnakeCaseJson.MAPPER.readTree(overRest);
        assertEquals(code, rest.path("error").asText(), overRest);
        assertTrue(rest.path("message").asText().length() > 10, overRest);

        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> args = SnakeCaseJson.MAPPER.readValue(arguments, Map.class);
            ToolResponse[] response = new ToolResponse[1];
            client.when().toolsCall("run_sql").withArguments(args).withAssert(r -> response[0] = r).send()
                    .thenAssertResults();
            assertTrue(response[0].isError());
            assertEquals(rest, SnakeCaseJson.MAPPER.readTree(response[0].structuredContent().toString()));
            assertEquals(rest.path("message").asText(), response[0].firstContent().asText().text());
        } finally {
            client.disconnect();
        }

        model.reset();
        model.then(toolCalls(call("e1", "run_sql", arguments)), text("Noted."));
        SseClient.chat(chat, "{\"question\":\"Try it\"}");
        JsonNode toolMessage = null;
        for (JsonNode message : model.requests().get(1).path("messages")) {
            if (message.path("role").asText().equals("tool")) {
                toolMessage = message;
            }
        }
        assertEquals(rest, SnakeCaseJson.MAPPER.readTree(toolMessage.path("content").asText()));
    }

    @Test
    void everyResourceRefusesWithTheOneBody() throws Exception {
        JsonNode badId = SnakeCaseJson.MAPPER.readTree(given().get("/api/conversations/not-a-uuid")
                .then().statusCode(400).contentType("application/json").extract().asString());
        assertEquals("invalid_conversation_id", badId.path("error").asText());

        JsonNode unknown = SnakeCaseJson.MAPPER.readTree(given().get("/api/conversations/00000000-0000-0000-0000-000000000000")
                .then().statusCode(404).contentType("application/json").extract().asString());
        assertEquals("conversation_not_found", unknown.path("error").asText());
        assertTrue(unknown.path("message").asText().contains("00000000-0000-0000-0000-000000000000"));

        JsonNode chatUnknown = SnakeCaseJson.MAPPER.readTree(given().contentType("application/json")
                .body("{\"question\":\"hi\",\"conversation_id\":\"00000000-0000-0000-0000-000000000000\"}")
                .post("/api/chat").then().statusCode(404).contentType("application/json").extract().asString());
        assertEquals("conversation_not_found", chatUnknown.path("error").asText());

        JsonNode malformed = SnakeCaseJson.MAPPER.readTree(given().contentType("application/json").body("{\"question\":")
                .post("/api/chat").then().statusCode(400).contentType("application/json").extract().asString());
        assertEquals("malformed_json", malformed.path("error").asText());

        JsonNode wrongMethod = SnakeCaseJson.MAPPER.readTree(given().delete("/api/tools/run_sql")
                .then().statusCode(405).contentType("application/json").extract().asString());
        assertEquals("http_error", wrongMethod.path("error").asText());
    }
}
