package io.sqlagent.metrics;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;

/**
 * What Prometheus scrapes from {@code /q/metrics}: every duration a histogram with buckets, every
 * own metric with HELP text, OpenMetrics on request, and nothing for {@code promtool check metrics}
 * to say about the service's own metrics. Same test resource as AgentChatTest, so the same
 * application serves both.
 */
@QuarkusTest
@ScriptedModel
class MetricsEndpointTest {

    /** Every duration the service records, and what records it. */
    private static final List<String> DURATIONS = List.of(
            "sqlagent_tool_calls_duration_seconds",
            "sqlagent_agent_run_duration_seconds",
            "sqlagent_sql_statement_duration_seconds",
            "gen_ai_client_operation_duration_seconds");

    private static final Pattern FAMILY = Pattern.compile("^# (HELP|TYPE) (\\S+) ?(.*)$");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})? (\\S+)");
    private static final Pattern LE = Pattern.compile("le=\"([^\"]+)\"");

    @TestHTTPResource("/api/chat")
    URI chat;

    @TestHTTPResource("/q/metrics")
    URI metrics;

    @BeforeEach
    void exerciseEveryTimer() throws Exception {
        ScriptedOpenAiServer model = ScriptedModelExtension.server();
        // A chat: an agent run, two model calls, a tool call and its SQL statement.
        model.then(toolCalls(call("m1", "run_sql", "{\"sql\":\"SELECT count(*) AS n FROM genre\"}")), text("25 genres."));
        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"How many genres?\"}");
        assertEquals("done", result.last().name(), result.events().toString());
        // A statement PostgreSQL rejects, over REST.
        given().contentType(ContentType.JSON).body("{\"sql\":\"SELECT no_such_column FROM genre\"}")
                .when().post("/api/tools/run_sql").then().statusCode(422);
    }

    @Test
    void everyDurationHasHistogramBucketsAndEveryOwnMetricHasHelp() {
        String scrape = given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString();
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, String> help = new LinkedHashMap<>();
        for (String line : scrape.lines().toList()) {
            Matcher family = FAMILY.matcher(line);
            if (family.matches()) {
                (family.group(1).equals("TYPE") ? types : help).put(family.group(2), family.group(3).trim());
            }
        }

        for (String duration : DURATIONS) {
            assertEquals("histogram", types.get(duration), duration + " is not a histogram: " + types.get(duration));
            List<String> bounds = bucketBounds(scrape, duration);
            assertTrue(bounds.size() >= 8, duration + " has too few buckets for p95/p99: " + bounds);
            assertTrue(bounds.contains("+Inf"), duration + " has no +Inf bucket");
        }
        assertCumulative(scrape, "sqlagent_sql_statement_duration_seconds", "outcome=\"error\"");
        assertCumulative(scrape, "sqlagent_tool_calls_duration_seconds",
                "caller=\"agent\",outcome=\"success\",tool=\"run_sql\"");

        List<String> own = types.keySet().stream().filter(name -> name.startsWith("sqlagent_")).toList();
        assertTrue(
                own.containsAll(List.of("sqlagent_tool_calls_total", "sqlagent_agent_runs_total", "sqlagent_agent_tokens_total",
                        "sqlagent_sql_errors_total", "sqlagent_sql_statement_duration_seconds")),
                own.toString());
        for (String name : own) {
            assertFalse(help.getOrDefault(name, "").isBlank(), name + " has no HELP text");
        }
    }

    @Test
    void eachSourceHasItsReadinessAndItsBusyCountersFromTheStart() throws InterruptedException {
        // The text format ends a label set with a comma ({source="default",}): compare without it.
        // The gauge appears with the first probe's answer, which runs at start without holding it up: wait for it.
        String scrape = "";
        for (long deadline = System.nanoTime() + 20_000_000_000L; System.nanoTime() < deadline;) {
            scrape = given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString()
                    .replace(",}", "}");
            if (scrape.contains("sqlagent_source_up{source=\"default\"} 1.0")) {
                break;
            }
            Thread.sleep(100);
        }
        // The dashboard's readiness panel and the SqlagentSourceDown alert read this gauge.
        assertTrue(scrape.contains("# TYPE sqlagent_source_up gauge"), ownFamilies(scrape));
        assertTrue(scrape.contains("sqlagent_source_up{source=\"default\"} 1.0"), ownFamilies(scrape));
        // The busy counters exist before any call is refused, so a rate over them reads 0 rather than nothing
        // (other tests in this application may have been refused since: any count will do).
        for (String reason : List.of("queue_full", "timeout", "principal_share")) {
            assertTrue(scrape.matches("(?s).*\nsqlagent_source_busy_total\\{reason=\"" + reason
                    + "\",source=\"default\"} \\d+\\.\\d+\n.*"), ownFamilies(scrape));
        }
    }

    @Test
    void openMetricsIsServedWhenAskedFor() {
        for (String accept : List.of("application/openmetrics-text; version=1.0.0", "application/openmetrics-text",
                "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,*/*;q=0.1")) {
            Response response = given().header("Accept", accept).when().get("/q/metrics");
            assertEquals(200, response.statusCode(), "Accept: " + accept);
            assertTrue(response.contentType().startsWith("application/openmetrics-text"), response.contentType());
            String body = response.asString();
            assertTrue(body.endsWith("# EOF\n"), "not OpenMetrics: no # EOF at the end");
            assertTrue(body.contains("# TYPE sqlagent_sql_statement_duration_seconds histogram"), "Accept: " + accept);
            assertTrue(body.contains("sqlagent_sql_statement_duration_seconds_bucket{"), "Accept: " + accept);
        }
        // The plain text format stays what a client asking for it gets.
        given().accept("text/plain").when().get("/q/metrics").then().statusCode(200)
                .header("Content-Type", org.hamcrest.Matchers.startsWith("text/plain; version=0.0.4"));
    }

    /**
     * A client that does not ask for OpenMetrics (curl sends {@code *}{@code /*}, some send no Accept)
     * gets the classic text format, which {@code promtool check metrics} reads whole: OpenMetrics'
     * exemplars after a bucket were read as a malformed timestamp ("expected integer as timestamp").
     */
    @Test
    void aScrapeThatDoesNotAskForOpenMetricsGetsTheTextFormatPromtoolReads() throws Exception {
        File promtool = promtool();
        for (String accept : List.of("*/*", "", "*/*; q=0.8")) {
            // java.net.http sends no Accept header of its own, so "" is a request without one.
            var request = java.net.http.HttpRequest.newBuilder(metrics);
            if (!accept.isEmpty()) {
                request.header("Accept", accept);
            }
            var response = java.net.http.HttpClient.newHttpClient().send(request.build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), "Accept: " + accept);
            String type = response.headers().firstValue("Content-Type").orElse("");
            assertTrue(type.startsWith("text/plain; version=0.0.4"), "Accept: " + accept + ": " + type);
            String body = response.body();
            assertFalse(body.contains("# EOF"), "Accept: " + accept + ": OpenMetrics");
            assertFalse(body.contains("} # {"), "Accept: " + accept + ": exemplars in the text format");

            Process check = new ProcessBuilder(promtool.getPath(), "check", "metrics").redirectErrorStream(true).start();
            try (var stdin = check.getOutputStream()) {
                stdin.write(body.getBytes(StandardCharsets.UTF_8));
            }
            String findings = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(check.waitFor(30, TimeUnit.SECONDS), "promtool did not finish");
            // Findings on the libraries' meters are lint (see below); a format promtool cannot read is an error.
            assertFalse(findings.contains("error while linting") || findings.contains("expected"), findings);
            assertEquals("", ownFindings(findings), "Accept: " + accept);
        }
    }

    /** promtool's lint findings about the service's own families. */
    private static String ownFindings(String findings) {
        return findings.lines().filter(line -> line.startsWith("sqlagent_")).collect(java.util.stream.Collectors.joining("\n"));
    }

    /**
     * The scrape through the real {@code promtool check metrics}. Only the service's own families
     * ({@code sqlagent_*}) go in: Quarkus's and the libraries' meters have findings the service
     * cannot fix (HELP-less Netty and HTTP gauges, camelCase pool labels, {@code process_cpu_time_ns}).
     */
    @Test
    void promtoolFindsNothingToSayAboutTheServicesOwnMetrics() throws Exception {
        File promtool = promtool();
        String scrape = given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString();
        String own = ownFamilies(scrape);
        assertTrue(own.contains("sqlagent_sql_statement_duration_seconds_bucket"), own);

        Process check = new ProcessBuilder(promtool.getPath(), "check", "metrics").redirectErrorStream(true).start();
        try (var stdin = check.getOutputStream()) {
            stdin.write(own.getBytes(StandardCharsets.UTF_8));
        }
        String findings = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(30, TimeUnit.SECONDS), "promtool did not finish");
        assertEquals("", findings.trim(), "promtool check metrics has findings on the service's own metrics");
        assertEquals(0, check.exitValue(), findings);
    }

    private static File promtool() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File candidate = new File(dir, "promtool");
            if (candidate.canExecute()) {
                return candidate;
            }
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("promtool is not installed (Debian: apt-get install prometheus); .ci/run installs it before the tests");
        }
        Assumptions.abort("promtool is not installed (Debian: apt-get install prometheus)");
        return null;
    }

    /** The lines of the text format that belong to a {@code sqlagent_*} family. */
    static String ownFamilies(String scrape) {
        StringBuilder own = new StringBuilder();
        for (String line : scrape.lines().toList()) {
            Matcher family = FAMILY.matcher(line);
            Matcher sample = SAMPLE.matcher(line);
            String name = family.matches() ? family.group(2) : sample.lookingAt() ? sample.group(1) : "";
            if (name.startsWith("sqlagent_")) {
                own.append(line).append('\n');
            }
        }
        return own.toString();
    }

    private static List<String> bucketBounds(String scrape, String family) {
        List<String> bounds = new ArrayList<>();
        scrape.lines().filter(line -> line.startsWith(family + "_bucket{")).forEach(line -> {
            Matcher le = LE.matcher(line);
            if (le.find() && !bounds.contains(le.group(1))) {
                bounds.add(le.group(1));
            }
        });
        return bounds;
    }

    /** The buckets of one series count up to {@code _count}, so histogram_quantile reads them right. */
    private static void assertCumulative(String scrape, String family, String labelled) {
        List<Double> counts = new ArrayList<>();
        double total = -1;
        for (String line : scrape.lines().toList()) {
            Matcher sample = SAMPLE.matcher(line);
            if (!sample.lookingAt() || sample.group(2) == null || !sample.group(2).contains(labelled)) {
                continue;
            }
            if (sample.group(1).equals(family + "_bucket")) {
                counts.add(Double.parseDouble(sample.group(3)));
            } else if (sample.group(1).equals(family + "_count") && total < 0) {
                total = Double.parseDouble(sample.group(3));
            }
        }
        assertFalse(counts.isEmpty(), "no " + family + " series with " + labelled);
        assertTrue(total >= 1, family + " recorded nothing with " + labelled);
        for (int i = 1; i < counts.size(); i++) {
            assertTrue(counts.get(i) >= counts.get(i - 1), family + " buckets are not cumulative: " + counts);
        }
        assertTrue(counts.get(counts.size() - 1) >= 1, family + ": the +Inf bucket is empty: " + counts);
    }
}
