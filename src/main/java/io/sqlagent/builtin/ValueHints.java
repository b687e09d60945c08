package io.sqlagent.builtin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.knowledge.schema.SchemaSearchConfig;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.schema.SchemaIntrospector;
import io.sqlagent.sql.source.Source;

/**
 * The distinct values of a table's low-cardinality text columns, for {@code introspect_schema}: the model
 * then filters with values that exist ({@code status = 'shipped'}, not {@code 'Shipped'}). One statement per
 * table reads the first {@code sample-rows} rows as the caller (its role and row-level security apply), only
 * the shown columns, each value cut to {@code max-length}; a column with more than {@code max-values}
 * distinct values gets none. Past {@code timeout} the statement is cancelled and the table is described
 * without hints: hints are a help, never a reason for the description to fail. The statement, and which types are
 * text worth hinting (keys, numbers and dates are not), are the source's engine's
 * ({@code SchemaReader.valueHintsStatement}, {@code hintable}).
 */
final class ValueHints {

    private final QueryRunner runner;
    private final SchemaSearchConfig.ValueHints config;

    ValueHints(QueryRunner runner, SchemaSearchConfig.ValueHints config) {
        this.runner = runner;
        this.config = config;
    }

    /** Adds {@code values} to the low-cardinality text columns among {@code columns} (the shown ones). */
    Uni<Void> add(Source source, SchemaIntrospector.Relation relation, List<Map<String, Object>> columns, Caller caller) {
        List<Map<String, Object>> candidates = columns.stream()
                .filter(column -> hintable(source, String.valueOf(column.get("type"))))
                .filter(column -> !Boolean.TRUE.equals(column.get("primary_key"))
                        && !Boolean.TRUE.equals(column.get("foreign_key")))
                .toList();
        if (!config.enabled() || candidates.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Duration timeout = config.timeout();
        return runner.run(source, statement(source, relation, candidates), caller)
                .ifNoItem().after(timeout).fail()
                .map(result -> {
                    // PostgreSQL's statement answers a row per column (its values an array), another engine's a row
                    // per value.
                    Map<Integer, List<String>> found = new TreeMap<>();
                    for (JsonNode row : result.rowObjects()) {
                        JsonNode values = row.path("v");
                        int index = row.path("i").asInt(-1);
                        if (index >= 0 && index < candidates.size() && !values.isNull() && !values.isMissingNode()) {
                            List<String> hinted = found.computeIfAbsent(index, ignored -> new ArrayList<>());
                            if (values.isArray()) {
                                values.forEach(value -> hinted.add(value.asText()));
                            } else {
                                hinted.add(values.asText());
                            }
                        }
                    }
                    found.forEach((index, hinted) -> {
                        if (!hinted.isEmpty() && hinted.size() <= config.maxValues()) {
                            candidates.get(index).put("values", hinted);
                        }
                    });
                    return (Void) null;
                })
                .onFailure().recoverWithItem(failure -> {
                    Log.debugf("No value hints for %s: %s", relation.displayName(), failure.getMessage());
                    return null;
                });
    }

    /** Whether a column of {@code type} is text worth hinting, as the source's engine names its types. */
    private static boolean hintable(Source source, String type) {
        return source.engine().schema().hintable(type);
    }

    /**
     * Per candidate column: its position and up to {@code max-values + 1} distinct values (one more, to tell a
     * column that has too many). Names come from the catalog, quoted; nothing of the model's text is in it.
     */
    private String statement(Source source, SchemaIntrospector.Relation relation, List<Map<String, Object>> candidates) {
        return source.engine().schema().valueHintsStatement(SchemaIntrospector.table(relation),
                candidates.stream().map(column -> (String) column.get("name")).toList(), config.sampleRows(),
                config.maxValues(), config.maxLength());
    }
}
