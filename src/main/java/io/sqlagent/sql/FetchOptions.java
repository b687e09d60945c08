package io.sqlagent.sql;

/**
 * How {@link QueryRunner#run(Source, String, io.vertx.mutiny.sqlclient.Tuple, FetchOptions)} reads
 * a result.
 *
 * @param pageSize rows one cursor read takes
 * @param allPages read page after page until the result ends or {@code maxRows} rows were read;
 *        otherwise read one page only
 * @param maxRows most rows returned; one more is read to know whether there were more
 * @param readOnly run in a {@code READ ONLY} transaction that is rolled back; otherwise the
 *        transaction is committed (statements meant to change data)
 */
public record FetchOptions(int pageSize, boolean allPages, int maxRows, boolean readOnly) {

    public FetchOptions {
        if (pageSize < 1 || maxRows < 1) {
            throw new IllegalArgumentException("pageSize and maxRows must be positive");
        }
    }

    /** One read of at most {@code rows} rows, read-only. */
    public static FetchOptions single(int rows) {
        return new FetchOptions(rows, false, rows, true);
    }
}
