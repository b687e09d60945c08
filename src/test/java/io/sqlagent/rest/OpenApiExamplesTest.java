package io.sqlagent.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.sqlagent.tool.ToolJson;

/**
 * The OpenAPI document is what Swagger UI's "Try it out" sends: every operation that takes a body
 * documents at least one example, and every example, posted to the real endpoint as documented,
 * is taken (not refused as malformed: no 400, 415 or 500).
 */
@QuarkusTest
class OpenApiExamplesTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Set<Integer> REFUSED = Set.of(400, 415, 500);

    @Test
    void everyDocumentedRequestExampleIsAcceptedByItsEndpoint() throws Exception {
        JsonNode document = ToolJson.MAPPER.readTree(given().queryParam("format", "json").when().get("/q/openapi")
                .then().statusCode(200).extract().asString());
        List<String> tried = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> operations = path.getValue().fields(); operations.hasNext();) {
                Map.Entry<String, JsonNode> operation = operations.next();
                JsonNode requestBody = operation.getValue().path("requestBody");
                if (requestBody.isMissingNode()) {
                    continue;
                }
                String method = operation.getKey().toUpperCase();
                String where = method + " " + path.getKey();
                JsonNode media = requestBody.path("content").path("application/json");
                assertFalse(media.isMissingNode(), where + " documents no application/json body");
                JsonNode examples = media.path("examples");
                assertTrue(examples.size() > 0 || media.has("example"), where + " documents no request example");
                String url = url(path.getKey(), operation.getValue(), path.getValue(), where);
                List<JsonNode> values = new ArrayList<>();
                examples.forEach(example -> values.add(example.path("value")));
                if (media.has("example")) {
                    values.add(media.get("example"));
                }
                for (JsonNode value : values) {
                    String body = value.isTextual() ? value.asText() : value.toString();
                    HttpResponse<String> response = send(method, url, body);
                    assertFalse(REFUSED.contains(response.statusCode()),
                            where + " refused its documented example " + body + ": " + response.statusCode() + " " + response.body());
                    tried.add(where + " " + body);
                }
            }
        }
        assertTrue(tried.stream().anyMatch(t -> t.startsWith("POST /api/chat")), tried.toString());
        assertTrue(tried.stream().anyMatch(t -> t.startsWith("POST /api/tools/{name}")), tried.toString());
    }

    /** The operation's URL with every path parameter replaced by its documented example. */
    private static String url(String template, JsonNode operation, JsonNode pathItem, String where) {
        String url = template;
        List<JsonNode> parameters = new ArrayList<>();
        operation.path("parameters").forEach(parameters::add);
        pathItem.path("parameters").forEach(parameters::add);
        for (JsonNode parameter : parameters) {
            if ("path".equals(parameter.path("in").asText())) {
                JsonNode example = parameter.path("example");
                assertNotNull(example.isMissingNode() ? null : example, where + ": path parameter " + parameter.path("name").asText() + " has no example");
                url = url.replace("{" + parameter.path("name").asText() + "}", example.asText());
            }
        }
        assertFalse(url.contains("{"), where + ": a path parameter is not documented");
        return "http://localhost:" + RestAssured.port + url;
    }

    private static HttpResponse<String> send(String method, String url, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
