package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.SnakeCaseJson;

/**
 * The packaged service with {@code sqlagent.auth.mode=oidc} against a real OpenID provider started
 * here without Docker: Keycloak from its Maven Central distribution ({@code keycloak-quarkus-dist},
 * unpacked into target/keycloak by the build; it runs on Java 17), with the realm of
 * {@code src/test/keycloak}. A real MCP client, the official TypeScript SDK, finds Keycloak from the
 * 401 alone and logs in with client credentials; a REST client logs in through {@code GET /login}
 * (the authorization-code flow, Keycloak's login form filled in) and calls tools with the session,
 * another with a token it asked Keycloak for. node and the SDK ({@code src/test/node}) are installed
 * by {@code .ci/run}; without them the test is skipped, except under {@code CI=true}, where it fails.
 */
class OidcProviderIT {

    private static final Path NODE_DIR = Path.of("src/test/node").toAbsolutePath();
    private static final Path REALM = Path.of("src/test/keycloak/sqlagent-realm.json").toAbsolutePath();
    private static final Pattern FORM_ACTION = Pattern.compile("<form[^>]*action=\"([^\"]+)\"");
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final Duration KEYCLOAK_START = Duration.ofMinutes(5);

    @TempDir
    Path workDir;

    @Test
    void anMcpClientAndARestClientLogInWithARealProviderAndCallTools() throws Exception {
        String node = nodeOrSkip();
        int keycloakPort = freePort();
        String issuer = "http://127.0.0.1:" + keycloakPort + "/realms/sqlagent";
        Process keycloak = startKeycloak(keycloakPort, issuer);
        try (ServiceProcess service = ServiceProcess.startShortLived(workDir,
                // As the Kubernetes ConfigMap would set it (README: SQLAGENT_AUTH_OIDC_ROLE_SCOPES_<ROLE>).
                // The MCP client's service account is in group analysts: it may run SQL, nothing more.
                Map.of("SQLAGENT_AUTH_OIDC_ROLE_SCOPES_OPERATORS", "admin,sql:read", "SQLAGENT_AUTH_OIDC_ROLE_SCOPES_ANALYSTS",
                        "sql:read"),
                List.of(
                        "-Dsqlagent.auth.mode=oidc",
                        "-Dquarkus.oidc.auth-server-url=" + issuer,
                        "-Dquarkus.oidc.client-id=sqlagent",
                        "-Dquarkus.oidc.credentials.secret=sqlagent-secret-of-at-least-32-characters"))) {
            String serviceUrl = "http://localhost:" + service.httpPort;
            service.awaitStatus("/q/health/ready", 200, Duration.ofSeconds(90));

            mcpClientLogsInAndCallsATool(node, serviceUrl, issuer);
            restClientLogsInThroughTheBrowserFlow(serviceUrl);
            restClientCallsWithAProviderToken(serviceUrl, issuer);
        } finally {
            keycloak.destroy();
            if (!keycloak.waitFor(30, TimeUnit.SECONDS)) {
                keycloak.destroyForcibly();
            }
        }
    }

    private void mcpClientLogsInAndCallsATool(String node, String serviceUrl, String issuer) throws Exception {
        Path out = workDir.resolve("mcp-client.out");
        Process client = new ProcessBuilder(node, "mcp-client.mjs", serviceUrl + "/mcp", issuer)
                .directory(NODE_DIR.toFile()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(client.waitFor(STEP.toSeconds(), TimeUnit.SECONDS),
                "the MCP client did not finish: " + Files.readString(out));
        String output = Files.readString(out);
        assertEquals(0, client.exitValue(), output);
        String last = output.lines().filter(line -> line.startsWith("{")).reduce((a, b) -> b).orElse("{}");
        JsonNode answer = SnakeCaseJson.MAPPER.readTree(last);
        assertTrue(answer.path("tools").toString().contains("\"run_sql\""), output);
        // Scope sql:read (group analysts) and nothing else: the tools that need more are not listed.
        assertTrue(!answer.path("tools").toString().contains("\"save_learning\""), output);
        assertEquals(3503, answer.at("/result/structuredContent/rows/0/n").asInt(), output);
    }

    private void restClientLogsInThroughTheBrowserFlow(String serviceUrl) throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new LoopbackCookies())
                .followRedirects(HttpClient.Redirect.NORMAL).connectTimeout(Duration.ofSeconds(5)).build();
        // GET /login: to Keycloak's login form, filled in as a person would.
        HttpResponse<String> page = browser.send(
                HttpRequest.newBuilder(URI.create(serviceUrl + "/login")).timeout(STEP).build(),
                HttpResponse.BodyHandlers.ofString());
        page = submit(browser, page, Map.of("username", "alice", "password", "alice-password", "credentialId", ""));
        assertEquals(URI.create(serviceUrl + "/"), page.uri(), "the login did not end at the page: " + page.body());

