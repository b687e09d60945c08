package io.sqlagent.sql;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.sqlagent.tool.ToolJson;
import io.vertx.mutiny.pgclient.PgConnection;
import io.vertx.mutiny.sqlclient.Cursor;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;

/**
 * Runs one statement that already passed the guard, as the second safety layer: on its own
 * connection, inside a {@code READ ONLY} transaction that is always rolled back, with a statement
 * timeout, through the extended protocol (so the server accepts exactly one statement) and a
 * cursor that reads at most {@code max-rows + 1} rows, however many the query would produce.
 * Values are made JSON-friendly and capped. A caller that cancels (a client that went away)
 * cancels the statement in PostgreSQL too.
 */
@ApplicationScoped
public class QueryRunner {

    private final SqlConfig config;

    public QueryRunner(SqlConfig config) {
        this.config = config;
    }

    /** Runs {@code sql} on {@code source}; fails with {@link SqlExecutionException} when PostgreSQL refuses it. */
    public Uni<QueryResult> run(Source source, String sql) {
        Duration timeout = config.timeout();
        AtomicReference<SqlConnection> current = new AtomicReference<>();
        return source.requirePool().getConnection()
                .invoke(current::set)
                .flatMap(connection -> inReadOnlyTransaction(connection, sql, timeout)
                        .eventually(() -> connection.close().onFailure().recoverWithNull()))
                .ifNoItem().after(timeout.plusSeconds(5)).failWith(() -> new SqlExecutionException(
                        "The statement did not finish within " + timeout.toSeconds() + " s and was cancelled", "57014",
                        Optional.empty(), sql))
                .onFailure(PgException.class).transform(failure -> translate((PgException) failure, sql))
                // Cancellation reaches the operators inside only once the running statement answers,
                // so the cancel request has to be sent from out here, at once.
                .onCancellation().invoke(() -> cancelRunningStatement(current.get()));
    }

    private Uni<QueryResult> inReadOnlyTransaction(SqlConnection connection, String sql, Duration timeout) {
        return connection.begin().flatMap(transaction -> connection
                .query("SET TRANSACTION READ ONLY").execute()
                .flatMap(ignored -> connection.query("SET LOCAL statement_timeout = " + timeout.toMillis()).execute())
                .flatMap(ignored -> connection.query("SET LOCAL lock_timeout = " + Math.min(timeout.toMillis(), 5000)).execute())
                // The guard reads string literals as PostgreSQL does with its default; pin that default.
                .flatMap(ignored -> connection.query("SET LOCAL standard_conforming_strings = on").execute())
                .flatMap(ignored -> connection.prepare(sql))
                .flatMap(statement -> fetch(statement.cursor()))
                .eventually(() -> transaction.rollback().onFailure().recoverWithNull()));
    }

    private Uni<QueryResult> fetch(Cursor cursor) {
        int limit = config.maxRows();
        return cursor.read(limit + 1)
                .map(rows -> toResult(rows, limit))
                .eventually(cursor::close);
    }

    private QueryResult toResult(RowSet<Row> rowSet, int limit) {
        List<String> columns = rowSet.columnsNames() == null ? List.of() : rowSet.columnsNames();
        long budget = config.maxResultSize().asLongValue();
        List<Map<String, Object>> rows = new ArrayList<>();
        int seen = 0;
        boolean truncated = false;
        long size = 2;
        for (Row row : rowSet) {
            seen++;
            if (rows.size() == limit) {
                truncated = true;
                continue;
            }
            Map<String, Object> converted = SqlValues.row(row, columns, config.maxCellChars());
            size += jsonSize(converted) + 1;
            if (size > budget) {
                truncated = true;
                continue;
            }
            rows.add(converted);
        }
        return new QueryResult(columns, rows, rows.size(), seen, truncated);
    }

    private static long jsonSize(Map<String, Object> row) {
        try {
            return ToolJson.MAPPER.writeValueAsString(row).getBytes(StandardCharsets.UTF_8).length;
        } catch (JsonProcessingException e) {
            return Long.MAX_VALUE / 4;
        }
    }

    private static void cancelRunningStatement(SqlConnection connection) {
        if (connection == null) {
            return;
        }
        Log.debug("Cancelling a running statement: its caller went away");
        PgConnection.cast(connection).cancelRequest().subscribe().with(done -> {
        }, failure -> Log.warnf("Could not cancel a running statement: %s", failure.toString()));
    }

