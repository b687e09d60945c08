package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.page.Browser;

/**
 * The packaged service with {@code sqlagent.auth.mode=api-key,oidc} against a test OpenID
 * provider: which credentials pass, which are refused (401 with {@code WWW-Authenticate} naming the
 * resource metadata), over REST and MCP, and the API keys' life cycle.
 */
class AuthenticationIT {

    private static final String BOOTSTRAP = "bootstrap-key-for-the-tests-0123456789";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    private static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

    @TempDir
    static Path workDir;

    private static TestOidcServer oidc;
    private static ServiceProcess service;

    @BeforeAll
    static void start() throws Exception {
        oidc = TestOidcServer.start();
        service = ServiceProcess.startShortLived(workDir, Map.of(), List.of(
                "-Dsqlagent.auth.mode=api-key,oidc",
                "-Dsqlagent.auth.bootstrap-key=" + BOOTSTRAP,
                "-Dquarkus.oidc.auth-server-url=" + oidc.issuer,
                "-Dquarkus.oidc.client-id=" + TestOidcServer.CLIENT_ID,
                "-Dquarkus.oidc.credentials.secret=test-secret",
                "-Dsqlagent.auth.oidc.role-scopes.operators=admin,sql:read"));
        service.awaitStatus("/q/health/ready", 200, Duration.ofSeconds(90));
    }

    @AfterAll
    static void stop() throws Exception {
        if (service != null) {
            service.close();
        }
        if (oidc != null) {
            oidc.close();
        }
    }

    @Test
    void theChatPageOffersTheOidcLoginAndAnApiKeyBeforeAnyoneSignsIn() throws Exception {
        ChromeDriver browser = Browser.open(1280, 900, java.nio.file.Files.createTempDirectory("sqlagent-downloads"));
        try {
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
            browser.get("http://localhost:" + service.httpPort + "/");
            wait.until(driver -> "true".equals(driver.findElement(By.id("signin")).getDomProperty("open"))
                    && driver.findElement(By.id("login-link")).isDisplayed());
            assertEquals("http://localhost:" + service.httpPort + "/login",
                    browser.findElement(By.id("login-link")).getDomProperty("href"));
            assertTrue(browser.findElement(By.id("apikey")).isDisplayed());
        } finally {
            browser.quit();
        }
    }

    @Test
    void withoutACredentialTheApiAndMcpAnswer401NamingTheResourceMetadata() throws Exception {
        for (HttpResponse<String> refused : List.of(send("GET", "/api/tools", null, null),
                send("POST", "/api/tools/run_sql", null, "{\"sql\":\"SELECT 1\"}"),
                send("POST", "/mcp", null, INITIALIZE),
                send("GET", "/mcp/sse", null, null),
                send("GET", "/api/keys", null, null))) {
            assertEquals(401, refused.statusCode(), refused.uri() + " " + refused.body());
            String challenge = refused.headers().firstValue("WWW-Authenticate").orElse("");
            assertTrue(challenge.startsWith("Bearer "), challenge);
            assertTrue(challenge.contains("resource_metadata=\"http://localhost:" + service.httpPort
                    + "/.well-known/oauth-protected-resource\""), challenge);
        }
        HttpResponse<String> rest = send("GET", "/api/tools", null, null);
        assertEquals("unauthorized", json(rest).path("error").asText(), rest.body());
    }

    @Test
    void healthMetricsMetadataAndThePageStayOpen() throws Exception {
        assertEquals(200, send("GET", "/q/health/ready", null, null).statusCode());
        assertEquals(200, send("GET", "/q/metrics", null, null).statusCode());
        HttpResponse<String> metadata = send("GET", "/.well-known/oauth-protected-resource", null, null);
        assertEquals(200, metadata.statusCode(), metadata.body());
        assertEquals(List.of(oidc.issuer),
                SnakeCaseJson.MAPPER.convertValue(json(metadata).path("authorization_servers"), List.class));
        assertEquals("http://localhost:" + service.httpPort, json(metadata).path("resource").asText());
    }

