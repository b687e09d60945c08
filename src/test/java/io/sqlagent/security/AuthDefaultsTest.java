package io.sqlagent.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;

/**
 * The laptop default, {@code sqlagent.auth.mode=none}: nothing is refused (quarkus-oidc is inert and
 * needs no provider), there is no login, and the security headers are on every answer anyway.
 */
@QuarkusTest
@ScriptedModel
class AuthDefaultsTest {

    @Test
    void withoutAuthenticationNothingIsRefusedEvenAnUnknownBearerToken() {
        given().when().get("/api/tools").then().statusCode(200);
        given().header("Authorization", "Bearer whatever-a-client-sends").when().get("/api/tools").then().statusCode(200);
        given().contentType("application/json").body("{\"name\":\"laptop-key\",\"scopes\":[\"sql:read\"]}")
                .when().post("/api/keys")
                .then().statusCode(201).body("key", startsWith("sqa_")).body("name", equalTo("laptop-key"));
        given().when().get("/api/keys").then().statusCode(200).body("name", hasItem("laptop-key")).body("key", not(hasItem(
                startsWith("sqa_"))));
        given().when().delete("/api/keys/laptop-key").then().statusCode(204);
    }

    @Test
    void thereIsNoLoginAndNoAuthorizationServer() {
        given().redirects().follow(false).when().get("/login")
                .then().statusCode(404).body("error", equalTo("login_not_enabled"));
        given().when().get("/.well-known/oauth-protected-resource")
                .then().statusCode(200).body("authorization_servers", nullValue()).body("resource", startsWith("http://"));
    }

    @Test
    void theOpenApiDocumentTellsHowToAuthenticate() {
        given().queryParam("format", "json").when().get("/q/openapi")
                .then().statusCode(200)
                .body("components.securitySchemes.bearer.scheme", equalTo("bearer"))
                .body("components.securitySchemes", not(org.hamcrest.Matchers.hasKey("SecurityScheme")))
                .body("security[0].bearer", org.hamcrest.Matchers.empty());
    }

    @Test
    void securityHeadersAreOnEveryAnswerRefusalsIncluded() {
        for (var answer : java.util.List.of(
                given().when().get("/q/health/live").then().statusCode(200),
                given().when().get("/api/tools/no_such_tool").then().statusCode(404),
                given().header("Origin", "http://evil.example").when().get("/api/tools").then().statusCode(403))) {
            answer.header("X-Content-Type-Options", "nosniff")
                    .header("Referrer-Policy", "no-referrer")
                    .header("X-Frame-Options", "DENY")
                    .header("Content-Security-Policy", "frame-ancestors 'none'");
        }
    }
}
