package io.sqlagent.http;

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
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.TestProfiles;

/**
 * The OpenAPI document is what Swagger UI's "Try it out" sends: every operation that takes a body
 * documents at least one example, and every example — and the body Swagger UI builds from the
 * schema — posted to the real endpoint as documented, is taken (not refused as malformed: no 400,
 * 415 or 500; an unknown conversation is a 404). It runs with the replayed model ({@link TestProfiles.Replayed}): the
 * examples of {@code POST /api/evals/runs} start whole eval runs that go on in the background, which against the
 * scripted model would ask it while later classes script it (and open its circuit breaker).
 */
@QuarkusTest
@TestProfile(TestProfiles.Replayed.class)
class OpenApiExamplesTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Set<Integer> REFUSED = Set.of(400, 415, 500);

    /**
     * docs/api.md's endpoint table and the service agree: every REST operation is there, written
     * {@code METHOD /path} (or {@code …/last} after its parent's row), and every {@code METHOD /api/…}
     * the section names exists.
     */
    @Test
    void theApiDocNamesEveryOperationAndOnlyOperationsThatExist() throws Exception {
        JsonNode document = SnakeCaseJson.MAPPER.readTree(given().queryParam("format", "json").when().get("/q/openapi")
                .then().statusCode(200).extract().asString());
        List<String> readme = java.nio.file.Files.readAllLines(java.nio.file.Path.of("docs/api.md"));
        int start = readme.indexOf("## Endpoints");
        int end = readme.indexOf("### Errors: one body everywhere");
        // Path parameters are compared by place, not name ({id} in the code may be {run_id} in the text).
        String section = String.join("\n", readme.subList(start, end)).replaceAll("\\{[^}/]+}", "{}");
        Set<String> operations = new java.util.TreeSet<>();
        List<String> missing = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<String> methods = path.getValue().fieldNames(); methods.hasNext();) {
                String route = path.getKey().replaceAll("\\{[^}/]+}", "{}");
                String operation = methods.next().toUpperCase() + " " + route;
                operations.add(operation);
                String[] segments = route.split("/");
                String last = "/" + segments[segments.length - 1];
                String lastTwo = "/" + segments[segments.length - 2] + last;
                if (!section.contains(operation) && !section.contains("`…" + last + "`")
                        && !section.contains("`…" + lastTwo + "`")) {
                    missing.add(operation);
                }
            }
        }
        java.util.regex.Matcher named = java.util.regex.Pattern
                .compile("(GET|POST|PUT|PATCH|DELETE) (/api/[A-Za-z0-9_/{}.-]*[A-Za-z0-9_}])").matcher(section);
        List<String> unknown = new ArrayList<>();
        while (named.find()) {
            if (!operations.contains(named.group())) {
                unknown.add(named.group());
            }
        }
        assertTrue(missing.isEmpty(), "operations missing from docs/api.md's endpoint table: " + missing);
        assertTrue(unknown.isEmpty(), "docs/api.md's endpoint table names operations that do not exist: " + unknown
                + "; the service has " + operations);
    }

    @Test
    void everyDocumentedRequestExampleIsAcceptedByItsEndpoint() throws Exception {
        JsonNode document = SnakeCaseJson.MAPPER.readTree(given().queryParam("format", "json").when().get("/q/openapi")
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
                // What Swagger UI's "Try it out" fills in from the schema when an example is not picked.
                JsonNode schema = resolve(document, media.path("schema"));
                if (schema.has("properties")) {
                    values.add(sample(document, schema));
                }
                for (JsonNode value : values) {
                    String body = value.isTextual() ? value.asText() : value.toString();
                    HttpResponse<String> response = send(method, url, body);
                    assertFalse(REFUSED.contains(response.statusCode()),
                            where + " refused its documented example " + body + ": " + response.statusCode() + " "
                                    + response.body());
                    tried.add(where + " " + body);
                }
            }
        }
        assertTrue(tried.stream().anyMatch(t -> t.startsWith("POST /api/chat")), tried.toString());
        assertTrue(tried.stream().anyMatch(t -> t.startsWith("POST /api/tools/{name}")), tried.toString());
    }

    /** A body built from the schema as Swagger UI builds one: each property's example, else a value of its type. */
    private static JsonNode sample(JsonNode document, JsonNode schema) {
        ObjectNode body = SnakeCaseJson.MAPPER.createObjectNode();
        schema.path("properties").fields()
                .forEachRemaining(property -> body.set(property.getKey(), value(document, property.getValue())));
        return body;
    }

    private static JsonNode value(JsonNode document, JsonNode schema) {
        JsonNode resolved = resolve(document, schema);
        if (resolved.has("example")) {
            return resolved.get("example");
        }
        if (resolved.path("examples").isArray() && !resolved.path("examples").isEmpty()) {
            return resolved.path("examples").get(0); // OpenAPI 3.1
        }
        JsonNode type = resolved.path("type");
        if (type.isArray()) { // OpenAPI 3.1: ["string", "null"]
            JsonNode first = type.get(0);
            for (JsonNode candidate : type) {
                if (!"null".equals(candidate.asText())) {
                    first = candidate;
                    break;
                }
            }
            type = first;
        }
        return switch (type.asText()) {
            case "array" -> SnakeCaseJson.MAPPER.createArrayNode().add(value(document, resolved.path("items")));
            case "object" -> sample(document, resolved);
            case "integer", "number" -> SnakeCaseJson.MAPPER.getNodeFactory().numberNode(0);
            case "boolean" -> SnakeCaseJson.MAPPER.getNodeFactory().booleanNode(true);
            default -> SnakeCaseJson.MAPPER.getNodeFactory().textNode(
                    "uuid".equals(resolved.path("format").asText()) ? "3fa85f64-5717-4562-b3fc-2c963f66afa6" : "string");
        };
    }

    private static JsonNode resolve(JsonNode document, JsonNode schema) {
        String ref = schema.path("$ref").asText("");
        return ref.startsWith("#/") ? document.at(ref.substring(1)) : schema;
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
                assertNotNull(example.isMissingNode() ? null : example,
                        where + ": path parameter " + parameter.path("name").asText() + " has no example");
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
