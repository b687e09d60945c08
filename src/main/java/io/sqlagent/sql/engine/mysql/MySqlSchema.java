package io.sqlagent.sql.engine.mysql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.SchemaReader;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;

/**
 * A MySQL or MariaDB source's schema from {@code information_schema}, which lists only what the source's account has
 * a privilege on: the tables and views of every database it may read but the server's own ({@code mysql},
 * {@code performance_schema}, {@code sys}, {@code information_schema}), the URL's database first; columns with their
 * full types ({@code decimal(10,2)}, {@code int(10) unsigned}), keys, defaults and comments; foreign keys column by
 * column. MariaDB's {@code JSON} is a {@code longtext} with a {@code json_valid} check; such a column is named
 * {@code json}. Four statements, whatever the number of tables.
 */
final class MySqlSchema implements SchemaReader {

    private static final String SYSTEM = "('information_schema', 'mysql', 'performance_schema', 'sys')";

    private static final String TABLES = "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, TABLE_COMMENT,"
            + " TABLE_SCHEMA = DATABASE() AS OWN FROM information_schema.TABLES WHERE TABLE_SCHEMA NOT IN " + SYSTEM
            + " ORDER BY TABLE_SCHEMA = DATABASE() DESC, TABLE_SCHEMA, TABLE_NAME";

    private static final String COLUMNS = "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE,"
            + " COLUMN_DEFAULT, COLUMN_KEY, COLUMN_COMMENT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA NOT IN "
            + SYSTEM + " ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION";

    private static final String FOREIGN_KEYS = "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, REFERENCED_TABLE_SCHEMA,"
            + " REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE"
            + " WHERE REFERENCED_TABLE_NAME IS NOT NULL AND TABLE_SCHEMA NOT IN " + SYSTEM
            + " ORDER BY TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION";

    /** MariaDB's JSON columns: the check it adds to a {@code longtext}. MySQL before 8.0.16 has no such table. */
    private static final String JSON_CHECKS = "SELECT CONSTRAINT_SCHEMA, TABLE_NAME, CHECK_CLAUSE"
            + " FROM information_schema.CHECK_CONSTRAINTS WHERE CHECK_CLAUSE LIKE 'json\\_valid(%'";

    private static final Pattern JSON_CHECK = Pattern.compile("json_valid\\(`((?:[^`]|``)+)`\\)");

    private static final Pattern TEXT = Pattern.compile("(var)?char\\(.*|(tiny|medium|long)?text|enum\\(.*|set\\(.*");

    @Override
    public Uni<List<Table>> catalog(SqlClient pool) {
        return pool.query(TABLES).execute().flatMap(tables -> pool.query(COLUMNS).execute()
                .flatMap(columns -> pool.query(FOREIGN_KEYS).execute()
                        .flatMap(keys -> jsonColumns(pool).map(json -> tables(tables, columns, keys, json)))));
    }

    /** {@code schema.table.column} of MariaDB's JSON columns; none where the server has no check constraints. */
    private static Uni<Set<String>> jsonColumns(SqlClient pool) {
        return pool.query(JSON_CHECKS).execute().map(rows -> {
            Set<String> json = new java.util.HashSet<>();
            for (Row row : rows) {
                Matcher matcher = JSON_CHECK.matcher(row.getString(2));
                if (matcher.matches()) {
                    json.add(row.getString(0) + "." + row.getString(1) + "." + matcher.group(1).replace("``", "`"));
                }
            }
            return (Set<String>) json;
        }).onFailure().recoverWithItem(Set.of());
    }

    private static List<Table> tables(RowSet<Row> tables, RowSet<Row> columns, RowSet<Row> keys, Set<String> json) {
        Map<String, List<Column>> columnsOf = new LinkedHashMap<>();
        for (Row row : columns) {
            String table = row.getString(0) + "." + row.getString(1);
            String type = json.contains(table + "." + row.getString(2)) ? "json" : row.getString(3);
            columnsOf.computeIfAbsent(table, ignored -> new ArrayList<>()).add(new Column(row.getString(2), type,
                    "YES".equals(row.getString(4)), "PRI".equals(row.getString(6)), defaultValue(row.getString(5)),
                    text(row.getString(7))));
        }
        Map<String, List<ForeignKey>> keysOf = new LinkedHashMap<>();
        for (Row row : keys) {
            keysOf.computeIfAbsent(row.getString(0) + "." + row.getString(1), ignored -> new ArrayList<>())
                    .add(new ForeignKey(row.getString(2), row.getString(3), row.getString(4), row.getString(5)));
        }
        List<Table> read = new ArrayList<>();
        for (Row row : tables) {
            String key = row.getString(0) + "." + row.getString(1);
            String type = row.getString(2);
            String kind = type.contains("VIEW") ? "view" : type.equals("SEQUENCE") ? "sequence" : "table";
            // A view's comment is the word VIEW, not a description.
            Optional<String> description = kind.equals("view") ? Optional.empty() : text(row.getString(3));
            read.add(new Table(row.getString(0), row.getString(1), kind, row.getInteger(4) == 1, description,
                    List.copyOf(columnsOf.getOrDefault(key, List.of())), List.copyOf(keysOf.getOrDefault(key, List.of()))));
        }
        return read;
    }

    /** MariaDB writes a nullable column without default as the word NULL. */
    private static Optional<String> defaultValue(String value) {
        return value == null || value.equals("NULL") ? Optional.empty() : Optional.of(value);
    }

    private static Optional<String> text(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }

    @Override
    public String sampleStatement(Table table, List<String> columns, int rows) {
        return "SELECT " + String.join(", ", columns.stream().map(MySqlSchema::quoted).toList()) + " FROM "
                + quoted(table) + " LIMIT " + rows;
    }

    @Override
    public String valueHintsStatement(Table table, List<String> columns, int sampleRows, int maxValues, int maxLength) {
        List<String> names = columns.stream().map(MySqlSchema::quoted).toList();
        StringBuilder sql = new StringBuilder("WITH sampled AS (SELECT ").append(String.join(", ", names)).append(" FROM ")
                .append(quoted(table)).append(" LIMIT ").append(sampleRows).append(")\nSELECT i, v FROM (");
        for (int i = 0; i < names.size(); i++) {
            // One character set for every branch of the union, whatever each column's is.
            String value = "CONVERT(" + names.get(i) + " USING utf8mb4)";
            sql.append(i == 0 ? "\n" : "\nUNION ALL\n").append("(SELECT ").append(i).append(" AS i, v FROM (SELECT DISTINCT")
                    .append(" CASE WHEN CHAR_LENGTH(").append(value).append(") > ").append(maxLength)
                    .append(" THEN CONCAT(LEFT(").append(value).append(", ").append(maxLength).append("), '…') ELSE ")
                    .append(value).append(" END AS v FROM sampled WHERE ").append(names.get(i)).append(" IS NOT NULL)")
                    .append(" AS d").append(i).append(" ORDER BY v LIMIT ").append(maxValues + 1).append(')');
        }
        return sql.append("\n) AS hints ORDER BY i, v").toString();
    }

    @Override
    public boolean hintable(String type) {
        return TEXT.matcher(type).matches();
    }

    /** A name in backticks, backticks in it doubled. */
    static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private static String quoted(Table table) {
        return quoted(table.schema()) + "." + quoted(table.name());
    }
}
