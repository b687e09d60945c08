package io.sqlagent.workspace;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A YAML file read as SnakeYAML's node tree, which keeps every value's line, with helpers that
 * collect problems as {@code file:line: field: problem} instead of stopping at the first one.
 */
final class YamlDocument {

    private final Path file;
    private final List<String> problems = new ArrayList<>();
    private Optional<Node> root = Optional.empty();

    private YamlDocument(Path file) {
        this.file = file;
    }

    /** Reads and parses {@code file}; an unreadable file or a syntax error is a problem of the document, with its line. */
    static YamlDocument load(Path file) {
        YamlDocument document = new YamlDocument(file);
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(10);
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            document.root = Optional.ofNullable(new Yaml(options).compose(reader));
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
            document.problems.add(file + ":" + line + ": " + e.getProblem());
        } catch (IOException | RuntimeException e) {
            document.problems.add(file + ": cannot be read: " + e.getMessage());
        }
        return document;
    }

    /** The document's root node; empty for an empty or unreadable file. */
    Optional<Node> root() {
        return root;
    }

    Path file() {
        return file;
    }

    List<String> problems() {
        return problems;
    }

    void problem(Node at, String field, String problem) {
        problems.add(file + ":" + (at.getStartMark().getLine() + 1) + ": " + field + ": " + problem);
    }

    /** The entries of a mapping, by key; reports a node that is not a mapping or a key not in {@code known}. */
    Map<String, Node> mapping(Node node, String field, List<String> known) {
        Map<String, Node> entries = new LinkedHashMap<>();
        if (!(node instanceof MappingNode mapping)) {
            problem(node, field, "must be a mapping with " + String.join(", ", known));
            return entries;
        }
        for (NodeTuple tuple : mapping.getValue()) {
            String key = tuple.getKeyNode() instanceof ScalarNode scalar ? scalar.getValue() : null;
            String path = field.isEmpty() ? String.valueOf(key) : field + "." + key;
            if (key == null || !known.contains(key)) {
                problem(tuple.getKeyNode(), path, "unknown field; expected one of " + String.join(", ", known));
            } else if (entries.containsKey(key)) {
                problem(tuple.getKeyNode(), path, "duplicate field");
            } else {
                entries.put(key, tuple.getValueNode());
            }
        }
        return entries;
    }

    /** A list of non-empty strings. */
    List<String> strings(Node node, String field) {
        List<String> values = new ArrayList<>();
        if (!(node instanceof SequenceNode sequence)) {
            problem(node, field, "must be a list of strings");
            return values;
        }
        for (Node item : sequence.getValue()) {
            if (item instanceof ScalarNode scalar && !scalar.getValue().isBlank()) {
                values.add(scalar.getValue().trim());
            } else {
                problem(item, field, "every entry must be a non-empty string");
            }
        }
        return values;
    }

    /** A whole number between {@code min} and {@code max}. */
    Optional<Long> number(Node node, String field, long min, long max) {
        if (node instanceof ScalarNode scalar) {
            try {
                long value = Long.parseLong(scalar.getValue().trim().replace("_", ""));
                if (value >= min && value <= max) {
                    return Optional.of(value);
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        problem(node, field, "must be a whole number from " + min + " to " + max);
        return Optional.empty();
    }
}
