package io.sqlagent.sql.engine.mysql;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Collector;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.CappedRows;
import io.sqlagent.sql.engine.ResultReader;
import io.sqlagent.sql.result.ColumnKind;
import io.sqlagent.sql.result.ResultColumn;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.mysqlclient.MySQLException;
import io.vertx.mysqlclient.impl.MySQLRowDesc;
import io.vertx.mysqlclient.impl.MySQLRowImpl;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.desc.ColumnDescriptor;

/**
 * Reads a MySQL or MariaDB result into the answer as its rows arrive: the statement goes as text (the server's text
 * protocol runs every statement the check allows, {@code EXPLAIN} and {@code SHOW} included, which its prepared
 * statements and cursors do not all do), and each row is rendered ({@link MySqlColumn}) and handed to
 * {@link CappedRows} while the driver decodes the next one, so a result holds no more than what it keeps. Rows past the
 * caps are decoded and dropped, not kept; given a way to stop the server ({@code KILL QUERY}), the reader uses it as
 * soon as the caps are reached, so a huge result costs the server no more than what was read, and the statement's
 * interruption (error 1317) ends the result with what was kept.
 */
final class MySqlResults implements ResultReader {

    /**
     * The driver's description of a row's columns, read from the row: a collector sees rows before the result that
     * describes them, and the types decide how values are written (a {@code BIT} and a {@code BIGINT} both arrive as
     * {@code Long}). The field is the driver's own; its absence fails this class's loading, in every test.
     */
    private static final VarHandle ROW_DESCRIPTION;

    static {
        try {
            ROW_DESCRIPTION = MethodHandles.privateLookupIn(MySQLRowImpl.class, MethodHandles.lookup())
                    .findVarHandle(MySQLRowImpl.class, "rowDesc", MySQLRowDesc.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** MySQL and MariaDB error 1317: the statement was interrupted ({@code KILL QUERY}). */
    static final int INTERRUPTED = 1317;

    @Override
    public Uni<Result> read(SqlConnection connection, String sql, Caps caps) {
        return read(connection, sql, caps, null);
    }

    @Override
    public Uni<Result> read(SqlConnection connection, String sql, Caps caps, Supplier<Uni<Void>> stop) {
        return read(connection, sql, Tuple.tuple(), caps, stop);
    }

    /**
     * With values, the statement is prepared and its {@code ?} marks bound (the binary protocol; the driver decodes
     * its values to the same Java types as the text protocol's); without, it goes as text.
     */
    @Override
    public Uni<Result> read(SqlConnection connection, String sql, Tuple params, Caps caps, Supplier<Uni<Void>> stop) {
        Reading reading = new Reading(caps, stop);
        Collector<Row, Reading, Reading> collector = Collector.of(() -> reading, Reading::accept, (a, b) -> a);
        // The Mutiny API has no collecting query; the core client's is the same connection's.
        io.vertx.sqlclient.SqlConnection core = connection.getDelegate();
        return Uni.createFrom()
                .completionStage(() -> (params.size() == 0 ? core.query(sql).collecting(collector).execute()
                        : core.preparedQuery(sql).collecting(collector).execute(params.getDelegate())).toCompletionStage())
                .onItemOrFailure().transformToUni((result, failure) -> {
                    // Answered only once a stop sent is answered too, so it never reaches the next statement.
                    Uni<Void> stopped = reading.stopping ? Uni.createFrom().completionStage(reading.stopped)
                            : Uni.createFrom().voidItem();
                    if (failure == null) {
                        return stopped.map(done -> reading.finish(result.columnsNames(), result.columnDescriptors()));
                    }
                    if (reading.stopping && failure instanceof MySQLException mysql && mysql.getErrorCode() == INTERRUPTED) {
                        // Stopped at the caps: what was kept is the result (described by the first row).
                        return stopped.map(done -> reading.finish(null, null));
                    }
                    return stopped.flatMap(done -> Uni.createFrom().failure(failure));
                });
    }

    /** One result being read: its columns once known, and its capped rows. */
    private static final class Reading {

        private final Caps caps;
        private final Supplier<Uni<Void>> stop;
        /** Done when the server answered the stop, if one was sent ({@link #stopping}). */
        final CompletableFuture<Void> stopped = new CompletableFuture<>();
        /** Whether the stop was sent: the caps were reached. Read and written on the connection's event loop. */
        boolean stopping;
        private List<MySqlColumn> columns;
        private CappedRows rows;

        Reading(Caps caps, Supplier<Uni<Void>> stop) {
            this.caps = caps;
            this.stop = stop;
        }

        void accept(Row row) {
            if (rows == null) {
                MySQLRowDesc description = (MySQLRowDesc) ROW_DESCRIPTION.get((MySQLRowImpl) row);
                start(description.columnNames(), description.columnDescriptor());
            }
            if (rows.wantsMore()) {
                rows.offer(i -> columns.get(i).render(row.getValue(i)));
                if (!rows.wantsMore() && stop != null && !stopping) {
                    stopping = true;
                    // A failed stop leaves the server sending rows to be dropped until the time limit: no worse than before.
                    stop.get().subscribe().with(done -> stopped.complete(null), failure -> stopped.complete(null));
                }
            }
        }

        private void start(List<String> names, List<ColumnDescriptor> descriptors) {
            columns = new ArrayList<>(descriptors.size());
            List<String> types = new ArrayList<>(descriptors.size());
            List<ColumnKind> kinds = new ArrayList<>(descriptors.size());
            for (ColumnDescriptor descriptor : descriptors) {
                MySqlColumn column = MySqlColumn.of(descriptor);
                columns.add(column);
                types.add(column.type());
                kinds.add(column.kind());
            }
            rows = new CappedRows(ResultColumn.keyed(names, types), kinds, caps);
        }

        Result finish(List<String> names, List<ColumnDescriptor> descriptors) {
            if (rows == null) {
                start(names == null ? List.of() : names, descriptors == null ? List.of() : descriptors);
            }
            return rows.finish();
        }
    }
}
