package io.sqlagent.sql.engine.postgres;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.SchemaReader;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * A PostgreSQL source's schema from its catalog: the tables, views, materialized views, partitioned and foreign tables
 * the connected role may read ({@code has_table_privilege}), {@code public} first, partitions left out; columns with
 * {@code format_type}'s types, keys, defaults and comments. The listing, one table's columns and the keys around it are
 * each one statement, so describing a table costs the same whatever the number of tables; the whole catalog (for the
 * schema index) is one statement too, without the columns' defaults. A foreign key over several columns is listed by its first
 * column. Tables are
 * found by schema and name; their oids never leave this class.
 */
final class PgSchema implements SchemaReader {

    /** Readable relations, partitions left out, {@code public} first. */
    private static final String READABLE = """
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f')
              AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
              AND NOT c.relispartition
              AND has_table_privilege(c.oid, 'SELECT')
            ORDER BY n.nspname = 'public' DESC, n.nspname, c.relname""";

    private static final String RELATIONS = """
            SELECT n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
                   obj_description(c.oid, 'pg_class') AS description
            """ + READABLE;

    /**
     * Every readable relation with its columns and foreign keys, in one statement, so that a catalog of thousands of
     * tables is read in one round trip, at the cost of the names, types and comments alone: each table's columns in one
     * pass over {@code pg_attribute}, their comments joined rather than asked one by one, and no default (PostgreSQL
     * deparses each one; {@link #table} reads them). The keys come ordered by the table they reference (the order of
     * {@code SELECT DISTINCT} of those names), so the distinct references of a table are listed in that order.
     */
    private static final String CATALOG = """
            SELECT n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
                   obj_description(c.oid, 'pg_class') AS description,
                   a.names, a.types, a.nullable, a.primary_key, a.descriptions,
                   k.columns AS key_columns, k.schemas AS key_schemas, k.tables AS key_tables, k.to_columns AS key_to_columns
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            LEFT JOIN pg_index pk ON pk.indrelid = c.oid AND pk.indisprimary
            CROSS JOIN LATERAL (
                SELECT array_agg(a.attname::text ORDER BY a.attnum) AS names,
                       array_agg(format_type(a.atttypid, a.atttypmod) ORDER BY a.attnum) AS types,
                       array_agg(NOT a.attnotnull ORDER BY a.attnum) AS nullable,
                       array_agg(coalesce(a.attnum = ANY (pk.indkey), false) ORDER BY a.attnum) AS primary_key,
                       array_agg(ds.description ORDER BY a.attnum) AS descriptions
                FROM pg_attribute a
                LEFT JOIN pg_description ds
                       ON ds.objoid = a.attrelid AND ds.classoid = 'pg_class'::regclass AND ds.objsubid = a.attnum
                WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) a
            CROSS JOIN LATERAL (
                SELECT array_agg(fa.attname::text ORDER BY tn.nspname || '.' || tc.relname) AS columns,
                       array_agg(tn.nspname::text ORDER BY tn.nspname || '.' || tc.relname) AS schemas,
                       array_agg(tc.relname::text ORDER BY tn.nspname || '.' || tc.relname) AS tables,
                       array_agg(ta.attname::text ORDER BY tn.nspname || '.' || tc.relname) AS to_columns
                FROM pg_constraint con
                JOIN pg_class tc ON tc.oid = con.confrelid JOIN pg_namespace tn ON tn.oid = tc.relnamespace
                JOIN pg_attribute fa ON fa.attrelid = con.conrelid AND fa.attnum = con.conkey[1]
                JOIN pg_attribute ta ON ta.attrelid = con.confrelid AND ta.attnum = con.confkey[1]
                WHERE con.conrelid = c.oid AND con.contype = 'f') k
            """ + READABLE.substring(READABLE.indexOf("WHERE"));

    /** The relation named $1.$2. */
    private static final String NAMED = """
            (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
            WHERE n.nspname = $1 AND c.relname = $2)""";

    private static final String COLUMNS = """
            SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
                   pg_get_expr(d.adbin, d.adrelid) AS default_value, col_description(a.attrelid, a.attnum) AS description,
                   EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY (i.indkey)) AS primary_key
            FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum"""
            .formatted(NAMED);

    /** Foreign keys out of and into the relation $1.$2, by their first column. */
    private static final String FOREIGN_KEYS = """
            SELECT fromn.nspname AS from_schema, fromc.relname AS from_table, fa.attname AS from_column,
                   ton.nspname AS to_schema, toc.relname AS to_table, ta.attname AS to_column
            FROM pg_constraint con
            JOIN pg_class fromc ON fromc.oid = con.conrelid JOIN pg_namespace fromn ON fromn.oid = fromc.relnamespace
            JOIN pg_class toc ON toc.oid = con.confrelid JOIN pg_namespace ton ON ton.oid = toc.relnamespace
            JOIN pg_attribute fa ON fa.attrelid = con.conrelid AND fa.attnum = con.conkey[1]
            JOIN pg_attribute ta ON ta.attrelid = con.confrelid AND ta.attnum = con.confkey[1]
            WHERE con.contype = 'f' AND (con.conrelid = %1$s OR con.confrelid = %1$s)
            ORDER BY fromc.relname, fa.attname""".formatted(NAMED);

    /** The types whose values are text worth hinting. */
    private static final Pattern TEXT = Pattern.compile("text|citext|character varying.*|character\\(.*|character");

    @Override
    public Uni<List<Table>> tables(SqlClient pool) {
        return pool.query(RELATIONS).execute().map(rows -> {
            List<Table> tables = new ArrayList<>();
            for (Row row : rows) {
                tables.add(table(row, List.of(), List.of()));
            }
            return tables;
        });
    }

