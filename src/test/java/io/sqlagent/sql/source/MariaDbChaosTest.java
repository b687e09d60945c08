package io.sqlagent.sql.source;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.http.RawHttp;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.sqlagent.sql.run.Pause;

/**
 * The MariaDB server of a source killed under the running service, as the PostgreSQL chaos tests do to theirs: source
 * {@code flaky} is a MariaDB of its own ({@link ExternalPostgresResource#flaky()}), killed with SIGKILL while a
 * {@code run_sql} call's statement runs there. That call, and every call while the server is gone, over REST and MCP,
 * is a clear refusal naming the source (503 with {@code Retry-After}, no stack trace, no password); the PostgreSQL
 * source and the other MariaDB server answer meanwhile; readiness names the source DOWN; once the server is back on the
 * same port, readiness is UP and the next call succeeds, without a restart of the service. A caller that goes away
 * mid-statement leaves nothing running in {@code PROCESSLIST}. Skipped where MariaDB cannot be had (failed under CI).
 */
@QuarkusTest
@WithTestResource(ExternalPostgresResource.class)
class MariaDbChaosTest {

    /** Ten billion rows counted: far longer than any test waits, stopped only by the kill or the time limit. */
    private static final String LONG = "SELECT COUNT(*) AS n FROM seq_1_to_100000 a, seq_1_to_100000 b";
    private static final String PASSWORD = "agent-pw";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TestHTTPResource("/")
    URI base;

    @BeforeEach
    void needsMariaDb() {
        Assumptions.assumeTrue(MariaDbServer.available(), "mariadbd not installed: MariaDB tests skipped");
    }

    /** Whatever a test did to the server, the next test (and the other classes of this profile) find it running. */
    @AfterEach
    void serverRunsAgain() {
        if (ExternalPostgresResource.flaky() != null) {
            ExternalPostgresResource.flaky().restart();
        }
    }

    private static MariaDbServer server() {
        return ExternalPostgresResource.flaky();
    }

    private static ValidatableResponse runSql(String sql, String source) {
        return given().contentType(ContentType.JSON).body(body(sql, source)).when().post("/api/tools/run_sql").then();
    }

    private static String body(String sql, String source) {
        return SnakeCaseJson.MAPPER.valueToTree(Map.of("sql", sql, "source", source)).toString();
    }

    /** {@link #LONG} marked, so {@code PROCESSLIST} tells this call's statement from any other. */
    private static String marked(String marker) {
        return LONG + " WHERE '" + marker + "' <> ''";
    }

    /** Statements carrying {@code marker} that run on the source's server now. */
    private static int running(String marker) {
        return server().running(marker);
    }

