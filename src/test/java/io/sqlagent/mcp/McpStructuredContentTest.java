package io.sqlagent.mcp;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.vertx.core.json.JsonObject;

/**
 * What an MCP client reads of a {@code run_sql} answer on the wire: its structured content is the very JSON of its
 * text content, exact numbers, escapes and all, as the REST answer has it.
 */
@QuarkusTest
@ScriptedModel
class McpStructuredContentTest {

    private static final String SQL = "SELECT 2.50::numeric AS price, 123456789012345678901234567890.125::numeric AS big,"
            + " 1e-7::float8 AS tiny, E'tab\\there \"quoted\" \\u00e9 \\u2028 </script>' AS text, NULL AS nothing,"
            + " ARRAY[1.0, 2.00]::numeric[] AS list, '{\"a\": [1, 2.0]}'::jsonb AS doc";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void structuredContentOfARunSqlAnswerIsItsTextByteForByte() throws Exception {
        String session = post(message(1, "initialize", new JsonObject()
                .put("protocolVersion", "2025-06-18")
                .put("capabilities", new JsonObject())
                .put("clientInfo", new JsonObject().put("name", "structured-test").put("version", "1"))), null)
                .headers().firstValue("Mcp-Session-Id").orElseThrow();
        post(new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized"), session);

        String body = json(post(message(2, "tools/call", new JsonObject().put("name", "run_sql")
                .put("arguments", new JsonObject().put("sql", SQL))), session));

        JsonNode result = new ObjectMapper().readTree(body).path("result");
        assertThat(result.path("isError").asBoolean()).isFalse();
        String text = result.path("content").path(0).path("text").asText();
        assertThat(text).contains("\"price\":2.50", "\"big\":123456789012345678901234567890.125", "\"nothing\":null");
        assertThat(body).contains("\"structuredContent\":" + text);
        // The REST answer holds the same bytes: {"result":<the tool's JSON>, ...}.
        assertThat(restAnswer()).contains("\"result\":" + text);
    }

    private static String restAnswer() {
        return given().contentType("application/json")
                .body(new JsonObject().put("sql", SQL).encode())
                .post("/api/tools/run_sql").then().statusCode(200).extract().asString();
    }

    private static JsonObject message(int id, String method, JsonObject params) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method).put("params", params);
    }

    private HttpResponse<String> post(JsonObject message, String session) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(McpAssured.baseUri.toString().replaceAll("/$", "")
                + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(message.encode()));
        Optional.ofNullable(session).ifPresent(id -> request.header("Mcp-Session-Id", id));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isBetween(200, 202);
        return response;
    }

    /** The JSON-RPC answer: the body, or the data of its one server-sent event. */
    private static String json(HttpResponse<String> response) {
        if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
            return response.body().lines().filter(line -> line.startsWith("data:")).map(line -> line.substring(5).strip())
                    .reduce("", String::concat);
        }
        return response.body();
    }
}
