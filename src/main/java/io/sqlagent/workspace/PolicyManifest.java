package io.sqlagent.workspace;

import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.jsonschema.CompiledSchema;
import io.sqlagent.yaml.YamlProblem;
import io.sqlagent.yaml.YamlTree;

/**
 * The workspace policy ({@code sqlagent.policy.path}): which SQLite files, directories and vector
 * collections the workspace tools may touch, and their limits. Relative paths in the manifest
 * are resolved against the manifest's own directory. Read by {@link YamlTree} and checked against
 * {@code workspace/policy.schema.json}, like the tool files, so its problems are {@link YamlProblem}s.
 *
 * <pre>
 * policy:
 *   data:
 *     sqlite:     { allow: [data/chinook.sqlite] }
 *     filesystem: { allow_read: [data, notes], allow_write: [notes] }
 *     vector:     { allow: ["docs-*"], allow_write: [docs-scratch] }
 *   limits: { max_rows: 100, max_bytes: 1048576, default_top_k: 10, max_top_k: 100, timeout_seconds: 30 }
 * </pre>
 *
 * @param file the manifest
 * @param sqlite database files (or directories of them) {@code sql_query} may open
 * @param readDirs directories {@code read_file} may read under
 * @param writeDirs directories {@code write_file} may write under
 * @param vectorRead glob patterns of collections {@code vector_search} may search
 * @param vectorWrite glob patterns of collections {@code vector_manage} may change
 * @param limits the limits
 */
public record PolicyManifest(Path file, List<Path> sqlite, List<Path> readDirs, List<Path> writeDirs, List<String> vectorRead,
        List<String> vectorWrite, Limits limits) {

    /**
     * Most rows {@code sql_query} returns, most bytes a file read or write moves, results of a
     * vector search when the call names none and at most, seconds a query may run.
     */
    public record Limits(int maxRows, long maxBytes, int defaultTopK, int maxTopK, int timeoutSeconds) {

        public static final Limits DEFAULTS = new Limits(100, 1024 * 1024, 10, 100, 30);
    }

    /** The manifest could not be used; the message lists every problem, each with file and line. */
    public static final class InvalidPolicyException extends RuntimeException {

        private final List<YamlProblem> problems;

        InvalidPolicyException(List<YamlProblem> problems) {
            super("The workspace policy has " + problems.size() + (problems.size() == 1 ? " problem" : " problems")
                    + " (" + SETTING + "):\n  "
                    + problems.stream().map(YamlProblem::toString).collect(Collectors.joining("\n  ")), null, false, false);
            this.problems = List.copyOf(problems);
        }

        /** Every problem, in file order, each printing as {@code file:line: field: problem}. */
        public List<YamlProblem> problems() {
            return problems;
        }
    }

    /** Where the manifest's JSON Schema is on the classpath. */
    public static final String SCHEMA_RESOURCE = "workspace/policy.schema.json";

    private static final String SETTING = "sqlagent.policy.path";
    private static final CompiledSchema FORMAT = YamlTree.schema(SCHEMA_RESOURCE);

    /**
     * Reads and checks a manifest: first against its JSON Schema ({@value #SCHEMA_RESOURCE}), with
     * the same reader and validator as the tool files, then what a schema cannot check (paths, glob
     * patterns, {@code default_top_k} against {@code max_top_k}).
     *
     * @throws InvalidPolicyException listing every problem found, each with file, line and field
     */
    public static PolicyManifest load(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        YamlTree yaml = YamlTree.read(absolute, SETTING);
        List<YamlProblem> problems = new ArrayList<>(yaml.problems());
        if (problems.isEmpty()) {
            problems.addAll(yaml.validate(FORMAT));
        }
        if (!problems.isEmpty()) {
            throw new InvalidPolicyException(problems);
        }
        JsonNode data = yaml.root().path("policy").path("data");
        Path base = absolute.getParent();
        List<Path> sqlite = paths(yaml, data, "sqlite", "allow", base, problems);
        List<Path> read = paths(yaml, data, "filesystem", "allow_read", base, problems);
        List<Path> write = paths(yaml, data, "filesystem", "allow_write", base, problems);
        List<String> vectorRead = globs(yaml, data, "allow", problems);
        List<String> vectorWrite = globs(yaml, data, "allow_write", problems);
        Limits limits = limits(yaml, yaml.root().path("policy").path("limits"), problems);
        if (!problems.isEmpty()) {
            throw new InvalidPolicyException(problems);
        }
        return new PolicyManifest(absolute, sqlite, read, write, vectorRead, vectorWrite, limits);
    }

    /** The entries of {@code policy.data.<section>.<field>}, in order, trimmed; the schema has checked their type. */
    private static List<Entry> entries(JsonNode data, String section, String field) {
        String path = "policy.data." + section + "." + field;
        JsonNode list = data.path(section).path(field);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            entries.add(new Entry(YamlTree.element(path, i), list.get(i).textValue().trim()));
        }
        return entries;
    }

    /** One list entry and where it is. */
    private record Entry(String path, String value) {
    }

    private static List<Path> paths(YamlTree yaml, JsonNode data, String section, String field, Path base,
            List<YamlProblem> problems) {
        List<Path> paths = new ArrayList<>();
        for (Entry entry : entries(data, section, field)) {
            try {
                // Kept as written (normalised, not resolved): the real path is taken at each use, when it exists.
                paths.add(base.resolve(entry.value()).normalize());
            } catch (InvalidPathException e) {
                problems.add(yaml.problem(entry.path(), "'" + entry.value() + "' is not a valid path: " + e.getMessage()));
            }
        }
        return List.copyOf(paths);
    }

    private static List<String> globs(YamlTree yaml, JsonNode data, String field, List<YamlProblem> problems) {
        List<String> globs = new ArrayList<>();
        for (Entry entry : entries(data, "vector", field)) {
            try {
                FileSystems.getDefault().getPathMatcher("glob:" + entry.value());
                globs.add(entry.value());
            } catch (PatternSyntaxException e) {
                problems.add(yaml.problem(entry.path(), "'" + entry.value() + "' is not a valid glob pattern ("
                        + e.getDescription() + " at character " + (e.getIndex() + 1) + ")"));
            }
        }
        return List.copyOf(globs);
    }

    private static Limits limits(YamlTree yaml, JsonNode node, List<YamlProblem> problems) {
        Limits defaults = Limits.DEFAULTS;
        Limits limits = new Limits(node.path("max_rows").asInt(defaults.maxRows()),
                node.path("max_bytes").asLong(defaults.maxBytes()),
                node.path("default_top_k").asInt(defaults.defaultTopK()),
                node.path("max_top_k").asInt(defaults.maxTopK()),
                node.path("timeout_seconds").asInt(defaults.timeoutSeconds()));
        if (limits.defaultTopK() > limits.maxTopK()) {
            problems.add(yaml.problem(node.has("default_top_k") ? "policy.limits.default_top_k" : "policy.limits.max_top_k",
                    "default_top_k (" + limits.defaultTopK() + ") must not exceed max_top_k (" + limits.maxTopK() + ")"));
        }
        return limits;
    }

    /** Whether a collection name matches one of {@code globs}. */
    public static boolean matches(List<String> globs, String collection) {
        Path name = Path.of(collection);
        for (String glob : globs) {
            PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
            if (matcher.matches(name)) {
                return true;
            }
        }
        return false;
    }
}
