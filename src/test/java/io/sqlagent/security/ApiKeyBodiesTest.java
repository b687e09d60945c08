package io.sqlagent.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.sqlagent.agent.ScriptedModel;

/**
 * {@code POST /api/keys} bodies, bound to {@code ApiKeyResource.NewKey} and validated: every body that is not a key
 * request is a 400 with the code of the field at fault and a message naming it, and no key is stored. Runs in the
 * laptop default ({@code sqlagent.auth.mode=none}), where anyone may manage keys; that a caller without scope admin
 * hears 403 whatever it sends is AuthenticationIT's.
 */
@QuarkusTest
@ScriptedModel
class ApiKeyBodiesTest {

    private static Response post(String body) {
        return given().contentType(ContentType.JSON).body(body).when().post("/api/keys");
    }

    private static List<String> storedNames() {
        return given().when().get("/api/keys").then().statusCode(200).extract().jsonPath().getList("name");
    }

    private static void assertRefused(String body, String code, String... inMessage) {
        List<String> before = storedNames();
        Response refused = post(body);
        String shown = body.length() > 80 ? body.substring(0, 80) + "…" : body;
        assertThat(refused.statusCode()).as("status for %s: %s", shown, refused.asString()).isEqualTo(400);
        assertThat(refused.jsonPath().getString("error")).as("code for %s", shown).isEqualTo(code);
        if (inMessage.length > 0) {
            assertThat(refused.jsonPath().getString("message")).as("message for %s", shown).contains(inMessage);
        }
        assertThat(storedNames()).as("keys after %s", shown).isEqualTo(before);
    }

    @Test
    void aBodyThatIsNotAnObjectSaysWhatCameInstead() {
        assertRefused("null", "invalid_body", "must be a JSON object", "not null");
        assertRefused("[]", "invalid_body", "not an array");
        assertRefused("\"reporting\"", "invalid_body", "not a string");
        assertRefused("5", "invalid_body", "not a number");
        assertRefused("true", "invalid_body", "not a boolean");
        // An empty body is an empty object: the first thing missing is the name.
        assertRefused("", "invalid_name", "name must be 1 to 64");
    }

    @Test
    void jsonThatDoesNotParseIsMalformed() {
        assertRefused("{\"name\":", "malformed_json", "not valid JSON");
        assertRefused("{\"name\":\"a\",\"scopes\":[\"a\"]} {}", "malformed_json", "more after its JSON value");
        assertRefused("{\"name\":\"a\",\"name\":\"b\",\"scopes\":[\"a\"]}", "malformed_json", "name");
        assertRefused("[".repeat(5000), "invalid_body", "not an array");
    }

    @Test
    void theNameMustBeAShortWordAndNotTheBootstrapKeys() {
        assertRefused("{\"scopes\":[\"a\"]}", "invalid_name", "name must be 1 to 64");
        assertRefused("{\"name\":null,\"scopes\":[\"a\"]}", "invalid_name", "name must be");
        assertRefused("{\"name\":5,\"scopes\":[\"a\"]}", "invalid_name", "name must be");
        assertRefused("{\"name\":[\"a\"],\"scopes\":[\"a\"]}", "invalid_name", "name must be");
        assertRefused("{\"name\":\"\",\"scopes\":[\"a\"]}", "invalid_name", "name must be");
        assertRefused("{\"name\":\"-dash\",\"scopes\":[\"a\"]}", "invalid_name", "starting with a letter or digit");
        assertRefused("{\"name\":\"" + "k".repeat(65) + "\",\"scopes\":[\"a\"]}", "invalid_name", "1 to 64");
        assertRefused("{\"name\":\"bootstrap\",\"scopes\":[\"a\"]}", "invalid_name", "the bootstrap key's");
        // The name is checked before the scopes, as the record lists them.
        assertRefused("{\"name\":\"bad name\",\"scopes\":[]}", "invalid_name", "name must be");
    }

