package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
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

import io.sqlagent.tool.ToolJson;

/**
 * The packaged service with {@code sqlagent.auth.mode=oidc} against a real OpenID provider started
 * here without Docker: the OpenID-certified {@code oidc-provider} run by node, which listens within
 * a second (Keycloak's distribution, {@code keycloak-quarkus-dist} 26.4.7, does start on Java 17,
 * but took more than two and a half minutes to start on a shared two-core machine). A real MCP client, the official TypeScript
 * SDK, finds the
 * provider from the 401 alone and logs in with client credentials; a REST client logs in through
 * {@code GET /login} (the authorization-code flow, the provider's login form filled in) and calls
 * tools with the session, another with a token it asked the provider for. node and the packages
 * of {@code src/test/node} are installed by {@code .ci/run}; without them the test is skipped,
 * except under {@code CI=true}, where it fails.
 */
class OidcProviderIT {

    private static final Path NODE_DIR = Path.of("src/test/node").toAbsolutePath();
    private static final Pattern FORM_ACTION = Pattern.compile("<form[^>]*action=\"([^\"]+)\"");
    private static final Duration STEP = Duration.ofSeconds(30);

    @TempDir
    Path workDir;

    @Test
    void anMcpClientAndARestClientLogInWithARealProviderAndCallTools() throws Exception {
        String node = nodeOrSkip();
        int providerPort = freePort();
        String issuer = "http://127.0.0.1:" + providerPort;
        try (ServiceProcess service = ServiceProcess.startWithJvmOptions(workDir,
                // As the Kubernetes ConfigMap would set it (README: SQLAGENT_AUTH_OIDC_ROLE_SCOPES_<ROLE>).
                Map.of("SQLAGENT_AUTH_OIDC_ROLE_SCOPES_OPERATORS", "admin,sql:read"), List.of(
                        "-Dsqlagent.auth.mode=oidc",
                        "-Dquarkus.oidc.auth-server-url=" + issuer,
                        "-Dquarkus.oidc.client-id=sqlagent",
                        "-Dquarkus.oidc.credentials.secret=sqlagent-secret",
                        "-Dquarkus.oidc.token-state-manager.encryption-secret=an-encryption-secret-of-32-chars-or-more",
                        "-Dquarkus.oidc.authentication.scopes=profile"))) {
            String serviceUrl = "http://localhost:" + service.httpPort;
            Process provider = startProvider(node, providerPort, serviceUrl);
            try {
                service.awaitStatus("/q/health/ready", 200, Duration.ofSeconds(90));

                mcpClientLogsInAndCallsATool(node, serviceUrl, issuer);
                restClientLogsInThroughTheBrowserFlow(serviceUrl);
                restClientCallsWithAProviderToken(serviceUrl, issuer);
            } finally {
                provider.destroy();
                provider.waitFor(10, TimeUnit.SECONDS);
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
        JsonNode answer = ToolJson.MAPPER.readTree(last);
        assertTrue(answer.path("tools").toString().contains("\"run_sql\""), output);
        assertEquals(3503, answer.at("/result/structuredContent/rows/0/n").asInt(), output);
    }

    private void restClientLogsInThroughTheBrowserFlow(String serviceUrl) throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
                .followRedirects(HttpClient.Redirect.NORMAL).connectTimeout(Duration.ofSeconds(5)).build();
        // GET /login: to the provider's login form, filled in as a person would; then its consent form.
        HttpResponse<String> page = browser.send(
                HttpRequest.newBuilder(URI.create(serviceUrl + "/login")).timeout(STEP).build(),
                HttpResponse.BodyHandlers.ofString());
        page = submit(browser, page, Map.of("prompt", "login", "login", "alice", "password", "any"));
        page = submit(browser, page, Map.of("prompt", "consent"));
        assertEquals(URI.create(serviceUrl + "/"), page.uri(), "the login did not end at the page: " + page.body());

        HttpResponse<String> tools = browser.send(HttpRequest.newBuilder(URI.create(serviceUrl + "/api/tools")).timeout(STEP)
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, tools.statusCode(), tools.body());
        HttpResponse<String> count = browser.send(HttpRequest.newBuilder(URI.create(serviceUrl + "/api/tools/run_sql"))
                .header("Content-Type", "application/json").timeout(STEP)
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\":\"SELECT count(*) AS n FROM track\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, count.statusCode(), count.body());
        assertEquals(3503, ToolJson.MAPPER.readTree(count.body()).at("/result/rows/0/n").asInt(), count.body());
        // The provider puts alice in group operators, which role-scopes maps to admin.
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
        HttpResponse<String> token = http.send(HttpRequest.newBuilder(URI.create(issuer + "/token"))
                .header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/x-www-form-urlencoded").timeout(STEP)
                .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("grant_type", "client_credentials", "scope", "sql:read",
                        "resource", serviceUrl))))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, token.statusCode(), token.body());
        String accessToken = ToolJson.MAPPER.readTree(token.body()).path("access_token").asText();

        HttpResponse<String> tools = http.send(HttpRequest.newBuilder(URI.create(serviceUrl + "/api/tools"))
                .header("Authorization", "Bearer " + accessToken).timeout(STEP).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, tools.statusCode(), tools.body());
        HttpResponse<String> keys = http.send(HttpRequest.newBuilder(URI.create(serviceUrl + "/api/keys"))
                .header("Authorization", "Bearer " + accessToken).timeout(STEP).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, keys.statusCode(), "the token has scope sql:read only: " + keys.body());
    }

    /** Posts the page's form with {@code fields} and follows where it leads. */
    private static HttpResponse<String> submit(HttpClient browser, HttpResponse<String> page, Map<String, String> fields)
            throws Exception {
        Matcher action = FORM_ACTION.matcher(page.body());
        assertTrue(action.find(), "no form at " + page.uri() + ": " + page.body());
        URI target = page.uri().resolve(action.group(1));
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

    private Process startProvider(String node, int port, String serviceUrl) throws Exception {
        Process provider = new ProcessBuilder(node, "provider.mjs", String.valueOf(port), serviceUrl)
                .directory(NODE_DIR.toFile()).redirectErrorStream(true).start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(provider.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        long deadline = System.nanoTime() + STEP.toNanos();
        String line;
        while (System.nanoTime() < deadline && (line = lines.readLine()) != null) {
            seen.append(line).append('\n');
            if (line.startsWith("READY ")) {
                // Keep reading its output so that the provider never blocks on a full pipe.
                Thread drain = new Thread(() -> lines.lines().forEach(ignored -> {
                }));
                drain.setDaemon(true);
                drain.start();
                return provider;
            }
        }
        provider.destroyForcibly();
        throw new AssertionError("the OpenID provider did not start:\n" + seen);
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
                : !Files.isDirectory(NODE_DIR.resolve("node_modules/oidc-provider"))
                        || !Files.isDirectory(NODE_DIR.resolve("node_modules/@modelcontextprotocol/sdk"))
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