    @Test
    void aValidTokenIsAcceptedOverRestAndMcp() throws Exception {
        String token = oidc.sign(oidc.claims("alice"));

        assertEquals(200, send("GET", "/api/tools", token, null).statusCode());
        HttpResponse<String> mcp = send("POST", "/mcp", token, INITIALIZE);
        assertEquals(200, mcp.statusCode(), mcp.body());
        assertTrue(mcp.headers().firstValue("Mcp-Session-Id").isPresent(), mcp.headers().toString());
    }

    @Test
    void badTokensAreRefusedWith401() throws Exception {
        RsaJsonWebKey otherKey = RsaJwkGenerator.generateJwk(2048);
        JwtClaims expired = oidc.claims("alice");
        expired.setExpirationTime(TestOidcServer.minutesFromNow(-10));
        expired.setIssuedAt(TestOidcServer.minutesFromNow(-20));
        JwtClaims wrongAudience = oidc.claims("alice");
        wrongAudience.setAudience("another-service");
        JwtClaims wrongIssuer = oidc.claims("alice");
        wrongIssuer.setIssuer("http://127.0.0.1:1/realms/elsewhere");
        JwtClaims notYet = oidc.claims("alice");
        notYet.setNotBefore(TestOidcServer.minutesFromNow(10));
        Map<String, String> refused = Map.of(
                "alg none", TestOidcServer.unsigned(oidc.claims("alice")),
                "wrong audience", oidc.sign(wrongAudience),
                "expired", oidc.sign(expired),
                "forged (another key, the provider's key id)", TestOidcServer.sign(oidc.claims("alice"), otherKey, "test-key"),
                "unknown key", TestOidcServer.sign(oidc.claims("alice"), otherKey, "unknown-key"),
                "wrong issuer", oidc.sign(wrongIssuer),
                "not valid yet", oidc.sign(notYet),
                "garbage", "not-a-token-nor-a-key",
                "unknown API key", "sqa_0123456789ab_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
        for (Map.Entry<String, String> token : refused.entrySet()) {
            for (HttpResponse<String> answer : List.of(send("GET", "/api/tools", token.getValue(), null),
                    send("POST", "/mcp", token.getValue(), INITIALIZE))) {
                assertEquals(401, answer.statusCode(), token.getKey() + ": " + answer.uri() + " " + answer.body());
                String challenge = answer.headers().firstValue("WWW-Authenticate").orElse("");
                assertTrue(challenge.contains("resource_metadata=") && challenge.contains("error=\"invalid_token\""),
                        token.getKey() + ": " + challenge);
                if (answer.uri().getPath().startsWith("/api")) {
                    assertEquals("unauthorized", json(answer).path("error").asText(), token.getKey() + ": " + answer.body());
                }
            }
        }
    }

    @Test
    void scopesComeFromTheScopeClaimAndFromMappedGroups() throws Exception {
        JwtClaims operator = oidc.claims("olga");
        operator.setStringListClaim("groups", "operators");
        JwtClaims scoped = oidc.claims("sam");
        scoped.setClaim("scope", "openid admin");
        JwtClaims entra = oidc.claims("erin");
        entra.setStringListClaim("scp", "sql:read", "admin");
        JwtClaims plain = oidc.claims("paul");
        plain.setStringListClaim("groups", "admin"); // a group named like a scope is not a scope unless mapped

        assertEquals(200, send("GET", "/api/keys", oidc.sign(operator), null).statusCode());
        assertEquals(200, send("GET", "/api/keys", oidc.sign(scoped), null).statusCode());
        assertEquals(200, send("GET", "/api/keys", oidc.sign(entra), null).statusCode());
        HttpResponse<String> forbidden = send("GET", "/api/keys", oidc.sign(plain), null);
        assertEquals(403, forbidden.statusCode(), forbidden.body());
        assertEquals("forbidden", json(forbidden).path("error").asText());
        assertTrue(json(forbidden).path("message").asText().contains("admin"), forbidden.body());
    }

    @Test
    void theCallerIsNamedByIssuerAndSubjectWhateverItsUsername() throws Exception {
        JwtClaims named = oidc.claims("olga");
        named.setStringListClaim("groups", "operators");
        JwtClaims unnamed = oidc.claims("ignored");
        unnamed.unsetClaim("preferred_username");
        unnamed.setSubject("subject-7");
        unnamed.setStringListClaim("groups", "operators");

        assertEquals(201,
                send("POST", "/api/keys", oidc.sign(named), "{\"name\":\"by-olga\",\"scopes\":[\"a\"]}").statusCode());
        assertEquals(201, send("POST", "/api/keys", oidc.sign(unnamed), "{\"name\":\"by-subject\",\"scopes\":[\"a\"]}")
                .statusCode());

        JsonNode keys = json(send("GET", "/api/keys", BOOTSTRAP, null));
        for (JsonNode key : keys) {
            if (key.path("name").asText().equals("by-olga")) {
                assertEquals("oidc:" + oidc.issuer + "#sub-olga", key.path("created_by").asText());
            }
            if (key.path("name").asText().equals("by-subject")) {
                assertEquals("oidc:" + oidc.issuer + "#subject-7", key.path("created_by").asText());
            }
        }
        assertTrue(keys.toString().contains("by-subject"), keys.toString());
    }

    @Test
    void noTokenTakesTheNameOfAnApiKeyOrTheServiceNorWhatTheyOwn() throws Exception {
        // Given an API key and the bootstrap key, each with an MCP session of its own
        HttpResponse<String> created = send("POST", "/api/keys", BOOTSTRAP,
                "{\"name\":\"forgery-target\",\"scopes\":[\"sql:read\"]}");
        assertEquals(201, created.statusCode(), created.body());
        String key = json(created).path("key").asText();
        String principal = json(created).path("principal").asText();
        assertTrue(principal.startsWith("key:"), created.body());
        Map<String, String> sessions = new LinkedHashMap<>();
        for (String owner : List.of(key, BOOTSTRAP)) {
            HttpResponse<String> opened = send("POST", "/mcp", owner, INITIALIZE);
            assertEquals(200, opened.statusCode(), opened.body());
            String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
            mcp("POST", INITIALIZED, owner, session);
            sessions.put(owner, session);
        }

        // When valid tokens (scope admin, through the operators group) name them as subject, username, upn and email,
        // in every spelling a kind could take
        for (String forged : List.of(principal, principal.substring("key:".length()), "key:forgery-target", "forgery-target",
                "key:bootstrap", "bootstrap", "internal:eval", "internal:service", "anonymous")) {
            JwtClaims claims = oidc.claims(forged);
            claims.setSubject(forged);
            claims.setClaim("upn", forged);
            claims.setClaim("email", forged);
            claims.setStringListClaim("groups", "operators");
            String token = oidc.sign(claims);

            // Then each session answers them as an unknown one, and nothing is carried out
            for (String session : sessions.values()) {
                for (String method : List.of("POST", "GET", "DELETE")) {
                    HttpResponse<String> refused = mcp(method, method.equals("POST") ? TOOLS_LIST : null, token, session);
                    assertEquals(404, refused.statusCode(), forged + " " + method + ": " + refused.body());
                    assertFalse(refused.body().contains("run_sql"), refused.body());
                }
            }
        }
        // and the sessions are their owners' still.
        for (Map.Entry<String, String> owned : sessions.entrySet()) {
            HttpResponse<String> listed = mcp("POST", TOOLS_LIST, owned.getKey(), owned.getValue());
            assertEquals(200, listed.statusCode(), listed.body());
            assertTrue(listed.body().contains("run_sql"), listed.body());
        }
        assertEquals(204, send("DELETE", "/api/keys/forgery-target", BOOTSTRAP, null).statusCode());
    }

    private static HttpResponse<String> mcp(String method, String body, String bearer, String session) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + service.httpPort + "/mcp"))
                .timeout(Duration.ofSeconds(20))
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + bearer)
                .header("Mcp-Session-Id", session)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void apiKeysAreCreatedShownOnceStoredAsHashesAndRevokedAtOnce() throws Exception {
        HttpResponse<String> created = send("POST", "/api/keys", BOOTSTRAP,
                "{\"name\":\"reporting\",\"scopes\":[\"sql:read\"],\"attributes\":{\"pg_role\":\"support_rep_3\"}}");
        assertEquals(201, created.statusCode(), created.body());
        String key = json(created).path("key").asText();
        assertTrue(key.startsWith("sqa_"), created.body());
        assertEquals("reporting", json(created).path("name").asText());
        assertEquals("[\"sql:read\"]", json(created).path("scopes").toString());

        assertEquals(200, send("GET", "/api/tools", key, null).statusCode());
        assertEquals(200, send("POST", "/mcp", key, INITIALIZE).statusCode());
        HttpResponse<String> notAdmin = send("GET", "/api/keys", key, null);
        assertEquals(403, notAdmin.statusCode(), notAdmin.body());
        // The scope is checked before the body is read: a caller who may not manage keys learns nothing of its format.
        for (String body : List.of("{\"name\":", "[]", "{\"owner\":\"me\"}", "{\"name\":\"x\",\"scopes\":[\"admin\"]}")) {
            HttpResponse<String> refused = send("POST", "/api/keys", key, body);
            assertEquals(403, refused.statusCode(), body + " " + refused.body());
            assertEquals("forbidden", json(refused).path("error").asText(), refused.body());
        }

        HttpResponse<String> listed = send("GET", "/api/keys", BOOTSTRAP, null);
        assertEquals(200, listed.statusCode(), listed.body());
        assertFalse(listed.body().contains(key.substring(17)), "the list shows the secret: " + listed.body());
        JsonNode reporting = null;
        for (JsonNode one : json(listed)) {
            if (one.path("name").asText().equals("reporting")) {
                reporting = one;
            }
        }
        assertTrue(reporting != null && !reporting.path("last_used_at").isNull(), listed.body());
        assertEquals("support_rep_3", reporting.at("/attributes/pg_role").asText());
        assertEquals("key:bootstrap", reporting.path("created_by").asText());
        assertStoredOnlyAsHash(key);

        HttpResponse<String> duplicate = send("POST", "/api/keys", BOOTSTRAP,
                "{\"name\":\"reporting\",\"scopes\":[\"admin\"]}");
        assertEquals(409, duplicate.statusCode(), duplicate.body());
        assertEquals(200, send("GET", "/api/tools", key, null).statusCode(), "a refused duplicate must not replace the key");

        assertEquals(204, send("DELETE", "/api/keys/reporting", BOOTSTRAP, null).statusCode());
        assertEquals(401, send("GET", "/api/tools", key, null).statusCode());
        assertEquals(401, send("POST", "/mcp", key, INITIALIZE).statusCode());
        assertEquals(404, send("DELETE", "/api/keys/reporting", BOOTSTRAP, null).statusCode());
    }

    @Test
    void badKeyRequestsAreRefusedAndNothingIsStored() throws Exception {
        Map<String, String> bad = Map.of(
                "{\"scopes\":[\"sql:read\"]}", "invalid_name",
                "{\"name\":\"bad name\",\"scopes\":[\"sql:read\"]}", "invalid_name",
                "{\"name\":\"bootstrap\",\"scopes\":[\"sql:read\"]}", "invalid_name",
                "{\"name\":\"x\",\"scopes\":[]}", "invalid_scopes",
                "{\"name\":\"x\",\"scopes\":[\"sql read\"]}", "invalid_scopes",
                "{\"name\":\"x\",\"scopes\":[\"a\"],\"attributes\":{\"pg_role\":1}}", "invalid_attributes",
                "{\"name\":\"x\",\"scopes\":[\"a\"],\"owner\":\"me\"}", "unknown_field",
                "{\"name\":", "malformed_json");
        for (Map.Entry<String, String> body : bad.entrySet()) {
            HttpResponse<String> refused = send("POST", "/api/keys", BOOTSTRAP, body.getKey());
            assertEquals(400, refused.statusCode(), body.getKey() + " " + refused.body());
            assertEquals(body.getValue(), json(refused).path("error").asText(), body.getKey() + " " + refused.body());
        }
        HttpResponse<String> listed = send("GET", "/api/keys", BOOTSTRAP, null);
        assertFalse(listed.body().contains("\"name\":\"x\""), listed.body());
    }

    @Test
    void theBrowserLoginGoesToTheProvider() throws Exception {
        HttpResponse<String> login = send("GET", "/login", null, null);
        assertEquals(302, login.statusCode(), login.body());
        String location = login.headers().firstValue("Location").orElse("");
        assertTrue(location.startsWith(oidc.issuer + "/authorize?"), location);
        assertTrue(location.contains("client_id=" + TestOidcServer.CLIENT_ID), location);
    }

    @Test
    void everyResponseCarriesTheSecurityHeaders() throws Exception {
        for (HttpResponse<String> answer : List.of(send("GET", "/q/health/live", null, null),
                send("GET", "/api/tools", null, null),
                send("GET", "/api/tools", oidc.sign(oidc.claims("alice")), null))) {
            assertEquals("nosniff", answer.headers().firstValue("X-Content-Type-Options").orElse(""), answer.uri().toString());
            assertEquals("no-referrer", answer.headers().firstValue("Referrer-Policy").orElse(""), answer.uri().toString());
            assertEquals("DENY", answer.headers().firstValue("X-Frame-Options").orElse(""), answer.uri().toString());
            assertTrue(answer.headers().firstValue("Content-Security-Policy").orElse("").contains("frame-ancestors 'none'"),
                    answer.uri().toString());
        }
    }

    @Test
    void aKeyThatCannotBeCheckedBecauseTheStoreIsDownIs503NotRefused(@TempDir Path otherDir) throws Exception {
        try (ServiceProcess own = ServiceProcess.start(otherDir,
                Map.of("SQLAGENT_AUTH_MODE", "api-key", "SQLAGENT_AUTH_BOOTSTRAP_KEY", BOOTSTRAP))) {
            own.awaitStatus("/q/health/ready", 200, Duration.ofSeconds(90));
            HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + own.httpPort
                    + "/api/keys")).header("Authorization", "Bearer " + BOOTSTRAP).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"k\",\"scopes\":[\"sql:read\"]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            String key = json(created).path("key").asText();
            // A fast shutdown (SIGINT) ends the pool's connections too, as a store that went away would.
            long postmaster = own.postmaster().orElseThrow().pid();
            new ProcessBuilder("kill", "-INT", String.valueOf(postmaster)).start().waitFor();
            assertTrue(ServiceProcess.awaitDeath(ProcessHandle.of(postmaster).orElseThrow(), Duration.ofSeconds(20)));

            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + own.httpPort
                    + "/api/tools")).header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, answer.statusCode(), answer.body());
            assertEquals("store_unavailable", json(answer).path("error").asText(), answer.body());
            assertTrue(answer.headers().firstValue("Retry-After").isPresent(), answer.headers().toString());
        }
    }

    private static void assertStoredOnlyAsHash(String key) throws Exception {
        try (Connection connection = DriverManager.getConnection(
                "jdbc:postgresql://localhost:" + service.postgresPort + "/sqlagent", "postgres", "");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT * FROM api_key")) {
            String secret = key.substring(17);
            int columns = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                for (int column = 1; column <= columns; column++) {
                    String value = rows.getString(column);
                    assertFalse(value != null && (value.contains(secret) || value.contains(key)),
                            "the store holds the key in " + rows.getMetaData().getColumnName(column));
                }
            }
        }
    }

    private static HttpResponse<String> send(String method, String path, String bearer, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + service.httpPort + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (path.startsWith("/mcp")) {
            request.header("Accept", "application/json, text/event-stream");
        }
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return SnakeCaseJson.MAPPER.readTree(response.body());
    }

}