    @Test
    void scopesAreOneToFiftyScopeNames() {
        assertRefused("{\"name\":\"s1\"}", "invalid_scopes", "1 to 50 scope names");
        assertRefused("{\"name\":\"s1\",\"scopes\":null}", "invalid_scopes", "1 to 50");
        assertRefused("{\"name\":\"s1\",\"scopes\":[]}", "invalid_scopes", "1 to 50");
        assertRefused("{\"name\":\"s1\",\"scopes\":\"sql:read\"}", "invalid_scopes", "an array");
        assertRefused("{\"name\":\"s1\",\"scopes\":[5]}", "invalid_scopes");
        assertRefused("{\"name\":\"s1\",\"scopes\":[null]}", "invalid_scopes", "scope null is not a scope name");
        // The one bad scope among good ones is named, as JSON, so a caller can find it in a list of 50.
        assertRefused("{\"name\":\"s1\",\"scopes\":[\"sql:read\",\"sql read\",\"knowledge:read\"]}", "invalid_scopes",
                "scope \"sql read\" is not a scope name");
        assertRefused("{\"name\":\"s1\",\"scopes\":[\"a\\\"b\\u0001\"]}", "invalid_scopes", "scope \"a\\\"b\\u0001\" is not");
        assertRefused("{\"name\":\"s1\",\"scopes\":[\"" + "s".repeat(101) + "\"]}", "invalid_scopes", "at most 100",
                "\"" + "s".repeat(64) + "…\"");
        String fiftyOne = IntStream.rangeClosed(0, 50).mapToObj(i -> "\"s" + i + "\"").collect(Collectors.joining(","));
        assertRefused("{\"name\":\"s1\",\"scopes\":[" + fiftyOne + "]}", "invalid_scopes", "1 to 50");
    }

    @Test
    void attributesAreAFewNamedStrings() {
        String key = "{\"name\":\"a1\",\"scopes\":[\"a\"],\"attributes\":";
        assertRefused(key + "[]}", "invalid_attributes", "an object");
        assertRefused(key + "\"pg_role\"}", "invalid_attributes", "an object");
        assertRefused(key + "{\"pg_role\":1}}", "invalid_attributes");
        assertRefused(key + "{\"pg_role\":null}}", "invalid_attributes", "a string");
        assertRefused(key + "{\"pg_role\":{\"a\":\"b\"}}}", "invalid_attributes");
        assertRefused(key + "{\"bad name\":\"x\"}}", "invalid_attributes", "attribute name \"bad name\" must be");
        assertRefused(key + "{\"pg_role\":\"" + "r".repeat(257) + "\"}}", "invalid_attributes", "at most 256");
        assertRefused(key + "{\"pg_role\":\"a\\u0000b\"}}", "invalid_attributes", "NUL");
        assertRefused(key + "{\"pg_role\":\"a\\ud800b\"}}", "invalid_attributes", "half of a surrogate pair");
        String many = IntStream.rangeClosed(0, 20).mapToObj(i -> "\"a" + i + "\":\"v\"").collect(Collectors.joining(","));
        assertRefused(key + "{" + many + "}}", "invalid_attributes", "at most 20");
    }

    @Test
    void anUnknownFieldIsNamedShortened() {
        assertRefused("{\"name\":\"u1\",\"scopes\":[\"a\"],\"owner\":\"me\"}", "unknown_field", "'owner'", "name, scopes");
        assertRefused("{\"" + "o".repeat(500) + "\":1,\"name\":\"u1\",\"scopes\":[\"a\"]}", "unknown_field",
                "'" + "o".repeat(64) + "…'");
        Response refused = post("{\"" + "o".repeat(500) + "\":1}");
        assertThat(refused.asString()).doesNotContain("o".repeat(65));
    }

    @Test
    void aGoodBodyStoresTheKeyWithItsScopesOnceAndItsAttributes() {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("zone", "eu");
        attributes.put("pg_role", "support_rep_3");
        Response created = given().contentType(ContentType.JSON)
                .body(Map.of("name", "bodies-ok", "scopes", List.of("sql:read", "sql:read", "knowledge:read"), "attributes",
                        attributes))
                .when().post("/api/keys");
        assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
        assertThat(created.jsonPath().getList("scopes")).containsExactly("sql:read", "knowledge:read");
        Map<String, Object> stored = given().when().get("/api/keys").then().statusCode(200).extract().jsonPath()
                .getMap("find { it.name == 'bodies-ok' }.attributes");
        assertThat(stored).containsOnly(Map.entry("pg_role", "support_rep_3"), Map.entry("zone", "eu"));
        given().when().delete("/api/keys/bodies-ok").then().statusCode(204);
    }
}
