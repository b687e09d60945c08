package io.sqlagent.knowledge;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.StorableText;

/**
 * What a reviewer changes while approving: for a learning {@code title}, {@code description},
 * {@code category}, {@code sql}; for a validated query {@code name}, {@code question}, {@code sql},
 * {@code summary}, {@code tables_used}, {@code data_quality_notes}. Checked whole before anything
 * is written, with the same limits the save tools have; every problem is named.
 *
 * @param values the edited fields by column name ({@code tables_used} as a {@code String[]}), in a fixed order
 */
public record ProposalEdits(Map<String, Object> values) {

    static final Set<String> CATEGORIES = Set.of("type_error", "schema_fix", "query_pattern", "data_quality", "business_logic");
    private static final Map<String, Integer> LEARNING = Map.of("title", 100, "description", 20_000, "category", 20,
            "sql", 100_000);
    private static final Map<String, Integer> QUERY = Map.of("name", 100, "question", 2000, "sql", 100_000, "summary", 5000,
            "tables_used", 100, "data_quality_notes", 5000);
    /** Fields that may be set to null (emptied). */
    private static final Set<String> OPTIONAL = Set.of("sql:learning", "data_quality_notes:validated_query");

    public ProposalEdits {
        values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static ProposalEdits none() {
        return new ProposalEdits(Map.of());
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The edited SQL, if the reviewer changed it. */
    public Optional<String> sql() {
        return Optional.ofNullable((String) values.get("sql"));
    }

    /**
     * The edits {@code edits} asks of an item of {@code kind}.
     *
     * @throws ReviewException {@code invalid_edits} naming every problem
     */
    public static ProposalEdits parse(String kind, ObjectNode edits) {
        boolean learning = kind.equals(KnowledgeItemId.LEARNING);
        Map<String, Integer> allowed = learning ? LEARNING : QUERY;
        List<String> problems = new ArrayList<>();
        Map<String, Object> values = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = edits.fields(); fields.hasNext();) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            JsonNode value = field.getValue();
            Integer max = allowed.get(name);
            if (max == null) {
                problems.add("'" + shorten(name) + "' cannot be edited on a " + kind.replace('_', ' ') + " (editable: "
                        + String.join(", ", allowed.keySet().stream().sorted().toList()) + ")");
            } else if (value.isNull() && OPTIONAL.contains(name + ":" + kind)) {
                values.put(name, null);
            } else if (name.equals("tables_used")) {
                tables(value, max, problems).ifPresent(tables -> values.put(name, tables));
            } else if (!value.isTextual() || !StorableText.isVisible(value.asText())) {
                problems.add("'" + name + "' must be a non-blank string");
            } else if (!StorableText.isStorable(value.asText())) {
                problems.add("'" + name + "' " + StorableText.UNSTORABLE);
            } else if (value.asText().strip().length() > max) {
                problems.add("'" + name + "' must be at most " + max + " characters");
            } else if (name.equals("category") && !CATEGORIES.contains(value.asText())) {
                problems.add("'category' must be one of " + String.join(", ", CATEGORIES.stream().sorted().toList()));
            } else {
                values.put(name, value.asText().strip());
            }
        }
        if (!problems.isEmpty()) {
            throw ReviewException.invalid("The edits are not valid: " + String.join("; ", problems) + ". Nothing was changed.");
        }
        return new ProposalEdits(values);
    }

    private static Optional<String[]> tables(JsonNode value, int max, List<String> problems) {
        if (!value.isArray() || value.size() > max) {
            problems.add("'tables_used' must be an array of at most " + max + " table names");
            return Optional.empty();
        }
        List<String> tables = new ArrayList<>();
        for (JsonNode table : value) {
            if (!table.isTextual() || !StorableText.isVisible(table.asText()) || table.asText().length() > 200
                    || !StorableText.isStorable(table.asText())) {
                problems.add("'tables_used' must hold non-blank table names (at most 200 characters, no NUL character"
                        + " or half of a surrogate pair)");
                return Optional.empty();
            }
            if (!tables.contains(table.asText().strip())) {
                tables.add(table.asText().strip());
            }
        }
        return Optional.of(tables.toArray(String[]::new));
    }

    private static String shorten(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }
}
