package io.sqlagent.sql.engine;

import java.util.List;
import java.util.Optional;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * How an engine reads a source's schema from its catalog, in engine-free terms: the tables and views the source's
 * account may read, their columns with types, keys, defaults and comments, and the foreign keys between them; and the
 * statements, in the engine's dialect, that read a table's sample rows and the distinct values of its low-cardinality
 * text columns. Those statements are run like a caller's (checked, read-only, as the caller), so they are only
 * written here.
 */
public interface SchemaReader {

    /** Every readable table and view with its columns and foreign keys, the source's own schema first. */
    Uni<List<Table>> catalog(Pool pool);

    /**
     * The statement that reads the first {@code rows} rows of {@code columns} (names from {@link #catalog}) of
     * {@code table}.
     */
    String sampleStatement(Table table, List<String> columns, int rows);

    /**
     * The statement that reads, from the first {@code sampleRows} rows of {@code table}, the distinct non-null values of
     * each of {@code columns}, each cut to {@code maxLength} characters (then marked {@code …}): one row per value,
     * {@code i} the column's position in {@code columns} and {@code v} the value as text, at most {@code maxValues + 1}
     * per column (one more, to tell a column that has too many), in order.
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
}
