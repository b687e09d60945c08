package io.sqlagent.sql.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;

/**
 * How an engine reads a source's schema from its catalog, in engine-free terms: the tables and views the source's
 * account may read, their columns with types, keys, defaults and comments, and the foreign keys between them; and the
 * statements, in the engine's dialect, that read a table's sample rows and the distinct values of its low-cardinality
 * text columns. Those statements are run like a caller's (checked, read-only, as the caller), so they are only
 * written here. An engine whose catalog answers one table cheaply (PostgreSQL's, thousands of tables) reads the listing
 * ({@link #tables}), one table ({@link #table}) and the keys around it ({@link #keys}) on their own; the others answer
 * them from {@link #catalog}.
 */
public interface SchemaReader {

    /**
     * Every readable table and view with its columns and foreign keys, the source's own schema first. An engine that
     * reads one table on its own ({@link #table}) may leave the columns' defaults out here, where they are costly
     * (PostgreSQL deparses each one) and the schema index does not use them.
     */
    Uni<List<Table>> catalog(SqlClient pool);

    /**
     * Every readable table and view as {@link #catalog} lists them, in its order; their columns and foreign keys may be
     * left empty (PostgreSQL reads them per table, {@link #table}).
     */
    default Uni<List<Table>> tables(SqlClient pool) {
        return catalog(pool);
    }

    /**
     * {@code listed} (one of {@link #tables}) with its columns and its foreign keys; with none when it is gone.
     */
    default Uni<Table> table(SqlClient pool, Table listed) {
        return catalog(pool).map(tables -> tables.stream()
                .filter(table -> table.schema().equals(listed.schema()) && table.name().equals(listed.name()))
                .findFirst()
                .orElse(new Table(listed.schema(), listed.name(), listed.kind(), listed.own(), listed.description(),
                        List.of(), List.of())));
    }

    /**
     * The foreign keys out of {@code listed} and into it, each with the table that holds it, ordered by that table's name
     * then the key's column; a key of a table into itself is listed once.
     */
    default Uni<List<HeldKey>> keys(SqlClient pool, Table listed) {
        return catalog(pool).map(tables -> {
            List<HeldKey> keys = new ArrayList<>();
            for (Table table : tables) {
                boolean self = table.schema().equals(listed.schema()) && table.name().equals(listed.name());
                for (ForeignKey key : table.foreignKeys()) {
                    if (self || key.toSchema().equals(listed.schema()) && key.toTable().equals(listed.name())) {
                        keys.add(new HeldKey(table.schema(), table.name(), key));
                    }
                }
            }
            keys.sort(Comparator.comparing(HeldKey::table).thenComparing(key -> key.key().column()));
            return keys;
        });
    }

    /**
     * The statement that reads the first {@code rows} rows of {@code columns} (names from {@link #catalog}) of
     * {@code table}.
     */
    String sampleStatement(Table table, List<String> columns, int rows);

    /**
     * The statement that reads, from the first {@code sampleRows} rows of {@code table}, the distinct non-null values of
     * each of {@code columns}, each cut to {@code maxLength} characters (then marked {@code …}): {@code i} the column's
     * position in {@code columns} and {@code v} the value as text, one row per value (or, as PostgreSQL answers, one row
     * per column with {@code v} the array of its values), at most {@code maxValues + 1} per column (one more, to tell a
     * column that has too many), in order.
     */
    String valueHintsStatement(Table table, List<String> columns, int sampleRows, int maxValues, int maxLength);

    /** Whether values of a column of {@code type} (as {@link Column#type} names it) are text worth hinting. */
    boolean hintable(String type);

    /**
     * A table or view.
     *
     * @param schema its schema (MySQL's and MariaDB's database)
     * @param name its name
     * @param kind {@code table}, {@code view}, or the engine's other kinds ({@code materialized view}, …)
     * @param own whether it is in the source's own schema (PostgreSQL's {@code public}, the database of a MySQL URL),
     *        where its bare name is used
     * @param description its comment, if any
     * @param columns its columns in order
     * @param foreignKeys its foreign keys, column by column
     */
    record Table(String schema, String name, String kind, boolean own, Optional<String> description,
            List<Column> columns, List<ForeignKey> foreignKeys) {

        /** The name the model should use: bare in the source's own schema, schema-qualified elsewhere. */
        public String displayName() {
            return own ? name : schema + "." + name;
        }
    }

    /**
     * A column.
     *
     * @param name its name
     * @param type its type as the engine's catalog writes it ({@code decimal(10,2)}, {@code int(11) unsigned},
     *        {@code json})
     * @param nullable whether it may be NULL
     * @param primaryKey whether it is part of the primary key
     * @param defaultValue its default as the catalog writes it (an expression or a literal), if any
     * @param description its comment, if any
     */
    record Column(String name, String type, boolean nullable, boolean primaryKey, Optional<String> defaultValue,
            Optional<String> description) {
    }

    /**
     * One column of a foreign key.
     *
     * @param column the referencing column of the table that holds the key
     * @param toSchema the referenced table's schema
     * @param toTable the referenced table
     * @param toColumn the referenced column
     */
    record ForeignKey(String column, String toSchema, String toTable, String toColumn) {
    }

    /**
     * A foreign key with the table that holds it.
     *
     * @param schema the holding table's schema
     * @param table the holding table
     * @param key the key
     */
    record HeldKey(String schema, String table, ForeignKey key) {
    }
}
