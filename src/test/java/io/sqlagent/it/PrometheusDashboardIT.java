package io.sqlagent.it;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;

/**
 * The Grafana dashboard ({@code k8s/grafana/sqlagent-dashboard.json}) and the alerts
 * ({@code k8s/prometheus-rules.yaml}) against a real Prometheus (the Debian package) scraping the
 * packaged service every second under a short scripted load: chats through the scripted model (a
 * tool call, a blocked statement, a model error) and run_sql over REST (successes and a SQL error).
 * Every panel query and every alert expression is read from the two files and evaluated through
 * Prometheus' HTTP API: each parses, each returns data, and none names a metric the service does not
 * export. The rule groups pass {@code promtool check rules}, and Prometheus evaluates them without
 * error.
 */
class PrometheusDashboardIT {

    private static final Path DASHBOARD = Path.of("k8s/grafana/sqlagent-dashboard.json");
    private static final Path RULES = Path.of("k8s/prometheus-rules.yaml");
    private static final Duration READY_WITHIN = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What Grafana puts in place of its variables; a rate window long enough to cover the whole load. */
    private static final Map<String, String> GRAFANA_VARIABLES = Map.of(
            "$__rate_interval", "1m",
            "$__interval", "5s",
            "$instance", ".*");

    /** A metric family's sample names in the text format: {@code name}, or name and a suffix, then labels or a value. */
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]");
    /** The threshold an alert compares its expression with. */
    private static final Pattern THRESHOLD = Pattern
            .compile("(?s)^(.*?)\\s*(==|!=|>=|<=|>|<)\\s*-?[0-9.]+(?:e[+-]?[0-9]+)?\\s*$");
    private static final Pattern LABEL_VALUES = Pattern.compile("^label_values\\((.+),\\s*([a-zA-Z_]+)\\)$");
    /** PromQL words that look like metric names but are not. */
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "bool", "and", "or", "unless", "offset", "inf", "nan");

    @TempDir
    Path workDir;

    @Test
    void everyPanelAndAlertReturnsDataFromTheServicesOwnMetrics() throws Exception {
        File prometheus = tool("prometheus");
        File promtool = tool("promtool");
        Map<String, String> queries = dashboardQueries();
        Map<String, JsonNode> alerts = alerts();
        Path ruleFile = workDir.resolve("rules.yml");
        new YAMLMapper().writeValue(ruleFile.toFile(), new YAMLMapper().readTree(RULES.toFile()).path("spec"));
        assertPromtoolAccepts(promtool, ruleFile);

        try (ScriptedOpenAiServer model = ScriptedOpenAiServer.start();
                ServiceProcess service = ServiceProcess.startShortLived(workDir, Map.of(
                        "QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL", model.baseUrl(),
                        "QUARKUS_LANGCHAIN4J_OPENAI_CHAT_MODEL_MODEL_NAME", "llama3.1",
                        "SQLAGENT_HEALTH_PROBE_INTERVAL", "1s"),
                        // The pod's memory request: small enough that the load brings garbage collections.
                        List.of("-Xmx384m"));
                Prometheus server = Prometheus.start(prometheus, workDir, service.httpPort, ruleFile)) {
            service.awaitStatus("/q/health/ready", 200, READY_WITHIN);
            server.awaitReady();

            runLoad(model, service);
            Set<String> exported = exportedSampleNames(service);
            server.awaitData("sqlagent_sql_errors_total",
                    "gen_ai_client_operation_duration_seconds_count{error_type!=\"none\"}",
                    "sqlagent_tool_calls_total{outcome=\"blocked\"}", "jvm_gc_pause_seconds_count", "sqlagent_source_up",
                    "sqlagent_model_retries_total", "sqlagent_model_circuit_open", "sqlagent_eval_accuracy");
            Thread.sleep(3000); // a few more scrapes, so every rate has two samples after the load

            List<String> problems = new ArrayList<>();
            queries.forEach((panel, expr) -> check(server, exported, panel, expr, expr, problems));
            alerts.forEach((name, rule) -> {
                String expr = rule.path("expr").asText().strip();
                Matcher threshold = THRESHOLD.matcher(expr);
                // The alert's own expression fires only past its threshold: it must parse; what it compares must have data.
                String measured = threshold.matches() ? threshold.group(1) : expr;
                if (!threshold.matches()) {
                    problems.add("alert " + name + ": no threshold to compare with: " + expr);
                }
                server.query(expr).ifPresent(error -> problems.add("alert " + name + ": " + error + ": " + expr));
                check(server, exported, "alert " + name, measured, expr, problems);
            });
            problems.addAll(server.ruleProblems(alerts.keySet()));
            assertEquals(List.of(), problems, String.join("\n", problems));
        }
    }

    @Test
    void everyAlertHasASeverityADurationAndAnnotationsAndThePanelsTheDataSourceVariable() throws Exception {
        Map<String, JsonNode> alerts = alerts();
        assertTrue(alerts.keySet().containsAll(List.of("SqlagentSourceDown", "SqlagentRunErrorRate", "SqlagentModelErrors",
                "SqlagentSlowRuns", "SqlagentAuditRecordsDropped", "SqlagentSourcePoolSaturated")), alerts.keySet().toString());
        String runbook = Files.readString(Path.of("k8s/README.md")).toLowerCase();
        alerts.forEach((name, rule) -> {
            assertTrue(Set.of("critical", "warning").contains(rule.at("/labels/severity").asText()), name + ": severity");
            assertTrue(rule.path("for").asText().matches("\\d+[smh]"), name + ": for");
            assertFalse(rule.at("/annotations/summary").asText().isBlank(), name + ": summary");
            assertTrue(rule.at("/annotations/description").asText().contains("k8s/README.md#"), name + ": runbook link");
            String anchor = rule.at("/annotations/description").asText().replaceAll("(?s).*k8s/README.md#(\\S+).*", "$1");
            assertTrue(runbook.contains("### " + anchor), name + ": no runbook section for #" + anchor);
        });

        JsonNode dashboard = JSON.readTree(DASHBOARD.toFile());
        assertEquals("datasource", dashboard.at("/templating/list/0/type").asText());
        List<JsonNode> panels = panels(dashboard.path("panels"), new ArrayList<>());
        assertTrue(panels.size() >= 21, "panels: " + panels.size());
        // The operator's questions each have a panel: model retries, the breaker, limit refusals, evaluation accuracy.
        String expressions = panels.stream().flatMap(panel -> panel.findValuesAsText("expr").stream())
                .collect(java.util.stream.Collectors.joining("\n"));
        for (String metric : List.of("sqlagent_model_retries_total", "sqlagent_model_circuit_open",
                "sqlagent_limit_refusals_total", "sqlagent_eval_accuracy")) {
            assertTrue(expressions.contains(metric + "{"), "no panel shows " + metric);
        }
        for (JsonNode panel : panels) {
            assertEquals("${datasource}", panel.at("/datasource/uid").asText(), panel.path("title").asText());
            panel.path("targets").forEach(target -> assertEquals("${datasource}", target.at("/datasource/uid").asText()));
        }
    }

    /** Evaluates {@code expr}: it must parse, return data, and name only metrics the service exports. */
    private static void check(Prometheus server, Set<String> exported, String what, String expr, String shown,
            List<String> problems) {
        Set<String> unknown = new TreeSet<>(metricNames(expr));
        unknown.removeAll(exported);
        if (!unknown.isEmpty()) {
            problems.add(what + ": names metrics the service does not export " + unknown + ": " + shown);
        }
        try {
            JsonNode answer = server.evaluate(expr);
            if (!"success".equals(answer.path("status").asText())) {
                problems.add(what + ": " + answer.path("error").asText() + ": " + expr);
            } else if (answer.at("/data/result").isEmpty()) {
                problems.add(what + ": no data: " + expr);
            }
        } catch (IOException | InterruptedException e) {
            problems.add(what + ": " + e + ": " + expr);
        }
    }

    /**
     * The scripted load: every panel gets data from it. Chats with a tool call, a blocked statement and
     * a model that answers 400; run_sql over REST with successes and a statement PostgreSQL rejects.
     */
    private static void runLoad(ScriptedOpenAiServer model, ServiceProcess service) throws Exception {
        URI chat = URI.create("http://localhost:" + service.httpPort + "/api/chat");
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT count(*) AS genres FROM genre\"}")),
                text("There are 25 genres."));
        assertEquals("done", SseClient.chat(chat, "{\"question\":\"How many genres?\"}").last().name());
        model.then(toolCalls(call("c2", "run_sql", "{\"sql\":\"DELETE FROM genre\"}")), text("I may only read."));
        SseClient.Result blocked = SseClient.chat(chat, "{\"question\":\"Delete the genres\"}");
        assertEquals("blocked", blocked.named("tool_result").get(0).data().path("outcome").asText(),
                blocked.events().toString());
        // A model that fails once with 503 and then answers: the call is retried (sqlagent_model_retries_total).
        model.then(new ScriptedOpenAiServer.Failure(503, "overloaded"), text("There are 25 genres."));
        assertEquals("done", SseClient.chat(chat, "{\"question\":\"How many genres again?\"}").last().name());
        model.then(new ScriptedOpenAiServer.Failure(400, "the model rejects this request"));
        assertEquals("error", SseClient.chat(chat, "{\"question\":\"And now?\"}").last().name());
        for (int i = 0; i < 3; i++) {
            assertEquals(200, service.postJson("/api/tools/run_sql", "{\"sql\":\"SELECT 1 AS one\"}", Duration.ofSeconds(10))
                    .statusCode());
        }
        assertEquals(422, service.postJson("/api/tools/run_sql", "{\"sql\":\"SELECT no_such_column FROM genre\"}",
                Duration.ofSeconds(10)).statusCode());
    }

    /** Every sample name in the service's own scrape ({@code _bucket}, {@code _count}, {@code _total} and all). */
    private static Set<String> exportedSampleNames(ServiceProcess service) throws Exception {
        String scrape = service.get("/q/metrics").orElseThrow().body();
        Set<String> names = new TreeSet<>();
        scrape.lines().filter(line -> !line.startsWith("#")).forEach(line -> {
            Matcher sample = SAMPLE.matcher(line);
            if (sample.find()) {
                names.add(sample.group(1));
            }
        });
        return names;
    }

    /**
     * The metric names an expression selects. Prometheus has no API that returns a parsed
     * expression, so this strips what cannot hold one (strings, label matchers, ranges, grouping
     * clauses) and keeps the identifiers that are not a call or a keyword.
     */
    static Set<String> metricNames(String expr) {
        String stripped = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Matcher identifier = Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*+)(?!\\s*\\()").matcher(stripped);
        Set<String> names = new TreeSet<>();
        while (identifier.find()) {
            if (!KEYWORDS.contains(identifier.group(1).toLowerCase())) {
                names.add(identifier.group(1));
            }
        }
        return names;
    }

    /** Each panel target's and each template variable's query, Grafana's variables replaced, by where it is. */
    private static Map<String, String> dashboardQueries() throws IOException {
        JsonNode dashboard = JSON.readTree(DASHBOARD.toFile());
        Map<String, String> queries = new LinkedHashMap<>();
        for (JsonNode panel : panels(dashboard.path("panels"), new ArrayList<>())) {
            for (JsonNode target : panel.path("targets")) {
                queries.put("panel '" + panel.path("title").asText() + "' " + target.path("refId").asText(),
                        substitute(target.path("expr").asText()));
            }
        }
        for (JsonNode variable : dashboard.at("/templating/list")) {
            if (variable.path("type").asText().equals("query")) {
                // label_values(metric, label) is Grafana's: the same question in PromQL.
                Matcher labelValues = LABEL_VALUES.matcher(variable.at("/query/query").asText().strip());
                assertTrue(labelValues.matches(), "variable " + variable.path("name").asText());
                queries.put("variable $" + variable.path("name").asText(),
                        "count by (" + labelValues.group(2) + ") (" + labelValues.group(1) + ")");
            }
        }
        assertTrue(queries.size() >= 20, "queries: " + queries.size());
        return queries;
    }

    private static String substitute(String expr) {
        String result = expr;
        for (Map.Entry<String, String> variable : GRAFANA_VARIABLES.entrySet()) {
            result = result.replace(variable.getKey(), variable.getValue());
        }
        assertFalse(result.contains("$"), "a Grafana variable the test does not know: " + expr);
        return result;
    }

    private static List<JsonNode> panels(JsonNode panels, List<JsonNode> found) {
        for (JsonNode panel : panels) {
            if (panel.path("type").asText().equals("row")) {
                panels(panel.path("panels"), found);
            } else {
                found.add(panel);
            }
        }
        return found;
    }

    private static Map<String, JsonNode> alerts() throws IOException {
        JsonNode rules = new YAMLMapper().readTree(RULES.toFile());
        assertEquals("PrometheusRule", rules.path("kind").asText());
        Map<String, JsonNode> alerts = new LinkedHashMap<>();
        rules.at("/spec/groups").forEach(group -> group.path("rules").forEach(rule -> alerts.put(rule.path("alert").asText(),
                rule)));
        return alerts;
    }

    private static void assertPromtoolAccepts(File promtool, Path ruleFile) throws Exception {
        Process check = new ProcessBuilder(promtool.getPath(), "check", "rules", ruleFile.toString()).redirectErrorStream(true)
                .start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(30, TimeUnit.SECONDS), "promtool did not finish");
        assertEquals(0, check.exitValue(), output);
        assertTrue(output.contains("SUCCESS"), output);
    }

    /** The Debian package's binary: on the PATH or in /usr/bin; under CI a missing one fails the test. */
    private static File tool(String name) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.add("/usr/bin");
        for (String dir : dirs) {
            File candidate = new File(dir, name);
            if (candidate.canExecute()) {
                return candidate;
            }
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(name + " is not installed (Debian: apt-get install prometheus); .ci/run installs it before the tests");
        }
        Assumptions.abort(name + " is not installed (Debian: apt-get install prometheus)");
        return null;
    }

    /** A Prometheus server of its own, scraping the service every second and evaluating the rules. */
    private static final class Prometheus implements AutoCloseable {

        private final Process process;
        private final int port;
        private final Path log;

        private Prometheus(Process process, int port, Path log) {
            this.process = process;
            this.port = port;
            this.log = log;
        }

        static Prometheus start(File binary, Path workDir, int servicePort, Path ruleFile) throws IOException {
            Path config = workDir.resolve("prometheus.yml");
            Files.writeString(config, """
                    global:
                      scrape_interval: 1s
                      evaluation_interval: 1s
                    rule_files:
                      - %s
                    scrape_configs:
                      - job_name: sqlagent
                        metrics_path: /q/metrics
                        static_configs:
                          - targets: ["localhost:%d"]
                    """.formatted(ruleFile.toAbsolutePath(), servicePort));
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            Path log = workDir.resolve("prometheus.log");
            Process process = new ProcessBuilder(binary.getPath(), "--config.file=" + config,
                    "--storage.tsdb.path=" + workDir.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            return new Prometheus(process, port, log);
        }

        void awaitReady() throws Exception {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                assertTrue(process.isAlive(), () -> "prometheus exited:\n" + logText());
                try {
                    if (get("/-/ready").statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                Thread.sleep(200);
            }
            fail("prometheus was not ready within 30 s:\n" + logText());
        }

        /** Waits until each of {@code selectors} has data in Prometheus, that is, until it scraped the load. */
        void awaitData(String... selectors) throws Exception {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            for (String selector : selectors) {
                while (evaluate(selector).at("/data/result").isEmpty()) {
                    assertTrue(System.nanoTime() < deadline, () -> "prometheus has no " + selector + ":\n" + logText());
                    Thread.sleep(250);
                }
            }
        }

        /** The answer of an instant query. */
        JsonNode evaluate(String expr) throws IOException, InterruptedException {
            return JSON.readTree(get("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8)).body());
        }

        /** Why Prometheus refuses {@code expr}, if it does. */
        java.util.Optional<String> query(String expr) {
            try {
                JsonNode answer = evaluate(expr);
                return "success".equals(answer.path("status").asText()) ? java.util.Optional.empty()
                        : java.util.Optional.of(answer.path("error").asText());
            } catch (IOException | InterruptedException e) {
                return java.util.Optional.of(e.toString());
            }
        }

        /** Each alert that Prometheus did not load, or whose last evaluation failed. */
        List<String> ruleProblems(Set<String> alerts) throws Exception {
            JsonNode groups = JSON.readTree(get("/api/v1/rules").body()).at("/data/groups");
            Set<String> loaded = new TreeSet<>();
            List<String> problems = new ArrayList<>();
            groups.forEach(group -> group.path("rules").forEach(rule -> {
                loaded.add(rule.path("name").asText());
                if (!"ok".equals(rule.path("health").asText())) {
                    problems.add("rule " + rule.path("name").asText() + " evaluates as " + rule.path("health").asText() + ": "
                            + rule.path("lastError").asText());
                }
            }));
            if (!loaded.containsAll(alerts)) {
                problems.add("prometheus loaded the rules " + loaded + ", not all of " + alerts);
            }
            return problems;
        }

        private HttpResponse<String> get(String path) throws IOException, InterruptedException {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        }

        private String logText() {
            try {
                return Files.readString(log);
            } catch (IOException e) {
                return e.toString();
            }
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
