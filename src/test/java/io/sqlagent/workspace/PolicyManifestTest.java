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
                    vector:
                      allow: ["docs-[a"]
                  limits:
                    max_rows: lots
                    max_bytes: 0
                """);

        String file = dir.resolve("policy.yaml").toAbsolutePath().toString();
        assertEquals(List.of(
                file + ":4: policy.data.sqlite.allow: must be a list of strings",
                file + ":6: policy.data.filesystem.allow_reed: unknown field; expected one of allow_read, allow_write",
                file + ":8: policy.data.vector.allow: 'docs-[a' is not a valid glob pattern (Missing '] at character 7)",
                file + ":10: policy.limits.max_rows: must be a whole number from 1 to 100000",
                file + ":11: policy.limits.max_bytes: must be a whole number from 1 to 1073741824"), e.problems());
        assertTrue(e.getMessage().startsWith("The workspace policy has 5 problems (sqlagent.policy.path):"), e.getMessage());
    }

    @Test
    void syntaxErrorsEmptyFilesAndMissingFilesAreNamed() throws Exception {
        String file = dir.resolve("policy.yaml").toAbsolutePath().toString();
        assertTrue(invalid("policy:\n  data: [unclosed\n").problems().get(0).startsWith(file + ":3: "));
        assertEquals(List.of(file + ":1: policy: the manifest is empty"), invalid("").problems());
        assertEquals(List.of(file + ":1: policy: missing; the manifest starts with policy:"),
                invalid("data: {}\n").problems().subList(1, 2));
        assertEquals(List.of(file + ":3: policy.data: duplicate field"),
                invalid("policy:\n  data: {}\n  data: {}\n").problems());
        PolicyManifest.InvalidPolicyException missing = assertThrows(PolicyManifest.InvalidPolicyException.class,
                () -> PolicyManifest.load(dir.resolve("nope.yaml")));
        assertTrue(missing.problems().get(0).contains("nope.yaml: cannot be read"), missing.problems().toString());
    }
}