    @Test
    void aServerKilledMidCallIsAClearRefusalTheOtherSourcesAnswerAndThePoolReconnects() throws Exception {
        runSql("SELECT COUNT(*) AS n FROM seq_1_to_10", "flaky").statusCode(200).body("result.rows[0].n", is(10));
        String marker = "chaos_kill_" + System.nanoTime();
        CompletableFuture<HttpResponse<String>> midCall = HTTP.sendAsync(
                HttpRequest.newBuilder(base.resolve("/api/tools/run_sql")).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body(marked(marker), "flaky"))).build(),
                HttpResponse.BodyHandlers.ofString());
        awaitTrue(() -> running(marker) == 1, Duration.ofSeconds(10), "the statement never ran");

        server().kill();

        // The call whose statement ran: answered at once, not after the statement's 30 s time limit.
        HttpResponse<String> cut = midCall.get(15, TimeUnit.SECONDS);
        assertRefused(cut.statusCode(), cut.headers().firstValue("Retry-After").orElse(null), cut.body());
        // A call while the server is gone: refused at once, the same way.
        long started = System.nanoTime();
        ValidatableResponse down = runSql("SELECT COUNT(*) AS n FROM seq_1_to_10", "flaky");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertRefused(down.extract().statusCode(), down.extract().header("Retry-After"), down.extract().asString());
        assertMcpRefused();
        // The schema tools on the source that is gone: refused the same way, at once.
        for (String arguments : List.of("{\"source\":\"flaky\"}",
                "{\"source\":\"flaky\",\"table_name\":\"gadget\",\"include_sample_data\":true}")) {
            started = System.nanoTime();
            ValidatableResponse schema = given().contentType(ContentType.JSON).body(arguments).when()
                    .post("/api/tools/introspect_schema").then();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as(arguments).isLessThan(Duration.ofSeconds(5));
            assertRefused(schema.extract().statusCode(), schema.extract().header("Retry-After"),
                    schema.extract().asString());
        }
        // search_schema's index of the source was never built (the server went before a search asked for it).
        ValidatableResponse search = searchFlaky();
        assertRefused(search.extract().statusCode(), search.extract().header("Retry-After"), search.extract().asString());

        // Meanwhile the PostgreSQL source and the other MariaDB server answer.
        runSql("SELECT count(*) AS n FROM track", "default").statusCode(200).body("result.rows[0].n", is(7));
        runSql("SELECT COUNT(*) AS n FROM gadget", "gadgets").statusCode(200).body("result.rows[0].n", is(4));
        String ready = given().when().get("/q/health/ready").then().statusCode(503)
                .body("checks.find { it.name == 'sqlagent sources' }.data.flaky", startsWith("DOWN: "))
                .body("checks.find { it.name == 'sqlagent sources' }.data.default", is("UP"))
                .body("checks.find { it.name == 'sqlagent sources' }.data.gadgets", is("UP"))
                .extract().asString();
        assertThat(ready).doesNotContain(PASSWORD);
        given().when().get("/q/health/live").then().statusCode(200);

        // The server back on its port: readiness UP, and the next call succeeds, with the service never restarted.
        server().restart();
        awaitTrue(() -> given().when().get("/q/health/ready").then().extract().statusCode() == 200,
                Duration.ofSeconds(30), "readiness never came back UP");
        runSql("SELECT COUNT(*) AS n FROM seq_1_to_10", "flaky").statusCode(200).body("result.rows[0].n", is(10));
        assertThat(running(marker)).isZero();
        // The schema tools too (this server's database holds no table): the listing, and the index built now.
        given().contentType(ContentType.JSON).body("{\"source\":\"flaky\"}").when().post("/api/tools/introspect_schema")
                .then().statusCode(200).body("result.count", is(0));
        searchFlaky().statusCode(200).body("result.tables", empty());
    }

    private static ValidatableResponse searchFlaky() {
        return given().contentType(ContentType.JSON)
                .body("{\"source\":\"flaky\",\"query\":\"gadgets and their prices\"}").when()
                .post("/api/tools/search_schema").then();
    }

    @Test
    void aServerGoneBeforeTheCallIsRefusedOverMcpAndBackAfterwards() throws Exception {
        server().kill();
        assertMcpRefused();
        server().restart();
        awaitTrue(() -> given().when().get("/q/health/ready").then().extract().statusCode() == 200,
                Duration.ofSeconds(30), "readiness never came back UP");
        ToolResponse back = mcpRunSql("SELECT COUNT(*) AS n FROM seq_1_to_10");
        assertThat(back.isError()).as(back.toString()).isFalse();
        assertThat(SnakeCaseJson.MAPPER.readTree(back.firstContent().asText().text()).at("/rows/0/n").asInt())
                .isEqualTo(10);
    }

    @Test
    void aCallerThatGoesAwayMidStatementLeavesNothingRunningOnTheServer() throws Exception {
        String marker = "chaos_gone_" + System.nanoTime();
        try (RawHttp gone = RawHttp.postThenVanish(base.getPort(), "/api/tools/run_sql", body(marked(marker), "flaky"))) {
            awaitTrue(() -> running(marker) == 1, Duration.ofSeconds(10), "the statement never ran");
        }
        // KILL QUERY reaches the server long before the statement's 30 s time limit.
        awaitTrue(() -> running(marker) == 0, Duration.ofSeconds(5), "the statement still runs after its caller left");
        runSql("SELECT COUNT(*) AS n FROM seq_1_to_10", "flaky").statusCode(200).body("result.rows[0].n", is(10));
    }

    /** A refusal a person can act on: 503 to retry, naming the source and the server's state, nothing else. */
    private static void assertRefused(int status, String retryAfter, String body) throws IOException {
        assertThat(status).as(body).isEqualTo(503);
        assertThat(retryAfter).as("Retry-After").isNotNull();
        JsonNode error = SnakeCaseJson.MAPPER.readTree(body);
        assertThat(error.path("error").asText()).as(body).isEqualTo("busy");
        assertThat(error.path("message").asText()).as(body).contains("Source 'flaky'")
                .containsIgnoringCase("try again");
        assertLeaksNothing(body);
    }

    private static void assertLeaksNothing(String text) {
        assertThat(text).doesNotContain(PASSWORD).doesNotContain("agent:").doesNotContain("Exception")
                .doesNotContain("\tat ").doesNotContain("io.vertx").doesNotContain("error id");
    }

    private static void assertMcpRefused() throws Exception {
        ToolResponse refused = mcpRunSql("SELECT COUNT(*) AS n FROM seq_1_to_10");
        assertThat(refused.isError()).as(refused.toString()).isTrue();
        String text = refused.firstContent().asText().text();
        assertThat(text).contains("Source 'flaky'").containsIgnoringCase("try again");
        assertLeaksNothing(text);
    }

    private static ToolResponse mcpRunSql(String sql) {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        try {
            ToolResponse[] response = new ToolResponse[1];
            client.when().toolsCall("run_sql").withArguments(Map.of("sql", sql, "source", "flaky"))
                    .withAssert(r -> response[0] = r).send().thenAssertResults();
            return response[0];
        } finally {
            client.disconnect();
        }
    }

    private static void awaitTrue(BooleanSupplier condition, Duration within, String why) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(why).isLessThan(deadline);
            Pause.sleep(Duration.ofMillis(100));
        }
    }
}