    @Override
    public Uni<List<Table>> catalog(SqlClient pool) {
        return pool.query(CATALOG).execute().map(PgSchema::catalog);
    }

    private static List<Table> catalog(RowSet<Row> rows) {
        List<Table> tables = new ArrayList<>();
        for (Row row : rows) {
            String[] names = strings(row, "names");
            String[] types = strings(row, "types");
            Boolean[] nullable = row.getArrayOfBooleans("nullable");
            Boolean[] primaryKey = row.getArrayOfBooleans("primary_key");
            String[] descriptions = strings(row, "descriptions");
            List<Column> columns = new ArrayList<>(names.length);
            for (int i = 0; i < names.length; i++) {
                columns.add(new Column(names[i], types[i], nullable[i], primaryKey[i], Optional.empty(),
                        Optional.ofNullable(descriptions[i])));
            }
            String[] keyColumns = strings(row, "key_columns");
            String[] keySchemas = strings(row, "key_schemas");
            String[] keyTables = strings(row, "key_tables");
            String[] keyToColumns = strings(row, "key_to_columns");
            List<ForeignKey> keys = new ArrayList<>(keyColumns.length);
            for (int i = 0; i < keyColumns.length; i++) {
                keys.add(new ForeignKey(keyColumns[i], keySchemas[i], keyTables[i], keyToColumns[i]));
            }
            tables.add(table(row, columns, keys));
        }
        return tables;
    }

    /** An aggregate's array; none when nothing was aggregated (SQL NULL). */
    private static String[] strings(Row row, String column) {
        String[] values = row.getArrayOfStrings(column);
        return values == null ? new String[0] : values;
    }

    private static Table table(Row row, List<Column> columns, List<ForeignKey> keys) {
        String schema = row.getString("schema");
        return new Table(schema, row.getString("name"), kindName(row.getString("kind")), schema.equals("public"),
                Optional.ofNullable(row.getString("description")), columns, keys);
    }

    @Override
    public Uni<Table> table(SqlClient pool, Table listed) {
        Tuple named = Tuple.of(listed.schema(), listed.name());
        return pool.preparedQuery(COLUMNS).execute(named).flatMap(rows -> keys(pool, listed).map(keys -> {
            List<Column> columns = new ArrayList<>();
            for (Row row : rows) {
                columns.add(new Column(row.getString("name"), row.getString("type"), row.getBoolean("nullable"),
                        row.getBoolean("primary_key"), Optional.ofNullable(row.getString("default_value")),
                        Optional.ofNullable(row.getString("description"))));
            }
            List<ForeignKey> outgoing = keys.stream()
                    .filter(key -> key.schema().equals(listed.schema()) && key.table().equals(listed.name()))
                    .map(HeldKey::key).toList();
            return new Table(listed.schema(), listed.name(), listed.kind(), listed.own(), listed.description(), columns,
                    outgoing);
        }));
    }

    @Override
    public Uni<List<HeldKey>> keys(SqlClient pool, Table listed) {
        return pool.preparedQuery(FOREIGN_KEYS).execute(Tuple.of(listed.schema(), listed.name())).map(rows -> {
            List<HeldKey> keys = new ArrayList<>();
            for (Row row : rows) {
                keys.add(new HeldKey(row.getString("from_schema"), row.getString("from_table"),
                        new ForeignKey(row.getString("from_column"), row.getString("to_schema"), row.getString("to_table"),
                                row.getString("to_column"))));
            }
            return keys;
        });
    }

    /** Names every column asked for rather than {@code *}, so the columns left out are never read. */
    @Override
    public String sampleStatement(Table table, List<String> columns, int rows) {
        return "SELECT " + String.join(", ", columns.stream().map(PgSchema::identifier).toList()) + " FROM "
                + quoted(table) + " LIMIT " + rows;
    }

    /** One row per column: its position and an array of its values, distinct and in order. */
    @Override
    public String valueHintsStatement(Table table, List<String> columns, int sampleRows, int maxValues, int maxLength) {
        List<String> names = columns.stream().map(PgSchema::identifier).toList();
        StringBuilder sql = new StringBuilder("WITH sample AS (SELECT ").append(String.join(", ", names)).append(" FROM ")
                .append(quoted(table)).append(" LIMIT ").append(sampleRows).append(")\n");
        for (int i = 0; i < names.size(); i++) {
            String value = names.get(i) + "::text";
            sql.append(i == 0 ? "" : "UNION ALL\n").append("SELECT ").append(i)
                    .append(" AS i, array(SELECT DISTINCT CASE WHEN length(")
                    .append(value).append(") > ").append(maxLength).append(" THEN left(").append(value).append(", ")
                    .append(maxLength).append(") || '…' ELSE ").append(value).append(" END FROM sample WHERE ")
                    .append(names.get(i)).append(" IS NOT NULL ORDER BY 1 LIMIT ").append(maxValues + 1)
                    .append(") AS v\n");
        }
        return sql.toString();
    }

    @Override
    public boolean hintable(String type) {
        return TEXT.matcher(type).matches();
    }

    /** The table's name quoted for SQL; it comes from the catalog, never from the model's text. */
    private static String quoted(Table table) {
        return identifier(table.schema()) + "." + identifier(table.name());
    }

    private static String identifier(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private static String kindName(String relkind) {
        return switch (relkind) {
            case "v" -> "view";
            case "m" -> "materialized view";
            case "p" -> "partitioned table";
            case "f" -> "foreign table";
            default -> "table";
        };
    }
}
