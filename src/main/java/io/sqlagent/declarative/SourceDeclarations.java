package io.sqlagent.declarative;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.sql.source.SourceUrls;
import io.sqlagent.yaml.YamlProblem;
import io.sqlagent.yaml.YamlTree;

/**
 * Reads the {@code sources} entries of a tool file: expands {@code ${ENV_VAR}} and
 * {@code ${ENV_VAR:default}} in their values and turns host/port/database into a PostgreSQL URL; a {@code url} names
 * its engine ({@code postgresql://}, {@code mysql://}, {@code mariadb://}).
 */
final class SourceDeclarations {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_.]*)(?::([^}]*))?}");
    private static final int DEFAULT_POOL_SIZE = 5;

    private SourceDeclarations() {
    }

    /** One source, or problems (added to {@code problems}) and empty. */
    static Optional<DeclaredSource> read(YamlTree tree, String name, JsonNode node, UnaryOperator<String> environment,
            List<YamlProblem> problems) {
        String path = YamlTree.child("sources", name);
        int before = problems.size();
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            if (field.getValue().isTextual() || field.getValue().isNumber()) {
                String fieldPath = YamlTree.child(path, field.getKey());
                expand(field.getValue().asText(), environment, problem -> problems.add(tree.problem(fieldPath, problem)))
                        .ifPresent(value -> values.put(field.getKey(), value));
            }
        }
        boolean hasUrl = node.has("url");
        boolean hasHost = node.has("host") || node.has("database");
        if (hasUrl == hasHost) {
            problems.add(tree.problem(path, hasUrl ? "give either url or host/port/database, not both"
                    : "needs a url, or host and database"));
        } else if (hasHost && (!node.has("host") || !node.has("database"))) {
            problems.add(tree.problem(path, "needs both host and database (port defaults to 5432)"));
        }
        String port = values.getOrDefault("port", "5432");
        if (!port.matches("[0-9]{1,5}")) {
            problems.add(tree.problem(YamlTree.child(path, "port"), "must be a port number (got '" + port + "')"));
        }
        if (hasUrl && values.containsKey("url")) {
            try {
                SourceUrls.engine(values.get("url"));
            } catch (IllegalArgumentException e) {
                problems.add(tree.problem(YamlTree.child(path, "url"), e.getMessage()));
            }
        }
        if (problems.size() > before) {
            return Optional.empty();
        }
        String url = hasUrl ? values.get("url")
                : "postgresql://" + values.get("host") + ":" + port + "/"
                        + URLEncoder.encode(values.get("database"), StandardCharsets.UTF_8);
        return Optional.of(new DeclaredSource(name, tree.file(), url, Optional.ofNullable(values.get("user")),
                Optional.ofNullable(values.get("password")),
                node.has("maxPoolSize") ? node.get("maxPoolSize").intValue() : DEFAULT_POOL_SIZE));
    }

    /** {@code text} with its references replaced; empty, and a problem reported, when a variable is unset. */
    static Optional<String> expand(String text, UnaryOperator<String> environment,
            java.util.function.Consumer<String> problem) {
        Matcher matcher = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        boolean missing = false;
        while (matcher.find()) {
            String value = environment.apply(matcher.group(1));
            if (value == null) {
                value = matcher.group(2);
            }
            if (value == null) {
                problem.accept("environment variable " + matcher.group(1) + " is not set and has no default (write ${"
                        + matcher.group(1) + ":default})");
                missing = true;
                continue;
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(out);
        return missing ? Optional.empty() : Optional.of(out.toString());
    }
}
