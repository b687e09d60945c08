package io.sqlagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.sqlagent.agent.ScriptedModel;
import io.vertx.core.json.JsonObject;

/**
 * Messages an MCP client should not send, posted to {@code /mcp} over HTTP: each gets a JSON-RPC
 * error at once (parse error, invalid request, invalid params), never a 500 or no answer.
 */
@QuarkusTest
@ScriptedModel
class McpProtocolEdgesTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static HttpResponse<String> post(String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/mcp"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject error(HttpResponse<String> response, int code) {
        assertEquals(400, response.statusCode(), response.body());
        JsonObject message = new JsonObject(response.body());
        assertEquals("2.0", message.getString("jsonrpc"));
        assertEquals(code, message.getJsonObject("error").getInteger("code"), response.body());
        return message;
    }

    @Test
    void paramsAsAnArrayAreInvalidParamsAnsweredWithTheRequestId() throws Exception {
        JsonObject answer = error(post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":[1,2]}"), -32602);
        assertEquals(7, answer.getInteger("id"));
        assertTrue(answer.getJsonObject("error").getString("message").contains("params must be a JSON object"),
                answer.encode());

        answer = error(post(
                "{\"jsonrpc\":\"2.0\",\"id\":\"call-1\",\"method\":\"tools/call\",\"params\":[\"run_sql\",{\"sql\":\"SELECT 1\"}]}"),
                -32602);
        assertEquals("call-1", answer.getString("id"));
    }

    @Test
    void jsonThatIsNotAMessageIsAnInvalidRequest() throws Exception {
        for (String body : new String[] { "\"hello\"", "[]", "42", "null", "true", "[1]",
                "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}" }) {
            JsonObject answer = error(post(body), -32600);
            assertTrue(answer.containsKey("id") && answer.getValue("id") == null, body + " -> " + answer.encode());
        }
        for (String body : new String[] { "{\"jsonrpc\":\"2.0\",\"id\":1}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":42}",
                "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}" }) {
            assertEquals(1, error(post(body), -32600).getInteger("id"), body);
        }
    }

    @Test
    void aBatchOfMoreMessagesThanTheLimitIsRefusedWholeNamingTheSetting() throws Exception {
        String list = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"ping\"}";
        String eleven = "[" + String.join(",", java.util.stream.IntStream.rangeClosed(1, 11).mapToObj(i -> list.formatted(i))
                .toList()) + "]";
        JsonObject answer = error(post(eleven), -32600);
        assertEquals("The batch has 11 messages; at most 10 are taken (sqlagent.mcp.max-batch-size): send fewer at a time",
                answer.getJsonObject("error").getString("message"));
        // Ten are within the limit: past the check (the library then answers them, or refuses a batch before initialize).
        HttpResponse<String> ten = post("[" + String.join(",", java.util.stream.IntStream.rangeClosed(1, 10)
                .mapToObj(i -> list.formatted(i)).toList()) + "]");
        assertTrue(!ten.body().contains("sqlagent.mcp.max-batch-size"), ten.body());
    }

    @Test
    void bodiesThatAreNotJsonAreParseErrors() throws Exception {
        for (String body : new String[] { "hello", "{\"jsonrpc\":\"2.0\",",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} trailing",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}{}" }) {
            error(post(body), -32700);
        }
    }
}
