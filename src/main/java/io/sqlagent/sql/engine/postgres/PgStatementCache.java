package io.sqlagent.sql.engine.postgres;

/**
 * Which statements a PostgreSQL connection may keep prepared for the next call (the pool's
 * {@code preparedStatementCacheSqlFilter}), and the openings that mark them: the statements that read a query's rows,
 * whose result is text columns as many as their own text names, whatever the tables look like.
 */
public final class PgStatementCache {

    /**
     * Starts the statement that reads each row of a query as its {@code to_json} ({@code WideValues.rowJson}, whose
     * q.* names the whole row even when the statement has a column named q).
     */
    public static final String ROWS_PREFIX = "SELECT /* sqlagent: rows */ ";

    /**
     * Starts the statement that reads a query's columns as {@code ColumnKind} says: q.c1, … are the aliases of its
     * columns, whatever their names (several may share one, or be named q).
     */
    public static final String COLUMNS_PREFIX = "SELECT /* sqlagent: columns */ ";

    private PgStatementCache() {
    }

    /**
     * Whether a connection may keep {@code sql} prepared for the next call: only the statements that start with
     * {@link #ROWS_PREFIX} or {@link #COLUMNS_PREFIX}. Any other statement (the column names of a {@code SELECT *}, a
     * declared tool's own SQL) could change its result's shape with the schema, and PostgreSQL refuses to run a kept
     * statement whose shape changed ({@code cached plan must not change result type}). The SQL client keeps only
     * statements run with {@code preparedQuery}: the columns statement of a small result ({@code PgResults}),
     * which PostgreSQL then parses and plans once per connection. A rows statement prepared for a cursor is never
     * kept: it is parsed on every call and closed after it.
     */
    public static boolean keeps(String sql) {
        return sql.startsWith(ROWS_PREFIX) || sql.startsWith(COLUMNS_PREFIX);
    }
}
