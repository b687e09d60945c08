package io.sqlagent.sql.engine.postgres;

import io.vertx.pgclient.PgException;

/**
 * Which statements a PostgreSQL connection may keep prepared for the next call (the pool's
 * {@code preparedStatementCacheSqlFilter}), and the openings that mark them: the statements that read a query's rows,
 * whose result's columns are as many as their own text names, each of the type the text casts it to (text, or an
 * integer type), whatever the tables look like.
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

    /**
     * Starts the statement that learns a query's column names and types ({@code PgResults}): {@link #names} of the
     * current epoch. Kept too: PostgreSQL itself notices when the columns of a kept one would change (it refuses to
     * run it, {@link #resultChanged}), and the next epoch's text is prepared afresh on every connection.
     */
    public static final String NAMES_PREFIX = "SELECT /* sqlagent: names ";

    /**
     * Starts the statement that reads a query whose columns PostgreSQL sends as they are (integers, {@code numeric}s
     * whose type bounds their digits, strings their type keeps within the cap): {@link #asIs} of the current epoch. It learns
     * the columns as it reads the rows, and
     * PostgreSQL refuses to run a kept one whose columns changed ({@link #resultChanged}), as the names statement.
     */
    public static final String AS_IS_PREFIX = "SELECT /* sqlagent: as-is ";

    /** SQLSTATE of a kept statement whose result's columns changed since it was prepared (feature not supported). */
    private static final String RESULT_TYPE_CHANGED = "0A000";
    /**
     * The server function that refuses it: sent untranslated with every error, unlike the message, which follows the
     * server's {@code lc_messages}.
     */
    private static final String REVALIDATION = "RevalidateCachedQuery";

    private PgStatementCache() {
    }

    /** The opening of the statement that reads a query's columns as they are, in {@code epoch}: a subquery follows. */
    static String asIs(long epoch) {
        return AS_IS_PREFIX + epoch + " */ * FROM (";
    }

    /** The opening of the statement that learns a query's columns, in {@code epoch}: a subquery follows. */
    static String names(long epoch) {
        return NAMES_PREFIX + epoch + " */ * FROM (";
    }

    /**
     * Whether {@code failure} is PostgreSQL refusing to run a kept statement because its result's columns changed since
     * it was prepared ({@code cached plan must not change result type}): only a statement prepared before can fail so.
     */
    static boolean resultChanged(Throwable failure) {
        return failure instanceof PgException pg && RESULT_TYPE_CHANGED.equals(pg.getSqlState())
                && (REVALIDATION.equals(pg.getRoutine())
                        || "cached plan must not change result type".equals(pg.getErrorMessage()));
    }

    /**
     * Whether a connection may keep {@code sql} prepared for the next call: only the statements that start with
     * {@link #ROWS_PREFIX}, {@link #COLUMNS_PREFIX}, {@link #NAMES_PREFIX} or {@link #AS_IS_PREFIX}. Any other
     * statement (a declared tool's own SQL, an EXPLAIN) could change its result's shape with the schema, and
     * PostgreSQL refuses to run a kept statement whose shape changed ({@code cached plan must not change result
     * type}); the names and the as-is statements are kept because that refusal is what they are there to notice
     * ({@code PgResults}). The SQL client keeps only statements run with {@code preparedQuery}: the columns or as-is
     * statement of a small result and the names statement, which PostgreSQL then parses and plans once per
     * connection. A rows statement prepared for a cursor is never kept: it is parsed on every call and closed after
     * it.
     */
    public static boolean keeps(String sql) {
        return sql.startsWith(ROWS_PREFIX) || sql.startsWith(COLUMNS_PREFIX) || sql.startsWith(NAMES_PREFIX)
                || sql.startsWith(AS_IS_PREFIX);
    }
}
