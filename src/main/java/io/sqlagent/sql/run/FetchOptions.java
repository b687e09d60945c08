package io.sqlagent.sql.run;

import io.sqlagent.sql.source.Source;

/**
 * How {@link QueryRunner#run(Source, String, io.vertx.mutiny.sqlclient.Tuple, FetchOptions)} reads
 * a result.
 *
 * @param pageSize rows one cursor read takes at most (reads go on, page after page, until the
 *        result ends or one row past {@code maxRows} was read)
 * @param maxRows most rows returned; one more is read to know whether there were more
 * @param readOnly run in a {@code READ ONLY} transaction that is rolled back; otherwise the
 *        transaction is committed (statements meant to change data)
 */
public record FetchOptions(int pageSize, int maxRows, boolean readOnly) {

    public FetchOptions {
        if (pageSize < 1 || maxRows < 1) {
            throw new IllegalArgumentException("pageSize and maxRows must be positive");
        }
    }
}
