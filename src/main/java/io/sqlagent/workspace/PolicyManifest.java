package io.sqlagent.workspace;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.PatternSyntaxException;

import org.yaml.snakeyaml.nodes.Node;

/**
 * The workspace policy ({@code sqlagent.policy.path}): which SQLite files, directories and vector
 * collections the workspace tools may touch, and their limits. Relative paths in the manifest
 * are resolved against the manifest's own directory.
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

        private final List<String> problems;

        InvalidPolicyException(List<String> problems) {
            super("The workspace policy has " + problems.size() + (problems.size() == 1 ? " problem" : " problems")
                    + " (sqlagent.policy.path):\n  " + String.join("\n  ", problems), null, false, false);
            this.problems = List.copyOf(problems);
        }

        public List<String> problems() {
            return problems;
        }
    }

    /**
     * Reads and checks a manifest.
     *
     * @throws InvalidPolicyException listing every problem found, each as {@code file:line: field: problem}
     */
    public static PolicyManifest load(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        YamlDocument yaml = YamlDocument.load(absolute);
        Path base = absolute.getParent();
        List<Path> sqlite = new ArrayList<>();
        List<Path> read = new ArrayList<>();
        List<Path> write = new ArrayList<>();
        List<String> vectorRead = new ArrayList<>();
        List<String> vectorWrite = new ArrayList<>();
        Limits[] limits = { Limits.DEFAULTS };
        yaml.root().ifPresentOrElse(root -> {
            Map<String, Node> top = yaml.mapping(root, "", List.of("policy"));
            if (!top.containsKey("policy")) {
                yaml.problem(root, "policy", "missing; the manifest starts with policy:");
                return;
            }
            Map<String, Node> policy = yaml.mapping(top.get("policy"), "policy", List.of("data", "limits"));
            Optional.ofNullable(policy.get("data")).ifPresent(dataNode -> {
                Map<String, Node> data = yaml.mapping(dataNode, "policy.data", List.of("sqlite", "filesystem", "vector"));
                Optional.ofNullable(data.get("sqlite")).ifPresent(node -> {
                    Map<String, Node> entries = yaml.mapping(node, "policy.data.sqlite", List.of("allow"));
                    Optional.ofNullable(entries.get("allow"))
                            .ifPresent(list -> sqlite.addAll(paths(yaml, list, "policy.data.sqlite.allow", base)));
                });
                Optional.ofNullable(data.get("filesystem")).ifPresent(node -> {
                    Map<String, Node> entries = yaml.mapping(node, "policy.data.filesystem",
                            List.of("allow_read", "allow_write"));
                    Optional.ofNullable(entries.get("allow_read"))
                            .ifPresent(list -> read.addAll(paths(yaml, list, "policy.data.filesystem.allow_read", base)));
                    Optional.ofNullable(entries.get("allow_write"))
                            .ifPresent(list -> write.addAll(paths(yaml, list, "policy.data.filesystem.allow_write", base)));
                });
                Optional.ofNullable(data.get("vector")).ifPresent(node -> {
                    Map<String, Node> entries = yaml.mapping(node, "policy.data.vector", List.of("allow", "allow_write"));
                    Optional.ofNullable(entries.get("allow"))
                            .ifPresent(list -> vectorRead.addAll(globs(yaml, list, "policy.data.vector.allow")));
                    Optional.ofNullable(entries.get("allow_write"))
                            .ifPresent(list -> vectorWrite.addAll(globs(yaml, list, "policy.data.vector.allow_write")));
                });
            });
            Optional.ofNullable(policy.get("limits")).ifPresent(node -> limits[0] = limits(yaml, node));
        }, () -> {
            if (yaml.problems().isEmpty()) {
                yaml.problems().add(absolute + ":1: policy: the manifest is empty");
            }
        });
        if (!yaml.problems().isEmpty()) {
            throw new InvalidPolicyException(yaml.problems());
        }
        return new PolicyManifest(absolute, List.copyOf(sqlite), List.copyOf(read), List.copyOf(write), List.copyOf(vectorRead),
                List.copyOf(vectorWrite), limits[0]);
    }

    private static List<Path> paths(YamlDocument yaml, Node node, String field, Path base) {
        List<Path> paths = new ArrayList<>();
        for (String entry : yaml.strings(node, field)) {
            try {
                // Kept as written (normalised, not resolved): the real path is taken at each use, when it exists.
                paths.add(base.resolve(entry).normalize());
            } catch (RuntimeException e) {
                yaml.problem(node, field, "'" + entry + "' is not a valid path: " + e.getMessage());
            }
        }
        return paths;
    }

    private static List<String> globs(YamlDocument yaml, Node node, String field) {
        List<String> globs = new ArrayList<>();
        for (String entry : yaml.strings(node, field)) {
            try {
                FileSystems.getDefault().getPathMatcher("glob:" + entry);
                globs.add(entry);
            } catch (PatternSyntaxException e) {
                yaml.problem(node, field,
                        "'" + entry + "' is not a valid glob pattern (" + e.getDescription() + " at character "
                                + (e.getIndex() + 1) + ")");
            }
        }
        return globs;
    }

    private static Limits limits(YamlDocument yaml, Node node) {
        Map<String, Node> entries = yaml.mapping(node, "policy.limits",
                List.of("max_rows", "max_bytes", "default_top_k", "max_top_k",
                        "timeout_seconds"));
        Limits defaults = Limits.DEFAULTS;
        int maxRows = Optional.ofNullable(entries.get("max_rows"))
                .flatMap(n -> yaml.number(n, "policy.limits.max_rows", 1, 100_000)).map(Long::intValue)
                .orElse(defaults.maxRows());
        long maxBytes = Optional.ofNullable(entries.get("max_bytes"))
                .flatMap(n -> yaml.number(n, "policy.limits.max_bytes", 1, 1L << 30)).orElse(defaults.maxBytes());
        int topK = Optional.ofNullable(entries.get("default_top_k"))
                .flatMap(n -> yaml.number(n, "policy.limits.default_top_k", 1, 1000)).map(Long::intValue)
                .orElse(defaults.defaultTopK());
        int maxTopK = Optional.ofNullable(entries.get("max_top_k"))
                .flatMap(n -> yaml.number(n, "policy.limits.max_top_k", 1, 1000)).map(Long::intValue)
                .orElse(defaults.maxTopK());
        if (topK > maxTopK) {
            yaml.problem(entries.getOrDefault("default_top_k", node), "policy.limits.default_top_k",
                    "must not exceed max_top_k ("
                            + maxTopK + ")");
        }
        int timeout = Optional.ofNullable(entries.get("timeout_seconds"))
                .flatMap(n -> yaml.number(n, "policy.limits.timeout_seconds", 1, 3600)).map(Long::intValue)
                .orElse(defaults.timeoutSeconds());
        return new Limits(maxRows, maxBytes, topK, maxTopK, timeout);
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
