package io.sqlagent.sql.schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sqlagent.sql.engine.SchemaReader;
import io.sqlagent.sql.schema.SchemaIntrospector.CatalogColumn;
import io.sqlagent.sql.schema.SchemaIntrospector.CatalogTable;
import io.sqlagent.sql.schema.SchemaIntrospector.Relation;

/**
 * A source's schema as its engine's {@link SchemaReader} reads it, put in {@link SchemaIntrospector}'s shapes: relations,
 * the columns of one as {@code introspect_schema} describes them, its relationships both ways, and the catalog the
 * schema index is built from.
 */
final class EngineCatalog {

    /** One value of an {@code enum(...)} or {@code set(...)} definition: quoted, a quote in it doubled. */
    private static final Pattern DECLARED_VALUE = Pattern.compile("'((?:[^']|'')*)'");

    private static final Pattern DECLARED_VALUES = Pattern.compile("(?i)(enum|set)\\((.*)\\)");

    private EngineCatalog() {
    }

    static List<Relation> relations(List<SchemaReader.Table> tables) {
        return tables.stream().map(EngineCatalog::relation).toList();
    }

    private static Relation relation(SchemaReader.Table table) {
        return new Relation(table.schema(), table.name(), table.kind(), table.description().orElse(null), table.own());
    }

    static List<CatalogTable> catalog(List<SchemaReader.Table> tables) {
        List<CatalogTable> catalog = new ArrayList<>(tables.size());
        for (SchemaReader.Table table : tables) {
            List<CatalogColumn> columns = table.columns().stream()
                    .map(column -> new CatalogColumn(column.name(), column.type(), column.description().orElse("")))
                    .toList();
            List<String> references = table.foreignKeys().stream().map(key -> key.toSchema() + "." + key.toTable())
                    .distinct().toList();
            catalog.add(new CatalogTable(relation(table), columns, references, extended(table)));
        }
        return catalog;
    }

    /**
     * The tables {@code table} extends: those a foreign key references through its primary key, when that is one column
     * (a subtype's key is its supertype's), itself aside. A primary key over several columns is left out: such a table is
     * a link or a detail far more often, and PostgreSQL's catalog read lists a foreign key by its first column only (so a
     * key over several columns whose first is the one-column primary key counts too).
     */
    private static List<String> extended(SchemaReader.Table table) {
        List<String> key = table.columns().stream().filter(SchemaReader.Column::primaryKey).map(SchemaReader.Column::name)
                .toList();
        if (key.size() != 1) {
            return List.of();
        }
        String self = table.schema() + "." + table.name();
        return table.foreignKeys().stream().filter(foreignKey -> foreignKey.column().equals(key.get(0)))
                .map(foreignKey -> foreignKey.toSchema() + "." + foreignKey.toTable()).filter(target -> !target.equals(self))
                .distinct().toList();
    }

    /** The columns of {@code table} as {@code introspect_schema} describes them; none when it is gone. */
    static List<Map<String, Object>> columns(SchemaReader.Table table) {
        List<Map<String, Object>> columns = new ArrayList<>();
        for (SchemaReader.Column column : table.columns()) {
            Optional<SchemaReader.ForeignKey> outgoing = table.foreignKeys().stream()
                    .filter(key -> key.column().equals(column.name())).findFirst();
            Map<String, Object> described = new LinkedHashMap<>();
            described.put("name", column.name());
            described.put("type", column.type());
            described.put("nullable", column.nullable());
            described.put("primary_key", column.primaryKey());
            described.put("foreign_key", outgoing.isPresent());
            described.put("references", outgoing.map(key -> key.toTable() + "." + key.toColumn()).orElse(null));
            described.put("default", column.defaultValue().orElse(null));
            described.put("description", column.description().orElse(null));
            columns.add(described);
        }
        return columns;
    }

    /**
     * {@code belongsTo} for the foreign keys of {@code relation}, {@code hasMany} for those pointing at it, in the order
     * of {@code keys} ({@link SchemaReader#keys}).
     */
    static List<Map<String, Object>> relationships(List<SchemaReader.HeldKey> keys, Relation relation) {
        List<Map<String, Object>> relationships = new ArrayList<>();
        for (SchemaReader.HeldKey key : keys) {
            boolean outgoing = key.schema().equals(relation.schema()) && key.table().equals(relation.name());
            Map<String, Object> described = new LinkedHashMap<>();
            described.put("type", outgoing ? "belongsTo" : "hasMany");
            described.put("related_table", outgoing ? key.key().toTable() : key.table());
            described.put("foreign_key", key.key().column());
            described.put("local_key", key.key().toColumn());
            relationships.add(described);
        }
        return relationships;
    }

    /**
     * The values an {@code enum(...)} or {@code set(...)} column declares, by {@code schema.table} then column: what a
     * MySQL or MariaDB source offers without reading a row.
     */
    static Map<String, Map<String, List<String>>> declaredValues(List<CatalogTable> catalog) {
        Map<String, Map<String, List<String>>> values = new HashMap<>();
        for (CatalogTable table : catalog) {
            for (CatalogColumn column : table.columns()) {
                List<String> declared = declaredValues(column.type());
                if (!declared.isEmpty()) {
                    values.computeIfAbsent(table.relation().schema() + "." + table.relation().name(),
                            ignored -> new HashMap<>()).put(column.name(), declared);
                }
            }
        }
        return values;
    }

    /** The values of {@code enum('a','b')} or {@code set('a','b')}; none for another type. */
    static List<String> declaredValues(String type) {
        Matcher definition = DECLARED_VALUES.matcher(type.strip());
        if (!definition.matches()) {
            return List.of();
        }
        Set<String> values = new LinkedHashSet<>();
        Matcher value = DECLARED_VALUE.matcher(definition.group(2));
        while (value.find()) {
            String text = value.group(1).replace("''", "'");
            if (!text.isBlank()) {
                values.add(text);
            }
        }
        return List.copyOf(values);
    }
}
