package io.sqlagent.workspace.vector;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.jsonschema.Violation;
import io.sqlagent.tool.ToolArgumentsException;

/**
 * The bounds on documents' metadata ({@code sqlagent.vector.metadata.*}), checked before anything is written: a
 * document or a call past one is refused as {@code invalid_arguments} naming the limit and its setting.
 */
record MetadataLimits(int maxKeys, int maxKeyLength, int maxValueLength, int maxDistinctKeys) implements VectorConfig.Metadata {

    /** The settings' defaults, for stores built outside CDI (tests and benchmarks). */
    static final MetadataLimits DEFAULTS = new MetadataLimits(32, 64, 1024, 256);

    private static final String PREFIX = "sqlagent.vector.metadata.";

    static MetadataLimits of(VectorConfig.Metadata config) {
        return new MetadataLimits(config.maxKeys(), config.maxKeyLength(), config.maxValueLength(),
                config.maxDistinctKeys());
    }

    /** The problems of document {@code index}'s metadata. */
    List<Violation> check(int index, Map<String, ? extends JsonNode> metadata) {
        List<Violation> problems = new ArrayList<>();
        String at = "documents[" + index + "].metadata";
        if (metadata.size() > maxKeys) {
            problems.add(new Violation(at, "has " + metadata.size() + " keys; the limit is " + maxKeys + " (" + PREFIX
                    + "max-keys)"));
            return problems;
        }
        for (Map.Entry<String, ? extends JsonNode> field : metadata.entrySet()) {
            String key = field.getKey();
            if (key.length() > maxKeyLength) {
                problems.add(new Violation(at, "key '" + key.substring(0, Math.min(20, key.length())) + "…' has " + key.length()
                        + " characters; the limit is " + maxKeyLength + " (" + PREFIX + "max-key-length)"));
                continue;
            }
            JsonNode value = field.getValue();
            int length = value.isTextual() ? value.asText().length() : value.toString().length();
            if (length > maxValueLength) {
                problems.add(new Violation(at + "." + key, "has " + length + " characters; the limit is " + maxValueLength
                        + " (" + PREFIX + "max-value-length)"));
            }
        }
        return problems;
    }

    /** Refuses the call when its documents would take collection {@code name} past its distinct keys. */
    void checkDistinct(String name, Set<String> existing, Collection<VectorCollection.Entry> entries) {
        Set<String> added = new TreeSet<>();
        for (VectorCollection.Entry entry : entries) {
            entry.metadata().fieldNames().forEachRemaining(key -> {
                if (!existing.contains(key)) {
                    added.add(key);
                }
            });
        }
        int total = existing.size() + added.size();
        if (!added.isEmpty() && total > maxDistinctKeys) {
            String message = "collection '" + name + "' would hold " + total + " distinct metadata keys (" + added.size()
                    + " new); the limit is " + maxDistinctKeys + " (" + PREFIX + "max-distinct-keys)";
            throw new ToolArgumentsException("Invalid arguments for tool 'vector_manage': documents " + message,
                    List.of(new Violation("documents", message)));
        }
    }
}
