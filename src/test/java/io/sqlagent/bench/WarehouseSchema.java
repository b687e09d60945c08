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
 * Generates a warehouse-like schema for the schema retrieval benchmark ({@code bench/schema-search.sh}) and test
 * ({@code SchemaSearchRecallTest}), in one of two styles written independently of each other:
 * <ul>
 * <li>{@link #GENERATED}, up to about 2,200 tables: the base tables of {@code bench/schema/entities.txt} (sixteen
 * business schemas: sales, catalog, finance, hr, …, with comments and foreign keys), then the copies real warehouses
 * accumulate, each base table's history, staging, archive, snapshot, summary, audit, error, backup, temporary and v2
 * tables, which share its words and so make the search harder;</li>
 * <li>{@link #ABBREVIATED}, up to 1,144 tables: {@code bench/schema/abbreviated/entities.txt}, abbreviated names
 * ({@code cust_ord_hdr}), camelCase mixed with snake_case, German, French and Spanish names, comments on a few tables
 * only, and a dozen uncommented copies of each ({@code _bak}, {@code Old}, {@code _x}, …).</li>
 * </ul>
 * Tables come base tables first, then one kind of copy after another, so a smaller schema is a prefix of a larger
 * one. {@code questions.tsv} beside each entities file holds the questions and the tables each needs.
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

    /** Copies as a team that names things tersely keeps them: no comment, no extra column. */
    private static final List<Variant> TERSE_VARIANTS = List.of(new Variant("", "%s", List.of()),
            new Variant("_bak", "", List.of()), new Variant("_v2", "", List.of()), new Variant("Old", "", List.of()),
            new Variant("_tmp", "", List.of()), new Variant("_stg", "", List.of("load_id")),
            new Variant("_hist", "", List.of("vld_from", "vld_to")), new Variant("_2023", "", List.of()),
            new Variant("_cpy", "", List.of()), new Variant("_x", "", List.of()), new Variant("_test", "", List.of()),
            new Variant("_arch", "", List.of()), new Variant("Snap", "", List.of("snapDt")));

    /** The first generated warehouse: descriptive snake_case names and comments everywhere. */
    public static final WarehouseSchema GENERATED = new WarehouseSchema(DIRECTORY, VARIANTS,
            List.of("created_at", "updated_at"), "", "_overview",
            "Reporting view of %s, with what it references");
    /** The second: abbreviations, mixed case, several languages, few comments. */
    public static final WarehouseSchema ABBREVIATED = new WarehouseSchema(DIRECTORY.resolve("abbreviated"), TERSE_VARIANTS,
            List.of("crt_ts", "updTs"), "vw_", "", "");

    private final Path directory;
    private final List<Variant> variants;
    private final List<String> auditColumns;
    private final String viewPrefix;
    private final String viewSuffix;
    private final String viewComment;

    /**
     * A generated table, or a view when {@code query} is set: its columns are then the query's, for reading only.
     */
    public record Table(String schema, String name, String comment, Map<String, String> columns,
            Map<String, String> foreignKeys, String query) {
        public String qualified() {
            return schema + "." + name;
        }
    }

    /** A benchmark question and the tables (schema-qualified) it needs. */
    public record Question(String text, List<String> tables) {
    }

    private record Entity(String schema, String name, String comment, List<String> columns, List<String> references) {
    }

    private WarehouseSchema(Path directory, List<Variant> variants, List<String> auditColumns, String viewPrefix,
            String viewSuffix, String viewComment) {
        this.directory = directory;
        this.variants = variants;
        this.auditColumns = auditColumns;
        this.viewPrefix = viewPrefix;
        this.viewSuffix = viewSuffix;
        this.viewComment = viewComment;
    }

    /**
     * The first {@code count} relations of the generated schema: the base tables, then the reporting views over them
     * (unless {@code -Dbench.views=false}), then the copies, one kind after another.
     */
    public List<Table> tables(int count) {
        List<Entity> entities = entities();
        List<Table> tables = new ArrayList<>();
        for (Variant variant : variants) {
            for (Entity entity : entities) {
                if (tables.size() == count) {
                    return tables;
                }
                tables.add(table(entity, variant));
            }
            if (variant.suffix().isEmpty() && !"false".equals(System.getProperty("bench.views"))) {
                for (Table view : views(entities)) {
                    if (tables.size() == count) {
                        return tables;
                    }
                    tables.add(view);
                }
            }
        }
        if (tables.size() < count) {
            throw new IllegalArgumentException("At most " + tables.size() + " tables can be generated");
        }
        return tables;
    }

    private Table table(Entity entity, Variant variant) {
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
            String name = columnName(column);
            columns.put(name, name.equals(column) ? type(name) : column.substring(name.length() + 1));
        }
        if (!variant.suffix().isEmpty()) {
            String column = singular(entity.name()) + "_id";
            columns.putIfAbsent(column, "bigint");
            if (variant.suffix().equals("_history") || variant.suffix().equals("_audit")) {
                foreignKeys.put(column, entity.schema() + "." + entity.name());
            }
            variant.extraColumns().forEach(extra -> columns.put(extra, type(extra)));
        }
        auditColumns.forEach(column -> columns.put(column, "timestamptz"));
        String subject = variant.suffix().isEmpty() || entity.comment().isEmpty() ? entity.comment()
                : lowerFirst(entity.comment());
        return new Table(entity.schema(), entity.name() + variant.suffix(), variant.comment().formatted(subject), columns,
                foreignKeys, null);
    }

    /**
     * The reporting views real warehouses keep beside their tables, as Pagila's {@code customer_list} (a customer with
     * the address, city and country it points at): one per base table that references two tables or more, its columns
     * with the first two of each referenced table's, joined through the foreign keys. They share the words of the
     * tables they read, so a search has to rank them after those tables.
     */
    private List<Table> views(List<Entity> entities) {
        Map<String, Entity> byName = new LinkedHashMap<>();
        entities.forEach(entity -> byName.put(entity.schema() + "." + entity.name(), entity));
        List<Table> views = new ArrayList<>();
        for (Entity entity : entities) {
            List<String> references = entity.references().stream().filter(byName::containsKey).toList();
            if (references.size() < 2) {
                continue;
            }
            Map<String, String> columns = new LinkedHashMap<>();
            List<String> select = new ArrayList<>();
            columns.put("id", "bigint");
            select.add("b.\"id\"");
            for (String column : entity.columns()) {
                String name = columnName(column);
                columns.put(name, "");
                select.add("b." + quoted(name));
            }
            StringBuilder from = new StringBuilder(quoted(entity.schema() + "." + entity.name()) + " b");
            for (int i = 0; i < references.size(); i++) {
                String reference = references.get(i);
                Entity target = byName.get(reference);
                String alias = "r" + i;
                from.append(" LEFT JOIN ").append(quoted(reference)).append(' ').append(alias).append(" ON ").append(alias)
                        .append(".\"id\" = b.")
                        .append(quoted(singular(reference.substring(reference.indexOf('.') + 1)) + "_id"));
                for (String column : target.columns().stream().limit(2).toList()) {
                    String name = columnName(column);
                    String shown = columns.containsKey(name) ? target.name() + "_" + name : name;
                    if (columns.putIfAbsent(shown, "") == null) {
                        select.add(alias + "." + quoted(name) + " AS " + quoted(shown));
                    }
                }
            }
            String comment = entity.comment().isEmpty() || viewComment.isEmpty() ? ""
                    : viewComment.formatted(lowerFirst(entity.comment()));
            views.add(new Table(entity.schema(), viewPrefix + entity.name() + viewSuffix, comment, columns, Map.of(),
                    "SELECT " + String.join(", ", select) + " FROM " + from));
        }
        return views;
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

    private List<Entity> entities() {
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
    public List<Question> questions() {
        return SchemaSet.questions(directory.resolve("questions.tsv"));
    }

    private static List<String> split(String list) {
        // Commas inside parentheses belong to a type: numeric(12,2).
        return list.isBlank() ? List.of() : List.of(list.trim().split("\\s*,(?![^(]*\\))\\s*"));
    }

    private List<String> lines(String file) {
        return lines(directory.resolve(file));
    }

    /** The lines of {@code file} that are neither blank nor a {@code #} comment. */
    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file).stream()
                    .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Run from the project's root: " + file + " is missing", e);
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
            if (table.query() != null) {
                continue;
            }
            List<String> columns = new ArrayList<>();
            table.columns().forEach(
                    (name, type) -> columns.add(quoted(name) + " " + type + (name.equals("id") ? " PRIMARY KEY" : "")));
            statements.add("CREATE TABLE " + quoted(table.qualified()) + " (" + String.join(", ", columns) + ")");
            comment(statements, "TABLE", table);
        }
        for (Table table : tables) {
            table.foreignKeys().forEach((column, target) -> {
                if (present.contains(target)) {
                    statements.add("ALTER TABLE " + quoted(table.qualified()) + " ADD FOREIGN KEY (" + quoted(column)
                            + ") REFERENCES " + quoted(target));
                }
            });
        }
        for (Table view : tables) {
            if (view.query() != null) {
                statements.add("CREATE VIEW " + quoted(view.qualified()) + " AS " + view.query());
                comment(statements, "VIEW", view);
            }
        }
        return statements;
    }

    /** Adds the statement that sets {@code relation}'s comment, a {@code kind} (TABLE, VIEW), when it has one. */
    private static void comment(List<String> statements, String kind, Table relation) {
        if (!relation.comment().isEmpty()) {
            statements.add("COMMENT ON " + kind + " " + quoted(relation.qualified()) + " IS '"
                    + relation.comment().replace("'", "''") + "'");
        }
    }

    /** The name of an entities file's column, {@code name} or {@code name:type}. */
    private static String columnName(String column) {
        int colon = column.indexOf(':');
        return colon < 0 ? column : column.substring(0, colon);
    }

    /** {@code text} with its first letter in lower case, to follow "… of". */
    private static String lowerFirst(String text) {
        return Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }

    /** {@code name} (schema-qualified or not) quoted, so that camelCase names keep their case. */
    private static String quoted(String name) {
        return "\"" + name.replace(".", "\".\"") + "\"";
    }

    /** Creates the first {@code count} tables in the database {@code connection} is open on; empty tables, no data. */
    public void create(Connection connection, int count) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String sql : ddl(tables(count))) {
                statement.addBatch(sql);
            }
            statement.executeBatch();
        }
    }
}
