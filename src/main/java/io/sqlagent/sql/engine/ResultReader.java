package io.sqlagent.sql.engine;

import java.util.List;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.result.ResultColumn;
import io.sqlagent.sql.result.ResultJson;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * How an engine describes and streams a statement's result into the answer's JSON
 * ({@code {"columns":[…],"rows":[{…}],"row_count","total_rows","truncated"}}, written by {@link ResultJson}): the
 * engine names each column's type and renders each value exactly (decimals' digits, dates and times, unsigned 64-bit,
 * binary as hex, JSON as JSON); the caps ({@link Caps}) are applied the same way on every engine by {@link CappedRows}.
 * PostgreSQL has PostgreSQL render its values (the statement runs as a subquery, see {@code QueryRunner}); MySQL and
 * MariaDB decode the driver's values ({@code io.sqlagent.sql.engine.mysql.MySqlResults}).
 */
public interface ResultReader {

    /**
     * Runs {@code sql} (as sent: the session's time limit already applied, see {@link SessionPlan#timed}) on
     * {@code connection}, inside the transaction its caller opened, and reads its result within {@code caps}.
     */
    Uni<Result> read(SqlConnection connection, String sql, Caps caps);

    /**
     * {@link #read(SqlConnection, String, Caps)}, and once the caps are reached, {@code stop} asks the server to stop
     * sending the rest (MySQL's {@code KILL QUERY}); the result is what was kept, answered after {@code stop}
     * completed, so the stop never reaches a statement sent after it. Engines whose reading stops the server itself
     * (PostgreSQL's cursor) ignore it.
     */
    default Uni<Result> read(SqlConnection connection, String sql, Caps caps, java.util.function.Supplier<Uni<Void>> stop) {
        return read(connection, sql, caps);
    }

    /**
     * {@link #read(SqlConnection, String, Caps, java.util.function.Supplier)} of a statement with bound values
     * ({@code params}, in the engine's {@link Engine.Parameters} style), never spliced into its text: a declared
     * tool's. Without values it is the plain read. Engines whose statements take no bound values here fail.
     */
    default Uni<Result> read(SqlConnection connection, String sql, Tuple params, Caps caps,
            java.util.function.Supplier<Uni<Void>> stop) {
        if (params.size() == 0) {
            return read(connection, sql, caps, stop);
        }
        return Uni.createFrom().failure(new UnsupportedOperationException("this engine reads no statement with bound values"));
    }

    /**
     * The limits of one result, the service's settings.
     *
     * @param maxRows rows kept at most; one more is read to know there were more
     * @param maxResultChars about how many characters of JSON the kept rows may take; the first row past it ends the
     *        result
     * @param maxCellChars longest string kept whole ({@code sqlagent.sql.max-cell-chars}); longer ones are cut with a
     *        marker saying how much was left out
     */
    record Caps(int maxRows, long maxResultChars, int maxCellChars) {

        public Caps {
            if (maxRows < 1 || maxResultChars < 1 || maxCellChars < 1) {
                throw new IllegalArgumentException("maxRows, maxResultChars and maxCellChars must be positive");
            }
        }
    }

    /**
     * A result as read: what {@code io.sqlagent.sql.QueryResult} is made of.
     *
     * @param columns the columns in order, names repeated as the statement repeats them, each with its own key
     * @param written the answer's JSON, rows included
     * @param rowCount rows the answer holds
     * @param totalRows rows read: one past {@code maxRows} at most, fewer when the size cap ended the result
     * @param truncated whether rows were left out (row limit or result size)
     */
    record Result(List<ResultColumn> columns, ResultJson.Written written, int rowCount, int totalRows,
            boolean truncated) {
    }
}
