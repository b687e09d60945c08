package io.sqlagent.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sqlagent.yaml.YamlProblem;

class PolicyManifestTest {

    @TempDir
    Path dir;

    private PolicyManifest.InvalidPolicyException invalid(String yaml) throws Exception {
        Path file = dir.resolve("policy.yaml");
        Files.writeString(file, yaml);
        return assertThrows(PolicyManifest.InvalidPolicyException.class, () -> PolicyManifest.load(file));
    }

    @Test
    void aFullManifestIsReadWithPathsRelativeToItself() throws Exception {
        Path file = dir.resolve("policy.yaml");
        Files.writeString(file, """
                policy:
                  data:
                    sqlite: { allow: [db/a.sqlite, /srv/b.sqlite] }
                    filesystem: { allow_read: [data, ./notes/../notes], allow_write: [notes] }
                    vector: { allow: ["docs-*"], allow_write: [scratch] }
                  limits: { max_rows: 50, max_bytes: 2048, default_top_k: 7, timeout_seconds: 5 }
                """);

        PolicyManifest policy = PolicyManifest.load(file);

        Path base = dir.toAbsolutePath();
        assertEquals(List.of(base.resolve("db/a.sqlite"), Path.of("/srv/b.sqlite")), policy.sqlite());
        assertEquals(List.of(base.resolve("data"), base.resolve("notes")), policy.readDirs());
        assertEquals(List.of(base.resolve("notes")), policy.writeDirs());
        assertEquals(new PolicyManifest.Limits(50, 2048, 7, 100, 5), policy.limits());
        assertTrue(PolicyManifest.matches(policy.vectorRead(), "docs-2026"));
        assertFalse(PolicyManifest.matches(policy.vectorRead(), "scratch"), "write access grants no read access");
        assertTrue(PolicyManifest.matches(policy.vectorWrite(), "scratch"));
    }

    @Test
    void leftOutSectionsAllowNothingAndLimitsDefault() throws Exception {
        Path file = dir.resolve("policy.yaml");
        Files.writeString(file, "policy:\n  data:\n    filesystem:\n      allow_read: [data]\n");

        PolicyManifest policy = PolicyManifest.load(file);

        assertEquals(List.of(), policy.sqlite());
        assertEquals(List.of(), policy.writeDirs());
        assertEquals(PolicyManifest.Limits.DEFAULTS, policy.limits());
    }

    @Test
    void everyProblemIsListedWithFileLineAndField() throws Exception {
        PolicyManifest.InvalidPolicyException e = invalid("""
                policy:
                  data:
                    sqlite:
                      allow: data/one.sqlite
                    filesystem:
                      allow_reed: [data]
                  limits:
                    max_rows: lots
                    max_bytes: 0
                """);

        String file = dir.resolve("policy.yaml").toAbsolutePath().toString();
        assertEquals(List.of(
                new YamlProblem(file, 4, "policy.data.sqlite.allow", "must be an array, not a string"),
                new YamlProblem(file, 6, "policy.data.filesystem.allow_reed",
                        "is not a known field; known fields: allow_read, allow_write"),
                new YamlProblem(file, 8, "policy.limits.max_rows", "must be an integer, not a string"),
                new YamlProblem(file, 9, "policy.limits.max_bytes", "must be at least 1 (got 0)")), e.problems());
        assertTrue(e.getMessage().startsWith("The workspace policy has 4 problems (sqlagent.policy.path):\n  " + file
                + ":4: policy.data.sqlite.allow: must be an array, not a string"), e.getMessage());
    }

    @Test
    void whatTheSchemaCannotSayIsCheckedAfterItWithTheSameProblemRecord() throws Exception {
        PolicyManifest.InvalidPolicyException e = invalid("""
                policy:
                  data:
                    vector:
                      allow: ["docs-[a"]
                  limits: { default_top_k: 20, max_top_k: 10 }
                """);

        String file = dir.resolve("policy.yaml").toAbsolutePath().toString();
        assertEquals(List.of(
                new YamlProblem(file, 4, "policy.data.vector.allow[0]",
                        "'docs-[a' is not a valid glob pattern (Missing '] at character 7)"),
                new YamlProblem(file, 5, "policy.limits.default_top_k", "default_top_k (20) must not exceed max_top_k (10)")),
                e.problems());
    }

    @Test
    void syntaxErrorsEmptyFilesAndMissingFilesAreNamed() throws Exception {
        String file = dir.resolve("policy.yaml").toAbsolutePath().toString();
        YamlProblem syntax = invalid("policy:\n  data: [unclosed\n").problems().get(0);
        assertEquals(file, syntax.file());
        assertEquals(2, syntax.line(), "the line of the unclosed list");
        assertTrue(syntax.message().startsWith("not valid YAML: "), syntax.message());
        assertEquals(List.of(new YamlProblem(file, 1, "(file)", "the file is empty")), invalid("").problems());
        assertEquals(List.of(new YamlProblem(file, 1, "policy", "is required"),
                new YamlProblem(file, 1, "data", "is not a known field; known fields: policy")),
                invalid("data: {}\n").problems());
        assertEquals(
                List.of(new YamlProblem(file, 3, "policy.data",
                        "'data' is given twice (first on line 2); names must be unique")),
                invalid("policy:\n  data: {}\n  data: {}\n").problems());
        PolicyManifest.InvalidPolicyException missing = assertThrows(PolicyManifest.InvalidPolicyException.class,
                () -> PolicyManifest.load(dir.resolve("nope.yaml")));
        assertEquals(List.of(new YamlProblem(dir.resolve("nope.yaml").toAbsolutePath().toString(), 0, "(file)",
                "does not exist (sqlagent.policy.path)")), missing.problems());
    }
}
