package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings the service cannot work with stop it at start with a message that says what to change. */
class MisconfigurationIT {

    private static final Duration EXIT_WITHIN = Duration.ofSeconds(60);

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

    @Test
    void aBadToolFileStopsTheStartWithEveryProblemListed() throws Exception {
        Path fixtures = Path.of("src/test/resources/declarative/bad").toAbsolutePath();
        Map<String, String> env = Map.of("SQLAGENT_TOOLS_PATHS",
                fixtures.resolve("values.yaml") + "," + fixtures.resolve("unknown-source.yaml"));
        try (ServiceProcess service = ServiceProcess.start(workDir, env)) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("The tool files have 8 problem(s):"), log);
            assertTrue(log.contains(fixtures.resolve("values.yaml")
                    + ":9: tools.bad_values.parameters[0].pattern: is not a valid regular expression"), log);
            assertTrue(
                    log.contains(
                            fixtures.resolve("unknown-source.yaml") + ":3: tools.lost_tool.source: unknown source 'nowhere'"),
                    log);
        }
    }

    @Test
    void shippedToolsTheTablePolicyRefusesStopTheStartSayingHowToStartWithoutThem() throws Exception {
        // The demo database with a policy of the operator's own: the shipped Chinook tools read invoice.
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of("SQLAGENT_SQL_DENIED_TABLES", "invoice"))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("tools.sales_by_country_and_month.statement: the statement reads what the table policy "
                    + "refuses: Table invoice is not available"), log);
            assertTrue(log.contains("Set sqlagent.tools.shipped=false (SQLAGENT_TOOLS_SHIPPED=false) to start without them"),
                    log);
        }
    }

    @Test
    void theExampleSecretsValuesAreRefusedNamingEachSettingAndHowToMakeOne() throws Exception {
        // As a Kubernetes Secret copied from k8s/secret.example.yaml without filling it in would set them.
        Map<String, String> env = Map.of("SQLAGENT_AUTH_MODE", "api-key",
                "SQLAGENT_AUTH_BOOTSTRAP_KEY", "change-me-to-a-long-random-key",
                "QUARKUS_LANGCHAIN4J_OPENAI_API_KEY", "sk-change-me");
        try (ServiceProcess service = ServiceProcess.start(workDir, env)) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("Settings still hold an example value the project ships"), log);
            assertTrue(log.contains("SQLAGENT_AUTH_BOOTSTRAP_KEY = 'change-me-to-a-long-random-key': a long random value, "
                    + "for example from: openssl rand -hex 32"), log);
            // The model key's example value is refused by PlaceholderSecretCheckTest; in the packaged service the
            // setting is not seen under its environment name yet (noted in the closing note of this change).
        }
    }

    @Test
    void anInvalidEmbeddedSettingIsNamed() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of("SQLAGENT_EMBEDDED_STARTUP_TIMEOUT", "soon"))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("Invalid embedded PostgreSQL setting"), log);
            assertTrue(log.contains("sqlagent.embedded.startup-timeout=soon"), log);
        }
    }

    @Test
    void aMalformedHiddenColumnIsNamedWithTheFormsThatWork() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir,
                Map.of("SQLAGENT_SQL_HIDDEN_COLUMNS", "customer.email,phone"))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("sqlagent.sql.hidden-columns: 'phone' is not table.column, schema.table.column, *.column"),
                    log);
        }
    }

    @Test
    void aBadWorkspacePolicyIsRefusedWithEveryProblemByLine() throws Exception {
        java.nio.file.Path policy = workDir.resolve("policy.yaml");
        java.nio.file.Files.writeString(policy,
                "policy:\n  data:\n    filesystem:\n      allow_reed: [data]\n  limits:\n    max_rows: -1\n");
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of("SQLAGENT_POLICY_PATH", policy.toString()))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("The workspace policy has 2 problems (sqlagent.policy.path)"), log);
            assertTrue(log.contains(policy
                    + ":4: policy.data.filesystem.allow_reed: is not a known field; known fields: allow_read, allow_write"),
                    log);
            assertTrue(log.contains(policy + ":6: policy.limits.max_rows: must be at least 1 (got -1)"), log);
        }
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
    void apiKeyModeWithoutABootstrapKeyOrOidcIsRefusedNamingTheSetting() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of("SQLAGENT_AUTH_MODE", "api-key"))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(
                    log.contains("sqlagent.auth.mode=api-key needs a first admin credential: set sqlagent.auth.bootstrap-key"),
                    log);
        }
    }

    @Test
    void aShortBootstrapKeyIsRefused() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir,
                Map.of("SQLAGENT_AUTH_MODE", "api-key", "SQLAGENT_AUTH_BOOTSTRAP_KEY", "secret"))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("sqlagent.auth.bootstrap-key must be at least 16 characters"), log);
            assertFalse(log.contains("=secret"), "the log shows the key: " + log);
        }
    }

    @Test
    void oidcModeWithoutAProviderIsRefusedNamingTheSetting() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of("SQLAGENT_AUTH_MODE", "oidc"))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            // quarkus-oidc refuses first, in its own words; the service's check says the same if it does not.
            assertTrue(log.contains("'quarkus.oidc.auth-server-url' property must be configured")
                    || log.contains("set quarkus.oidc.auth-server-url"), log);
        }
    }

    @Test
    void anUnknownAuthModeIsRefusedNamingTheSetting() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of("SQLAGENT_AUTH_MODE", "password"))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("sqlagent.auth.mode"), log);
            assertTrue(log.contains("password"), log);
        }
    }

    @Test
    void noneCombinedWithAnotherModeIsRefused() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir,
                Map.of("SQLAGENT_AUTH_MODE", "none,api-key", "SQLAGENT_AUTH_BOOTSTRAP_KEY", "a-bootstrap-key-long-enough"))) {
            int exit = service.awaitExit(EXIT_WITHIN);

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("'none' cannot be combined with another mode"), log);
        }
    }

    @Test
    void noAuthenticationOnEveryInterfaceStartsWithAWarningNamingTheSetting() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of("QUARKUS_HTTP_HOST", "0.0.0.0"))) {
            service.awaitStatus("/q/health/ready", 200, EXIT_WITHIN);

            String log = service.logText();
            assertTrue(log.contains("Authentication is off (sqlagent.auth.mode=none) and the service listens on 0.0.0.0"), log);
            service.stop();
        }
        try (ServiceProcess onLoopback = ServiceProcess.start(workDir, Map.of())) {
            onLoopback.awaitStatus("/q/health/ready", 200, EXIT_WITHIN);
            assertFalse(onLoopback.logText().contains("Authentication is off"), onLoopback.logText());
            onLoopback.stop();
        }
    }
}