    private static SqlExecutionException translate(PgException failure, String sql) {
        Optional<Integer> position = Optional.ofNullable(failure.getPosition()).flatMap(QueryRunner::integer);
        StringBuilder message = new StringBuilder(failure.getErrorMessage());
        message.append(" (SQLSTATE ").append(failure.getSqlState()).append(')');
        position.ifPresent(p -> message.append(" at character ").append(p).append(": ").append(near(sql, p)));
        if (failure.getDetail() != null) {
            message.append(". Detail: ").append(failure.getDetail());
        }
        if (failure.getHint() != null) {
            message.append(". Hint: ").append(failure.getHint());
        }
        return new SqlExecutionException(message.toString(), failure.getSqlState(), position, sql);
    }

    /** A short excerpt of the statement around a 1-based position, to show the model where it went wrong. */
    static String near(String sql, int position) {
        int index = Math.max(0, Math.min(sql.length(), position - 1));
        int from = Math.max(0, index - 20);
        int to = Math.min(sql.length(), index + 20);
        return "'" + sql.substring(from, to).replaceAll("\\s+", " ") + "'";
    }

    private static Optional<Integer> integer(String text) {
        try {
            return Optional.of(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Runs {@code sql} with positional parameters ({@code $1}, ...) bound to {@code params}, never
     * spliced into the text: the path declared tools take. Same connection, transaction, timeout,
     * value caps, error translation and cancellation as {@link #run(Source, String)}; how many rows
     * are read, and whether the transaction is read-only, follow {@code options}. The result-size
     * cap does not apply: the row limits in {@code options} bound the result.
     */
    public Uni<QueryResult> run(Source source, String sql, Tuple params, FetchOptions options) {
        Duration timeout = config.timeout();
        AtomicReference<SqlConnection> current = new AtomicReference<>();
        return source.requirePool().getConnection()
                .invoke(current::set)
                .flatMap(connection -> inTransaction(connection, sql, params, options, timeout)
                        .eventually(() -> connection.close().onFailure().recoverWithNull()))
                .ifNoItem().after(timeout.plusSeconds(5)).failWith(() -> new SqlExecutionException(
                        "The statement did not finish within " + timeout.toSeconds() + " s and was cancelled", "57014",
                        Optional.empty(), sql))
                .onFailure(PgException.class).transform(failure -> translate((PgException) failure, sql))
                .onCancellation().invoke(() -> cancelRunningStatement(current.get()));
    }

    private Uni<QueryResult> inTransaction(SqlConnection connection, String sql, Tuple params, FetchOptions options,
            Duration timeout) {
        return connection.begin().flatMap(transaction -> {
            Uni<QueryResult> work = connection
                    .query(options.readOnly() ? "SET TRANSACTION READ ONLY" : "SET TRANSACTION READ WRITE").execute()
                    .flatMap(ignored -> connection.query("SET LOCAL statement_timeout = " + timeout.toMillis()).execute())
                    .flatMap(ignored -> connection.query("SET LOCAL lock_timeout = " + Math.min(timeout.toMillis(), 5000)).execute())
                    .flatMap(ignored -> connection.query("SET LOCAL standard_conforming_strings = on").execute())
                    .flatMap(ignored -> connection.prepare(sql))
                    .flatMap(statement -> readAll(statement.cursor(params), options));
            if (options.readOnly()) {
                return work.eventually(() -> transaction.rollback().onFailure().recoverWithNull());
            }
            return work.call(result -> transaction.commit())
                    .onFailure().call(failure -> transaction.rollback().onFailure().recoverWithNull());
        });
    }

    private Uni<QueryResult> readAll(Cursor cursor, FetchOptions options) {
        return readPages(cursor, options, new PagedRows())
                .eventually(cursor::close);
    }

    /** Rows gathered page by page; {@code seen} counts every row read, kept or not. */
    private static final class PagedRows {
        private List<String> columns = List.of();
        private final List<Map<String, Object>> rows = new ArrayList<>();
        private int seen;
    }

    private Uni<QueryResult> readPages(Cursor cursor, FetchOptions options, PagedRows paged) {
        int wanted = options.allPages() ? Math.min(options.pageSize(), options.maxRows() + 1 - paged.seen) : options.maxRows() + 1;
        return cursor.read(wanted)
                .flatMap(rowSet -> {
                    if (rowSet.columnsNames() != null) {
                        paged.columns = rowSet.columnsNames();
                    }
                    for (Row row : rowSet) {
                        paged.seen++;
                        if (paged.rows.size() < options.maxRows()) {
                            paged.rows.add(SqlValues.row(row, paged.columns, config.maxCellChars()));
                        }
                    }
                    if (options.allPages() && cursor.hasMore() && paged.seen <= options.maxRows()) {
                        return readPages(cursor, options, paged);
                    }
                    boolean truncated = paged.seen > options.maxRows();
                    return Uni.createFrom().item(new QueryResult(paged.columns, paged.rows, paged.rows.size(), paged.seen, truncated));
                });
    }
}
