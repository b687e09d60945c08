package io.sqlagent.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Generates a warehouse-like schema of any size up to about 2,200 tables for the schema retrieval benchmark
 * ({@code bench/schema-search.sh}) and test ({@code SchemaSearchRecallTest}): the base tables of
 * {@code bench/schema/entities.txt} (sixteen business schemas: sales, catalog, finance, hr, …, with comments and
 * foreign keys), then the copies real warehouses accumulate, each base table's history, staging, archive,
 * snapshot, summary, audit, error, backup, temporary and v2 tables, which share its words and so make the search
 * harder. Tables come base tables first, then one kind of copy after another, so a smaller schema is a prefix of a
 * larger one. {@code bench/schema/questions.tsv} holds the questions and the tables each needs.
 */
public final class WarehouseSchema {

    /** The files beside the benchmark script. */
    public static final Path DIRECTORY = Path.of("bench", "schema");

    private record Variant(String suffix, String comment, List<String> extraColumns) {
    }

    private static final List<Variant> VARIANTS = List.of(
            new Variant("", "%s", List.of()),
            new Variant("_history", "Change history of %s: one row per version, valid from one time to the next",
                    List.of("valid_from", "valid_to")),
            new Variant("_staging", "Staging copy of %s as loaded by the nightly ETL; not validated, do not report from it",
                    List.of("load_batch_id", "loaded_at")),
            new Variant("_archive", "Archived rows older than two years, moved out of the live table: %s",
                    List.of("archived_at")),
            new Variant("_daily_snapshot", "Daily snapshot taken at midnight UTC of %s", List.of("snapshot_date")),
            new Variant("_monthly_summary", "Monthly aggregates (row counts and totals per month) of %s",
                    List.of("summary_month", "row_count")),
            new Variant("_audit", "Audit trail of inserts, updates and deletes of %s", List.of("operation", "changed_by",
                    "changed_at")),
            new Variant("_load_errors", "Rows rejected by validation while loading %s, with the error",
                    List.of("error_message", "rejected_at")),
            new Variant("_backup_2023", "Backup taken before the 2023 migration of %s", List.of()),
            new Variant("_tmp", "Temporary working table for reconciling %s", List.of("session_key")),
            new Variant("_v2", "New version, being rolled out, of %s", List.of("migrated_at")),
            new Variant("_quarterly_report", "Quarterly report figures derived from %s", List.of("report_quarter",
                    "row_count")));

    /** A generated table. */
    public record Table(String schema, String name, String comment, Map<String, String> columns,
            Map<String, String> foreignKeys) {
        public String qualified() {
            return schema + "." + name;
        }
    }

    /** A benchmark question and the tables (schema-qualified) it needs. */
    public record Question(String text, List<String> tables) {
    }

    private record Entity(String schema, String name, String comment, List<String> columns, List<String> references) {
    }

    private WarehouseSchema() {
    }

    /** The first {@code count} tables of the generated schema. */
    public static List<Table> tables(int count) {
        List<Entity> entities = entities();
        List<Table> tables = new ArrayList<>();
        for (Variant variant : VARIANTS) {
            for (Entity entity : entities) {
                if (tables.size() == count) {
                    return tables;
                }
                tables.add(table(entity, variant));
            }
        }
        if (tables.size() < count) {
            throw new IllegalArgumentException("At most " + tables.size() + " tables can be generated");
        }
        return tables;
    }

    private static Table table(Entity entity, Variant variant) {
        Map<String, String> columns = new LinkedHashMap<>();
        Map<String, String> foreignKeys = new LinkedHashMap<>();
        columns.put("id", "bigint");
        for (String reference : entity.references()) {
            String column = singular(reference.substring(reference.indexOf('.') + 1)) + "_id";
            columns.put(column, "bigint");
            if (variant.suffix().isEmpty()) {
                foreignKeys.put(column, reference);
            }
        }
        for (String column : entity.columns()) {
            int colon = column.indexOf(':');
            String name = colon < 0 ? column : column.substring(0, colon);
            columns.put(name, colon < 0 ? type(name) : column.substring(colon + 1));
        }
        if (!variant.suffix().isEmpty()) {
            String column = singular(entity.name()) + "_id";
            columns.putIfAbsent(column, "bigint");
            if (variant.suffix().equals("_history") || variant.suffix().equals("_audit")) {
                foreignKeys.put(column, entity.schema() + "." + entity.name());
            }
            variant.extraColumns().forEach(extra -> columns.put(extra, type(extra)));
        }
        columns.put("created_at", "timestamptz");
        columns.put("updated_at", "timestamptz");
        String subject = variant.suffix().isEmpty() ? entity.comment()
                : Character.toLowerCase(entity.comment().charAt(0)) + entity.comment().substring(1);
        return new Table(entity.schema(), entity.name() + variant.suffix(), variant.comment().formatted(subject), columns,
                foreignKeys);
    }

