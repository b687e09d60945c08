package io.sqlagent.sql.source;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** A source that cannot be reached or used makes readiness DOWN, names it, and leaves the service up. */
@QuarkusTest
@TestProfile(BrokenSourceTest.Profile.class)
class BrokenSourceTest {

    static final Path LOG = Path.of("target", "broken-source-test-" + ProcessHandle.current().pid() + ".log");

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(
                    Map.entry("sqlagent.sources.default.url", "postgresql://app:s3cret-pw@127.0.0.1:1/shop"),
                    Map.entry("sqlagent.sources.legacy.url", "mysql://root:hunter2@db/legacy"),
                    Map.entry("sqlagent.sources.oracle.url", "oracle://scott:tiger-pw@db:1521/orcl"),
                    // Passwords holding URL characters, in the URL as written and as a property.
                    Map.entry("sqlagent.sources.odd.url", "postgresql://app:p@ss/w#rd@127.0.0.1:1/shop"),
                    Map.entry("sqlagent.sources.typed.url", "postgresql://127.0.0.1:1/shop"),
                    Map.entry("sqlagent.sources.typed.username", "app"),
                    Map.entry("sqlagent.sources.typed.password", "q@ss/w#rd:7"),
                    // A share of none: the source is misconfigured, and says which setting.
                    Map.entry("sqlagent.sources.unshared.url", "postgresql://127.0.0.1:1/shop"),
                    Map.entry("sqlagent.sources.unshared.max-statements-per-principal", "0"),
                    Map.entry("quarkus.log.file.enabled", "true"),
                    Map.entry("quarkus.log.file.path", LOG.toString()));
        }
    }

    @Test
    void readinessIsDownAndNamesEachBrokenSource() {
        given().when().get("/q/health/ready")
                .then()
                .statusCode(503)
                .body("status", is("DOWN"))
                .body("checks.find { it.name == 'sqlagent sources' }.status", is("DOWN"))
                .body("checks.find { it.name == 'sqlagent sources' }.data.default",
                        allOf(startsWith("DOWN: "), containsString("Connection refused")))
                .body("checks.find { it.name == 'sqlagent sources' }.data.legacy",
                        allOf(startsWith("DOWN: "), not(containsString("misconfigured"))))
                .body("checks.find { it.name == 'sqlagent sources' }.data.oracle",
                        allOf(startsWith("DOWN: misconfigured"),
                                containsString("has the scheme 'oracle', which no engine serves"),
                                containsString("expected postgresql://host:port/database, mysql://host:port/database or "
                                        + "mariadb://host:port/database"),
                                not(containsString("tiger-pw"))))
                .body("checks.find { it.name == 'sqlagent sources' }.data.unshared",
                        allOf(startsWith("DOWN: misconfigured"),
                                containsString(
                                        "sqlagent.sources.unshared.max-statements-per-principal is 0; it must be at least 1")))
                .body("checks.find { it.name == 'Reactive PostgreSQL connections health check' }.status", is("UP"));
    }

    @Test
    void passwordsHoldingUrlCharactersNeverReachHealthOutputOrTheLog() throws Exception {
        String body = given().when().get("/q/health/ready").then().statusCode(503)
                .body("checks.find { it.name == 'sqlagent sources' }.data.odd",
                        allOf(startsWith("DOWN: "), containsString("Connection refused")))
                .body("checks.find { it.name == 'sqlagent sources' }.data.typed",
                        allOf(startsWith("DOWN: "), containsString("Connection refused")))
                .extract().asString();
        List<String> lines = waitForLines("Source 'odd' is DOWN");
        waitForLines("Source 'typed' is DOWN");
        String log = Files.readString(LOG);

        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("postgresql://app:***@127.0.0.1:1/shop"), lines.get(0));
        for (String fragment : List.of("p@ss", "ss/w", "w#rd", "q@ss")) {
            assertFalse(body.contains(fragment), fragment + " leaked to readiness: " + body);
            assertFalse(log.contains(fragment), fragment + " leaked to the log");
        }
    }

    @Test
    void eachBrokenSourceReadsZeroOnItsReadinessGauge() throws Exception {
        // What the dashboard's readiness panel and the SqlagentSourceDown alert read, unreachable or misconfigured alike.
        List<String> expected = List.of("sqlagent_source_up{source=\"default\"} 0.0",
                "sqlagent_source_up{source=\"legacy\"} 0.0",
                "sqlagent_source_up{source=\"odd\"} 0.0", "sqlagent_source_up{source=\"typed\"} 0.0");
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        String scrape = "";
        while (System.nanoTime() < deadline) {
            // The text format ends a label set with a comma ({source="default",}): compare without it.
            scrape = given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString()
                    .replace(",}", "}");
            if (expected.stream().allMatch(scrape::contains)) {
                break;
            }
            Thread.sleep(200);
        }
        for (String gauge : expected) {
            assertTrue(scrape.contains(gauge), gauge + " is not in the scrape: "
                    + scrape.lines().filter(line -> line.startsWith("sqlagent_source")).toList());
        }
    }

    @Test
    void everyToolOnASourceThatCannotBeReachedIsRefusedToRetryNamingItAndNothingElse() {
        // PostgreSQL (default, typed) and MySQL (legacy: a host that does not resolve): the statement, the schema listing,
        // a table's description and the schema index's first build all get 503 busy with Retry-After.
        for (String source : List.of("default", "typed", "legacy")) {
            for (String[] call : List.of(new String[] { "run_sql", "{\"sql\":\"SELECT 1\",\"source\":\"" + source + "\"}" },
                    new String[] { "introspect_schema", "{\"source\":\"" + source + "\"}" },
                    new String[] { "introspect_schema", "{\"table_name\":\"orders\",\"source\":\"" + source + "\"}" },
                    new String[] { "search_schema", "{\"query\":\"orders per customer\",\"source\":\"" + source + "\"}" })) {
                String body = given().contentType("application/json").body(call[1]).when().post("/api/tools/" + call[0])
                        .then().statusCode(503).header("Retry-After", notNullValue())
                        .body("error", is("busy")).body("message", containsString("Source '" + source + "'"))
                        .extract().asString();
                assertThat(body).as(call[0] + " " + call[1]).doesNotContain("127.0.0.1", "s3cret-pw", "q@ss", "hunter2",
                        "Exception", "io.vertx", "error id");
            }
        }
    }

    @Test
    void theServiceStaysUp() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", is("UP"));
    }

    @Test
    void passwordsNeverReachHealthOutput() {
        given().when().get("/q/health/ready")
                .then()
                .body(not(containsString("s3cret-pw")))
                .body(not(containsString("hunter2")));
    }

    @Test
    void theLogSaysWhichSourceIsDownInOneActionableLine() throws Exception {
        List<String> lines = waitForLines("Source 'default' is DOWN");

        assertEquals(1, lines.size(), lines.toString());
        String line = lines.get(0);
        assertTrue(line.contains("postgresql://app:***@127.0.0.1:1/shop"), line);
        assertTrue(line.contains("Connection refused"), line);
        assertTrue(line.contains("SQLAGENT_SOURCES_DEFAULT_URL"), line);
        String log = Files.readString(LOG);
        assertTrue(log.contains("Source 'legacy' is DOWN at mysql://root:***@db/legacy"), "legacy source not reported");
        assertThat(log).contains("Source 'oracle' is misconfigured: invalid URL 'oracle://scott:***@db:1521/orcl': "
                + "'oracle://scott:***@db:1521/orcl' has the scheme 'oracle', which no engine serves")
                .doesNotContain("tiger-pw");
        assertFalse(log.contains("s3cret-pw"), "password leaked to the log");
        assertFalse(log.contains("hunter2"), "password leaked to the log");
    }

    private static List<String> waitForLines(String marker) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        List<String> lines = List.of();
        while (System.nanoTime() < deadline) {
            lines = Files.exists(LOG) ? Files.readAllLines(LOG).stream().filter(l -> l.contains(marker)).toList() : List.of();
            if (!lines.isEmpty()) {
                return lines;
            }
            Thread.sleep(100);
        }
        return lines;
    }
}
