package io.sqlagent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * Settings the service cannot work with stop it at start with a message that says what to change.
 * <p>
 * The refusals that are not about the embedded PostgreSQL or its demo (whose shipped tools are declared only on it) run against
 * one server started for the class, each in a
 * database of its own, two at a time: what they check is read before any query, and a fresh embedded server (initdb
 * and the Chinook load) per refused start was most of this class's time.
 */
class MisconfigurationIT {

    private static final Duration EXIT_WITHIN = Duration.ofSeconds(60);

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws Exception {
        server = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @TempDir
    Path workDir;

    @Test
    void noStoreAndNoEmbeddedServerIsRefusedWithWhatToSet() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of("SQLAGENT_EMBEDDED_ENABLED", "false"))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("No store database is configured and the embedded PostgreSQL is disabled"), log);
            assertTrue(log.contains("QUARKUS_DATASOURCE_REACTIVE_URL"), log);
            assertTrue(service.postmaster().isEmpty(), "no server may start when the embedded one is disabled");
        }
    }

    /**
     * A setting the service cannot work with, what the log must say about it, and what it must not show;
     * {@code embedded} when the refusal comes from the embedded server or the demo it loads.
     */
    record Refusal(String name, Map<String, String> env, List<String> logSays, List<String> logHides, boolean embedded) {

        Refusal(String name, Map<String, String> env, List<String> logSays, List<String> logHides) {
            this(name, env, logSays, logHides, false);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Refusal> refusals() {
        Path tools = Path.of("src/test/resources/declarative/bad").toAbsolutePath();
        Path policy = Path.of("src/test/resources/it/bad-policy.yaml").toAbsolutePath();
        return Stream.of(
                new Refusal("a bad tool file, every problem listed",
                        Map.of("SQLAGENT_TOOLS_PATHS",
                                tools.resolve("values.yaml") + "," + tools.resolve("unknown-source.yaml")),
                        List.of("The tool files have 8 problem(s):",
                                tools.resolve("values.yaml")
                                        + ":9: tools.bad_values.parameters[0].pattern: is not a valid regular expression",
                                tools.resolve("unknown-source.yaml") + ":3: tools.lost_tool.source: unknown source 'nowhere'"),
                        List.of()),
                // As a Kubernetes Secret copied from k8s/secret.example.yaml without filling it in would set them.
                new Refusal("the example Secret's values, each setting named once with how to make one",
                        Map.of("SQLAGENT_AUTH_MODE", "api-key", "SQLAGENT_AUTH_BOOTSTRAP_KEY", "change-me-to-a-long-random-key",
                                "QUARKUS_LANGCHAIN4J_OPENAI_API_KEY", "sk-change-me"),
                        List.of("Settings still hold an example value the project ships",
                                "SQLAGENT_AUTH_BOOTSTRAP_KEY = 'change-me-to-a-long-random-key': a long random value, "
                                        + "for example from: openssl rand -hex 32",
                                "QUARKUS_LANGCHAIN4J_OPENAI_API_KEY = 'sk-change-me': your model provider's API key"),
                        List.of("quarkus.langchain4j.openai.api-key = ", "sqlagent.auth.bootstrap-key = ")),
                // The demo database with a policy of the operator's own: the shipped Chinook tools read invoice.
                new Refusal("shipped tools the table policy refuses, with how to start without them",
                        Map.of("SQLAGENT_SQL_DENIED_TABLES", "invoice"),
                        List.of("tools.sales_by_country_and_month.statement: the statement reads what the table policy "
                                + "refuses: Table invoice is not available",
                                "Set sqlagent.tools.shipped=false (SQLAGENT_TOOLS_SHIPPED=false) to start without them"),
                        List.of(), true),
                new Refusal("an invalid embedded setting", Map.of("SQLAGENT_EMBEDDED_STARTUP_TIMEOUT", "soon"),
                        List.of("Invalid embedded PostgreSQL setting", "sqlagent.embedded.startup-timeout=soon"), List.of(),
                        true),
                new Refusal("a malformed hidden column, with the forms that work",
                        Map.of("SQLAGENT_SQL_HIDDEN_COLUMNS", "customer.email,phone"),
                        List.of("sqlagent.sql.hidden-columns: 'phone' is not table.column, schema.table.column, *.column"),
                        List.of()),
                new Refusal("a bad workspace policy, every problem by line", Map.of("SQLAGENT_POLICY_PATH", policy.toString()),
                        List.of("The workspace policy has 2 problems (sqlagent.policy.path)",
                                policy + ":4: policy.data.filesystem.allow_reed: is not a known field; known fields: "
                                        + "allow_read, allow_write",
                                policy + ":6: policy.limits.max_rows: must be at least 1 (got -1)"),
                        List.of()),
                new Refusal("api-key mode without a bootstrap key or OIDC", Map.of("SQLAGENT_AUTH_MODE", "api-key"),
                        List.of("sqlagent.auth.mode=api-key needs a first admin credential: set sqlagent.auth.bootstrap-key"),
                        List.of()),
                new Refusal("a short bootstrap key, not shown",
                        Map.of("SQLAGENT_AUTH_MODE", "api-key", "SQLAGENT_AUTH_BOOTSTRAP_KEY", "secret"),
                        List.of("sqlagent.auth.bootstrap-key must be at least 16 characters"), List.of("=secret")),
                new Refusal("an unknown auth mode", Map.of("SQLAGENT_AUTH_MODE", "password"),
                        List.of("sqlagent.auth.mode", "password"), List.of()),
                new Refusal("none combined with another mode",
                        Map.of("SQLAGENT_AUTH_MODE", "none,api-key", "SQLAGENT_AUTH_BOOTSTRAP_KEY",
                                "a-bootstrap-key-long-enough"),
                        List.of("'none' cannot be combined with another mode"), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    @Execution(ExecutionMode.CONCURRENT)
    void aSettingTheServiceCannotWorkWithStopsTheStartSayingWhatToChange(Refusal refusal) throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir, environment(refusal))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            String log = service.logText();
            assertThat(exit).as("exit status; the log:%n%s", log).isNotEqualTo(0);
            assertThat(log).contains(refusal.logSays());
            for (String hidden : refusal.logHides()) {
                assertThat(log).doesNotContain(hidden);
            }
        }
    }

    /** The refusal's settings, on a database of its own in the class's server unless it needs the embedded one. */
    private static Map<String, String> environment(Refusal refusal) throws SQLException {
        return refusal.embedded() ? refusal.env() : onOwnDatabase(refusal.env());
    }

    /**
     * {@code settings} on a new database of the class's server. One at a time: PostgreSQL refuses to copy its template
     * while another copy of it is being made.
     */
    private static synchronized Map<String, String> onOwnDatabase(Map<String, String> settings) throws SQLException {
        String database = "refusal_" + DATABASES.incrementAndGet();
        try (Connection connection = server.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
        }
        Map<String, String> env = ServiceProcess.onDatabase(server.getPort(), database);
        env.putAll(settings);
        return env;
    }

    @Test
    void aSecondServiceOnTheSameDataDirectoryIsRefusedAndTheFirstKeepsRunning() throws Exception {
        try (ServiceProcess first = ServiceProcess.start(workDir, Map.of())) {
            first.awaitStatus("/q/health/ready", 200, EXIT_WITHIN);
            ProcessHandle postmaster = first.postmaster().orElseThrow();

            try (ServiceProcess second = ServiceProcess.start(workDir, Map.of())) {
                int exit = second.awaitExit(EXIT_WITHIN);

                assertNotEquals(0, exit);
                String log = second.logText();
                assertTrue(log.contains("in use by another running process (postmaster pid " + postmaster.pid() + ")"), log);
                assertTrue(log.contains("sqlagent.embedded.data-dir"), log);
            }

            assertTrue(postmaster.isAlive(), "the second service stopped the first one's database");
            assertEquals(200, first.get("/q/health/ready").orElseThrow().statusCode());
            first.stop();
            assertTrue(ServiceProcess.awaitDeath(postmaster, Duration.ofSeconds(10)));
        }
    }

    @Test
    void oidcModeWithoutAProviderIsRefusedNamingTheSetting() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir,
                onOwnDatabase(Map.of("SQLAGENT_AUTH_MODE", "oidc")))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            // quarkus-oidc refuses first, in its own words; the service's check says the same if it does not.
            assertTrue(log.contains("'quarkus.oidc.auth-server-url' property must be configured")
                    || log.contains("set quarkus.oidc.auth-server-url"), log);
        }
    }

    @Test
    void noAuthenticationOnEveryInterfaceStartsWithAWarningNamingTheSetting() throws Exception {
        Map<String, String> database = onOwnDatabase(Map.of());
        Map<String, String> onEveryInterface = new HashMap<>(database);
        onEveryInterface.put("QUARKUS_HTTP_HOST", "0.0.0.0");
        try (ServiceProcess service = ServiceProcess.start(workDir, onEveryInterface)) {
            service.awaitStatus("/q/health/ready", 200, EXIT_WITHIN);

            String log = service.logText();
            assertTrue(log.contains("Authentication is off (sqlagent.auth.mode=none) and the service listens on 0.0.0.0"), log);
            service.stop();
        }
        try (ServiceProcess onLoopback = ServiceProcess.start(workDir, database)) {
            onLoopback.awaitStatus("/q/health/ready", 200, EXIT_WITHIN);
            assertFalse(onLoopback.logText().contains("Authentication is off"), onLoopback.logText());
            onLoopback.stop();
        }
    }
}