        HttpResponse<String> tools = browser.send(HttpRequest.newBuilder(URI.create(serviceUrl + "/api/tools")).timeout(STEP)
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, tools.statusCode(), tools.body());
        HttpResponse<String> count = browser.send(HttpRequest.newBuilder(URI.create(serviceUrl + "/api/tools/run_sql"))
                .header("Content-Type", "application/json").timeout(STEP)
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\":\"SELECT count(*) AS n FROM track\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, count.statusCode(), count.body());
        assertEquals(3503, SnakeCaseJson.MAPPER.readTree(count.body()).at("/result/rows/0/n").asInt(), count.body());
        // The realm puts alice in group operators, which role-scopes maps to admin.
        HttpResponse<String> keys = browser.send(HttpRequest.newBuilder(URI.create(serviceUrl + "/api/keys")).timeout(STEP)
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, keys.statusCode(), keys.body());

        HttpResponse<String> stranger = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(serviceUrl
                + "/api/tools")).timeout(STEP).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, stranger.statusCode(), "without the session: " + stranger.body());
    }

    private void restClientCallsWithAProviderToken(String serviceUrl, String issuer) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String basic = Base64.getEncoder().encodeToString("mcp-client:mcp-client-secret".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> token = http.send(HttpRequest.newBuilder(URI.create(issuer + "/protocol/openid-connect/token"))
                .header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/x-www-form-urlencoded").timeout(STEP)
                .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("grant_type", "client_credentials"))))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, token.statusCode(), token.body());
        String accessToken = SnakeCaseJson.MAPPER.readTree(token.body()).path("access_token").asText();

        HttpResponse<String> tools = http.send(HttpRequest.newBuilder(URI.create(serviceUrl + "/api/tools"))
                .header("Authorization", "Bearer " + accessToken).timeout(STEP).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, tools.statusCode(), tools.body());
        HttpResponse<String> keys = http.send(HttpRequest.newBuilder(URI.create(serviceUrl + "/api/keys"))
                .header("Authorization", "Bearer " + accessToken).timeout(STEP).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, keys.statusCode(), "the service account is in no group that grants admin: " + keys.body());
    }

    /**
     * Cookies as a browser keeps them: {@code http://localhost} and {@code 127.0.0.1} are secure
     * contexts, so the {@code Secure} cookies Keycloak sets for its login go back to it there
     * (java.net's CookieManager sends them over https only).
     */
    private static final class LoopbackCookies extends CookieManager {

        LoopbackCookies() {
            super(null, CookiePolicy.ACCEPT_ALL);
        }

        @Override
        public Map<String, List<String>> get(URI uri, Map<String, List<String>> headers) throws java.io.IOException {
            boolean loopback = "localhost".equals(uri.getHost()) || "127.0.0.1".equals(uri.getHost());
            return super.get(loopback ? URI.create(uri.toString().replaceFirst("^http:", "https:")) : uri, headers);
        }
    }

    /** Posts the page's form with {@code fields} and follows where it leads. */
    private static HttpResponse<String> submit(HttpClient browser, HttpResponse<String> page, Map<String, String> fields)
            throws Exception {
        Matcher action = FORM_ACTION.matcher(page.body());
        assertTrue(action.find(), "no form at " + page.uri() + ": " + page.body());
        URI target = page.uri().resolve(action.group(1).replace("&amp;", "&"));
        return browser.send(HttpRequest.newBuilder(target).header("Content-Type", "application/x-www-form-urlencoded")
                .timeout(STEP).POST(HttpRequest.BodyPublishers.ofString(form(fields))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String form(Map<String, String> fields) {
        StringBuilder body = new StringBuilder();
        fields.forEach((name, value) -> body.append(body.length() == 0 ? "" : "&")
                .append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return body.toString();
    }

    /**
     * Keycloak in development mode on {@code port} with a fresh database and the test realm; returns
     * once the realm's discovery document answers.
     */
    private Process startKeycloak(int port, String issuer) throws Exception {
        Path home = Path.of(System.getProperty("keycloak.home", "target/keycloak/keycloak-26.4.7")).toAbsolutePath();
        assertTrue(Files.isExecutable(home.resolve("bin/kc.sh")), "Keycloak is not unpacked at " + home
                + " (the build's pre-integration-test phase does it)");
        deleteTree(home.resolve("data/h2"));
        Files.createDirectories(home.resolve("data/import"));
        Files.copy(REALM, home.resolve("data/import/sqlagent-realm.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path log = workDir.resolve("keycloak.log");
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/kc.sh").toString(), "start-dev", "--import-realm",
                "--http-host=127.0.0.1", "--http-port=" + port)
                .directory(home.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m");
        // Its start (the dev build, the H2 schema, the realm import) is most of this test's time and runs once:
        // the JIT's first tier alone starts it sooner and serves the few logins the test makes.
        builder.environment().put("JAVA_OPTS_APPEND", "-XX:TieredStopAtLevel=1");
        Process keycloak = builder.start();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + KEYCLOAK_START.toNanos();
        while (System.nanoTime() < deadline) {
            if (!keycloak.isAlive()) {
                throw new AssertionError("Keycloak exited with " + keycloak.exitValue() + ":\n" + Files.readString(log));
            }
            try {
                HttpResponse<Void> discovery = http.send(HttpRequest.newBuilder(URI.create(issuer
                        + "/.well-known/openid-configuration")).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (discovery.statusCode() == 200) {
                    return keycloak;
                }
            } catch (java.io.IOException notYet) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        keycloak.destroyForcibly();
        throw new AssertionError("Keycloak did not start within " + KEYCLOAK_START + ":\n" + Files.readString(log));
    }

    private static void deleteTree(Path root) throws java.io.IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** node with the packages installed, or the test is skipped (outside CI) or fails (CI=true). */
    private static String nodeOrSkip() {
        String node = null;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (new File(dir, "node").canExecute()) {
                node = new File(dir, "node").getPath();
                break;
            }
        }
        String missing = node == null ? "node is not installed"
                : !Files.isDirectory(NODE_DIR.resolve("node_modules/@modelcontextprotocol/sdk"))
                        ? "the packages of src/test/node are not installed"
                        : null;
        if (missing != null) {
            String message = missing
                    + " (Debian: apt-get install nodejs npm; then cd src/test/node && npm ci); .ci/run installs both";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(message);
            }
            Assumptions.abort(message);
        }
        return node;
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
