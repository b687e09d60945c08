package io.sqlagent.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sqlagent.declarative.DeclarationReader;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.workspace.PolicyManifest;

/**
 * The service's YAML files are read one way: a bad tool file and a bad workspace policy report the
 * same problem record, located by file, line and field, worded by the same schema validator.
 */
class YamlProblemsTest {

    @TempDir
    Path dir;

    @Test
    void aBadToolFileAndABadPolicyReportTheSameProblemRecord() throws Exception {
        Path tools = dir.resolve("tools.yaml");
        Files.writeString(tools, """
                tools:
                  count_tracks:
                    source: default
                    description: Counts tracks.
                    statement: SELECT count(*) FROM track
                    colour: red
                """);
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                policy:
                  data:
                    filesystem:
                      allow_read: [data]
                      colour: red
                """);

        List<YamlProblem> toolProblems = DeclarationReader.read(List.of(YamlTree.read(tools, "sqlagent.tools.paths")),
                new DeclarationReader.Context(Set.of("default"), Set.of("run_sql"), SqlGuard.defaults(), name -> null))
                .problems();
        List<YamlProblem> policyProblems = assertThrows(PolicyManifest.InvalidPolicyException.class,
                () -> PolicyManifest.load(policy)).problems();

        assertEquals(1, toolProblems.size(), toolProblems.toString());
        YamlProblem tool = toolProblems.get(0);
        assertEquals(new YamlProblem(tools.toString(), 6, "tools.count_tracks.colour", tool.message()), tool);
        assertTrue(tool.message().startsWith("is not a known field; known fields: source, description, statement"),
                tool.message());
        assertEquals(List.of(new YamlProblem(policy.toAbsolutePath().toString(), 5, "policy.data.filesystem.colour",
                "is not a known field; known fields: allow_read, allow_write")), policyProblems);
    }

    @Test
    void aMissingFileNamesTheSettingThatNamedIt() {
        YamlTree missing = YamlTree.read(dir.resolve("absent.yaml"), "sqlagent.policy.path");

        assertEquals(List.of(new YamlProblem(dir.resolve("absent.yaml").toString(), 0, YamlTree.WHOLE_FILE,
                "does not exist (sqlagent.policy.path)")), missing.problems());
    }
}