    /** The column type a name suggests, as a modeller would pick it. */
    static String type(String column) {
        if (column.equals("id") || column.endsWith("_id")) {
            return "bigint";
        }
        if (column.endsWith("_at") || column.equals("valid_from") || column.equals("valid_to")) {
            return "timestamptz";
        }
        if (column.endsWith("_date") || column.startsWith("valid_") || column.endsWith("_start") || column.endsWith("_end")
                || column.endsWith("_month") || column.endsWith("_quarter")) {
            return "date";
        }
        if (column.startsWith("is_") || column.startsWith("was_") || column.startsWith("has_") || Set.of("passed",
                "approved", "converted", "succeeded").contains(column)) {
            return "boolean";
        }
        if (column.matches(".*(amount|price|cost|balance|revenue|value|rent|premium|fee|total|rate)$")) {
            return "numeric(12,2)";
        }
        if (column.endsWith("_count") || column.equals("quantity") || column.endsWith("_units")) {
            return "integer";
        }
        return "text";
    }

    private static String singular(String name) {
        if (name.endsWith("ies")) {
            return name.substring(0, name.length() - 3) + "y";
        }
        if (name.endsWith("ses") && !name.endsWith("uses")) {
            return name.substring(0, name.length() - 2);
        }
        return name.endsWith("s") && !name.endsWith("ss") ? name.substring(0, name.length() - 1) : name;
    }

    private static List<Entity> entities() {
        List<Entity> entities = new ArrayList<>();
        for (String line : lines("entities.txt")) {
            String[] parts = line.split("\\|", -1);
            String qualified = parts[0].trim();
            entities.add(
                    new Entity(qualified.substring(0, qualified.indexOf('.')), qualified.substring(qualified.indexOf('.') + 1),
                            parts[1].trim(), split(parts[2]), split(parts[3])));
        }
        return entities;
    }

    /** The benchmark's questions. */
    public static List<Question> questions() {
        List<Question> questions = new ArrayList<>();
        for (String line : lines("questions.tsv")) {
            String[] parts = line.split("\t");
            questions.add(new Question(parts[0].trim(), split(parts[1])));
        }
        return questions;
    }

    private static List<String> split(String list) {
        // Commas inside parentheses belong to a type: numeric(12,2).
        return list.isBlank() ? List.of() : List.of(list.trim().split("\\s*,(?![^(]*\\))\\s*"));
    }

    private static List<String> lines(String file) {
        try {
            return Files.readAllLines(DIRECTORY.resolve(file)).stream()
                    .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Run from the project's root: " + DIRECTORY.resolve(file) + " is missing", e);
        }
    }

    /** The statements that create {@code tables} (schemas, tables, comments, then the foreign keys among them). */
    public static List<String> ddl(List<Table> tables) {
        List<String> statements = new ArrayList<>();
        Set<String> schemas = new TreeSet<>();
        Set<String> present = new TreeSet<>();
        tables.forEach(table -> {
            schemas.add(table.schema());
            present.add(table.qualified());
        });
        schemas.forEach(schema -> statements.add("CREATE SCHEMA IF NOT EXISTS " + schema));
        for (Table table : tables) {
            List<String> columns = new ArrayList<>();
            table.columns().forEach((name, type) -> columns.add(name + " " + type + (name.equals("id") ? " PRIMARY KEY" : "")));
            statements.add("CREATE TABLE " + table.qualified() + " (" + String.join(", ", columns) + ")");
            statements.add("COMMENT ON TABLE " + table.qualified() + " IS '" + table.comment().replace("'", "''") + "'");
        }
        for (Table table : tables) {
            table.foreignKeys().forEach((column, target) -> {
                if (present.contains(target)) {
                    statements
                            .add("ALTER TABLE " + table.qualified() + " ADD FOREIGN KEY (" + column + ") REFERENCES " + target);
                }
            });
        }
        return statements;
    }

    /** Creates the first {@code count} tables in the database {@code connection} is open on; empty tables, no data. */
    public static void create(Connection connection, int count) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String sql : ddl(tables(count))) {
                statement.addBatch(sql);
            }
            statement.executeBatch();
        }
    }
}
