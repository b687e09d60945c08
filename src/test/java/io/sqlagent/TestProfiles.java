package io.sqlagent;

import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.sqlagent.declarative.DeclaredToolsFiles;
import io.sqlagent.workspace.WorkspaceFixture;

/**
 * The test profiles, each shared by every test class whose settings can live together. Quarkus starts the
 * application again for each profile, and again for each different set of {@code @WithTestResource}s, so a test that
 * needs settings of its own joins one of these (with the same test resources as the other classes of the profile)
 * rather than bringing a profile of its own. Each profile says which settings it holds for whom and why they do not
 * disturb the other classes; most tests run in the default profile, every one of them with {@code @ScriptedModel} (the
 * same test resource, so one application), whether or not it talks to the model. One profile lives elsewhere:
 * {@code BrokenSourceTest.Profile} points source {@code default} at a closed port, which no other test can share (nor
 * can {@code ExternalSourceTest}, whose test resource points it at another server).
 */
public final class TestProfiles {

    /** How long source {@code default}'s calls wait for a connection in the profiles whose tests wait for the refusal. */
    private static final String ACQUIRE_TIMEOUT = "3s";

    private TestProfiles() {
    }

    /**
     * No model configured, the shipped replay file set ({@code sqlagent.model.replay-file}): the demo as a newcomer
     * tries it without a model server ({@code ReplayModelTest}, {@code ChatPageReplayTest}). {@code OpenApiExamplesTest}
     * runs here too: its eval-run examples start runs that go on after it, which the replayed model answers without
     * disturbing a scripted one. Classes of a profile run in the order of their names, so {@code ReplayModelTest}'s own
     * run (at most two at once) starts before them; {@code ChatPageReplayTest} asks only its own question.
     */
    public static class Replayed implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sqlagent.model.replay-file", "classpath:replay/chinook.yaml");
        }
    }

    /**
     * Narrow SQL: a table policy ({@code TablePolicyToolsTest}), small statement limits ({@code SqlLimitsTest}) and an
     * audit queue of two records that is never flushed by its timer ({@code AuditBackpressureTest}). The tables the
     * limits test reads ({@code track}, {@code album}) are allowed by the policy, the policy test's results are single
     * small rows, and the audit test flushes the queue before it counts, so what the others called does not matter.
     * It is also the profile without a model ({@code NoModelTest}, {@code ChatPageWithoutModelTest}): the default
     * profile's classes all use {@code @ScriptedModel}, so they share one application. The one statement they run
     * counts {@code track}, which the policy allows.
     */
    public static class Restricted implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "sqlagent.sql.allowed-tables", "track,album,artist,genre,invoice",
                    "sqlagent.sql.denied-tables", "invoice",
                    "sqlagent.sql.timeout", "1s",
                    "sqlagent.sql.max-rows", "5",
                    "sqlagent.sql.max-cell-chars", "10",
                    "sqlagent.sql.max-result-size", "300",
                    "sqlagent.audit.queue-capacity", "2",
                    "sqlagent.audit.flush-interval", "1h",
                    // The shipped Chinook tools read tables this policy refuses, and a declared tool that reads
                    // what the policy refuses stops the start (DeclaredToolsPolicyTest): leave them out here.
                    "sqlagent.tools.shipped", "false");
        }
    }

    /**
     * A tightly limited agent ({@code AgentLimitsTest}) that offers no save tools ({@code LearningDisabledTest}), and
     * a short wait for a connection of source {@code default} ({@code PrincipalShareTest} waits for it twice to see the
     * refusal it asserts; 3 s instead of 10). The three classes use {@code @ScriptedModel(timeout = "1s")}. The limits
     * test never asks for a save tool; the learning test's chat takes two iterations of the three allowed and its model
     * answers at once; none of the others' statements waits for a connection.
     */
    public static class TightAgent implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "sqlagent.sources.default.acquire-timeout", ACQUIRE_TIMEOUT,
                    "sqlagent.agent.max-iterations", "3",
                    "sqlagent.agent.timeout", "3s",
                    "sqlagent.agent.model-timeout", "1s",
                    "sqlagent.agent.max-buffered-events", "16",
                    "sqlagent.agent.max-answer-chars", "5000000",
                    "sqlagent.learning.enabled", "false");
        }
    }

    /**
     * Optional features switched on together: hidden columns ({@code HiddenColumnsToolsTest}), a workspace policy
     * manifest ({@code WorkspaceToolsResourceTest}) whose vector collections are embedded by the OpenAI-compatible
     * endpoint ({@code OpenAiEmbeddingsTest}), and declared tools from the binding fixtures and a directory the reload
     * tests rewrite, watched every 200 ms ({@code DeclaredTools*Test}). Every class uses
     * {@code @ScriptedModel} (the embedding endpoint). The hidden columns
     * ({@code customer.email}, {@code *.phone}, {@code hr.payslip.iban}) are read by no declared or workspace tool, and
     * the workspace tools and declared tools have names of their own. The denied tables ({@code secret_ledger},
     * {@code secret_parts}, schemas {@code vault} and {@code postgres}) exist only while the table policy tests
     * ({@code TablePolicySpellingsTest}, {@code DeclaredToolsPolicyTest}) run. Governed learning is on
     * ({@code sqlagent.learning.approval=required}, {@code GovernedLearningTest}): what the others save is a proposal,
     * which none of them searches for.
     */
    public static class Features implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            WorkspaceFixture workspace = WorkspaceFixture.shared();
            Map<String, String> settings = new HashMap<>();
            settings.put("sqlagent.sql.hidden-columns", "customer.email,*.phone,hr.payslip.iban");
            // Tables only the table policy tests create (TablePolicySpellingsTest, DeclaredToolsPolicyTest).
            settings.put("sqlagent.sql.denied-tables", "public.secret_ledger,public.secret_parts,vault.*,postgres.*");
            // Chinook's eleven tables count as a large database here, so the paged listing is seen (SearchSchemaToolTest).
            settings.put("sqlagent.schema.listing.max-names", "5");
            settings.put("sqlagent.schema.listing.page-size", "4");
            settings.put("sqlagent.policy.path", workspace.manifest.toString());
            settings.put("sqlagent.vector.path", workspace.root.resolve("vectors").toString());
            settings.put("sqlagent.vector.embedding", "openai");
            settings.put("quarkus.langchain4j.openai.embedding-model.model-name", "scripted-embedding");
            settings.put("sqlagent.tools.paths", "src/test/resources/declarative/binding," + DeclaredToolsFiles.RELOAD_DIR);
            settings.put("sqlagent.tools.max-fetch-rows", "1000");
            settings.put("sqlagent.tools.watch", "true");
            settings.put("sqlagent.tools.watch-interval", "200ms");
            settings.put("sqlagent.learning.approval", "required");
            // PrincipalKnowledgeTest waits for it to see the busy refusal it asserts (TightAgent says why not everywhere).
            settings.put("sqlagent.sources.default.acquire-timeout", ACQUIRE_TIMEOUT);
            return settings;
        }
    }
}
