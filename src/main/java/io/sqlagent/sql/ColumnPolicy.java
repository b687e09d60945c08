package io.sqlagent.sql;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkus.runtime.Startup;

/**
 * Columns the agent may never read ({@code sqlagent.sql.hidden-columns}): {@code table.column}
 * (schema public), {@code schema.table.column}, or {@code *.column} / {@code schema.*.column} for
 * that column in every table (of the schema). {@code introspect_schema} leaves them out, and
 * {@code run_sql} refuses any statement whose plan reads one, however it is spelled (see
 * {@link PgPlanCheck}). Built at start-up, so a malformed entry stops the service at once.
 */
@Singleton
@Startup
public class ColumnPolicy {

    private record Pattern(String schema, String table, String column) {

        boolean matches(String qualifiedTable, String columnName) {
            int dot = qualifiedTable.indexOf('.');
            return column.equals(columnName.toLowerCase(Locale.ROOT))
                    && (schema.equals("*") || schema.equals(qualifiedTable.substring(0, dot)))
                    && (table.equals("*") || table.equals(qualifiedTable.substring(dot + 1)));
        }
    }

    private final List<Pattern> patterns;

    @Inject
    ColumnPolicy(SqlConfig config) {
        this(config.hiddenColumns());
    }

    /**
     * A policy from an explicit list, for tests.
     *
     * @throws IllegalArgumentException naming an entry that is not one of the accepted forms
     */
    public ColumnPolicy(Optional<List<String>> hidden) {
        this.patterns = hidden.orElse(List.of()).stream().filter(entry -> !entry.isBlank()).map(ColumnPolicy::pattern).toList();
    }

    /** Whether any column is hidden. */
    public boolean restricts() {
        return !patterns.isEmpty();
    }

    /**
     * The columns of a relation that are hidden. {@code names} are the relation's
     * {@code schema.table} names (its own, and those of the tables it is a partition of), any
     * case; {@code columns} its column names as PostgreSQL spells them.
     */
    public Set<String> hidden(Collection<String> names, Collection<String> columns) {
        Set<String> hidden = new LinkedHashSet<>();
        for (String column : columns) {
            for (String name : names) {
                String qualified = name.toLowerCase(Locale.ROOT);
                if (patterns.stream().anyMatch(pattern -> pattern.matches(qualified, column))) {
                    hidden.add(column);
                }
            }
        }
        return hidden;
    }

    private static Pattern pattern(String entry) {
        String[] parts = entry.trim().toLowerCase(Locale.ROOT).split("\\.", -1);
        for (String part : parts) {
            if (part.isBlank()) {
                throw invalid(entry);
            }
        }
        Pattern pattern = switch (parts.length) {
            case 2 -> new Pattern(parts[0].equals("*") ? "*" : "public", parts[0], parts[1]);
            case 3 -> new Pattern(parts[0], parts[1], parts[2]);
            default -> throw invalid(entry);
        };
        if (pattern.column().equals("*") || pattern.schema().equals("*") && !pattern.table().equals("*")) {
            throw invalid(entry);
        }
        return pattern;
    }

    private static IllegalArgumentException invalid(String entry) {
        return new IllegalArgumentException("sqlagent.sql.hidden-columns: '" + entry + "' is not table.column, "
                + "schema.table.column, *.column or schema.*.column (to hide a whole table, use sqlagent.sql.denied-tables)");
    }
}
