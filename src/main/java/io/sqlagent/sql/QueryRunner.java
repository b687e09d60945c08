package io.sqlagent.sql;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
import io.vertx.pgclient.PgException;

/**
 * Runs one statement that already passed the guard, as the second safety layer: on its own
 * connection, inside a {@code READ ONLY} transaction that is always rolled back, with a statement
 * timeout, through the extended protocol (so the server accepts exactly one statement) and a
 * cursor that reads at most {@code max-rows + 1} rows, however many the query would produce.
 * Values are made JSON-friendly and capped. A cancelled subscription asks PostgreSQL to cancel the
 * statement (not yet proven end to end: see the agent issue).
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
        // getConnection rather than withConnection: withConnection goes through a Vert.x future,
        // which would swallow a cancellation instead of letting it reach the running statement.
        return source.requirePool().getConnection()
                .flatMap(connection -> inReadOnlyTransaction(connection, sql, timeout)
                        .eventually(() -> connection.close().onFailure().recoverWithNull()))
                .ifNoItem().after(timeout.plusSeconds(5)).failWith(() -> new SqlExecutionException(
                        "The statement did not finish within " + timeout.toSeconds() + " s and was cancelled", "57014",
                        Optional.empty(), sql))
                .onFailure(PgException.class).transform(failure -> translate((PgException) failure, sql));
    }

    private Uni<QueryResult> inReadOnlyTransaction(SqlConnection connection, String sql, Duration timeout) {
        return connection.begin().flatMap(transaction -> connection
                .query("SET TRANSACTION READ ONLY").execute()
                .flatMap(ignored -> connection.query("SET LOCAL statement_timeout = " + timeout.toMillis()).execute())
                .flatMap(ignored -> connection.query("SET LOCAL lock_timeout = " + Math.min(timeout.toMillis(), 5000)).execute())
                .flatMap(ignored -> connection.prepare(sql))
                .flatMap(statement -> fetch(statement.cursor()))
                .onCancellation().call(() -> cancelRunningStatement(connection))
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

    private static Uni<Void> cancelRunningStatement(SqlConnection connection) {
        Log.debug("Cancelling a running statement: its caller went away");
        return Uni.createFrom().deferred(() -> PgConnection.cast(connection).cancelRequest())
                .onFailure().invoke(failure -> Log.warnf("Could not cancel a running statement: %s", failure.toString()))
                .onFailure().recoverWithNull();
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
}
