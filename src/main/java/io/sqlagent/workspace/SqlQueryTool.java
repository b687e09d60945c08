package io.sqlagent.workspace;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.sqlite.JDBC;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteLimits;
import org.sqlite.SQLiteOpenMode;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.TypedTool;

/**
 * {@code sql_query}: one read-only query on a SQLite file the policy allows. The query passes
 * {@link SqliteGuard}; the file is opened read-only (URI {@code mode=ro}, {@code query_only}, no
 * attached databases, extensions off, untrusted schema) on a worker thread; at the policy's
 * {@code timeout_seconds}, or when the call is cancelled, the statement is interrupted; at
 * most {@code max_rows} rows come back (one more is read to flag truncation), and no more than
 * {@code max_bytes} of them. No single value larger than {@code max_bytes} (at least 1 MiB) is
 * ever materialised: SQLite itself refuses it.
 */
@ToolDefinition(name = "sql_query", title = "SQLite query", namespace = "workspace", tags = { "sqlite", "sql", "query",
        "local" }, readOnly = true, auditArguments = true, blocking = true, description = "Run a read-only SQL query against a local SQLite database.", returns = "{\"columns\":[...],\"column_types\":[...],\"rows\":[[...]],\"truncated\":bool}; a row holds its values in column order", usage = "Only a single SELECT, WITH … SELECT or VALUES runs; list the tables with "
                + "SELECT name FROM sqlite_schema WHERE type = 'table'.")
public class SqlQueryTool extends TypedTool<SqlQueryTool.Arguments> {

    /** The floor of {@link #valueLimit()}: 1 MiB. */
    private static final int MIN_VALUE_LIMIT = 1 << 20;

    private final PolicyManifest policy;

    SqlQueryTool(PolicyManifest policy) {
        this.policy = policy;
    }

    /** Arguments of {@code sql_query}. */
    public record Arguments(
            @Param(description = "Path to the SQLite database file.", minLength = 1, maxLength = 4096) String dbPath,
            @Param(description = "SQL query to execute (read-only).", minLength = 1, maxLength = 100_000) String query) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        RunningStatement running = new RunningStatement();
        return Uni.createFrom().item(() -> query(arguments, running))
                // Cancelled (executor timeout, client gone): the worker thread would go on computing; stop SQLite now.
                .onCancellation().invoke(running::interrupt);
    }

    private Map<String, Object> query(Arguments arguments, RunningStatement running) {
        SqliteGuard.refusal(arguments.query()).ifPresent(reason -> {
            throw new ToolRefusedException(reason);
        });
        Path file = PathGuard.existingInside(arguments.dbPath(), policy.sqlite(), "sql_query", "policy.data.sqlite.allow");
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new ToolException("'" + arguments.dbPath() + "' is not a database file");
        }
        int timeout = policy.limits().timeoutSeconds();
        try (Connection connection = open(file, valueLimit()); Statement statement = connection.createStatement()) {
            // setQueryTimeout is only SQLite's busy timeout (waiting for a lock), not a limit on running.
            statement.setQueryTimeout(timeout);
            statement.setMaxRows(policy.limits().maxRows() + 1);
            running.started(statement);
            ScheduledFuture<?> deadline = Infrastructure.getDefaultWorkerPool().schedule(running::timeUp, timeout,
                    TimeUnit.SECONDS);
            try (ResultSet results = statement.executeQuery(arguments.query())) {
                return read(results);
            } finally {
                deadline.cancel(false);
                running.finished();
            }
        } catch (SQLException e) {
            if (running.timedOut()) {
                throw new ToolException("The query ran longer than " + timeout + " s (timeout_seconds in the workspace policy)"
                        + " and was stopped");
            }
            if (running.interrupted()) {
                throw new ToolException("The query was cancelled");
            }
            if (e.getErrorCode() == SQLiteErrorCode.SQLITE_TOOBIG.code) {
                throw new ToolException(
                        "A value is larger than " + valueLimit() + " bytes, the most sql_query reads in one value "
                                + "(policy.limits.max_bytes, at least " + MIN_VALUE_LIMIT
                                + "); select a part of it, e.g. substr(x, 1, 1000) or length(x)");
            }
            throw new ToolException("SQLite: " + e.getMessage());
        }
    }

    /**
     * The statement a call runs, so that a timer or a cancellation can interrupt it:
     * {@link Statement#cancel()} is sqlite3_interrupt, which stops the running step within
     * milliseconds. Only while it runs: interrupting a closed connection would touch freed memory.
     */
    private static final class RunningStatement {
        private Statement statement;
        private boolean done;
        private boolean timedOut;
        private boolean interrupted;

        synchronized void started(Statement running) {
            if (interrupted) {
                // Interrupting before the statement steps would be lost: do not start it.
                throw new ToolException("The query was cancelled");
            }
            statement = running;
        }

        synchronized void finished() {
            done = true;
            statement = null;
        }

        synchronized void timeUp() {
            if (!done) {
                timedOut = true;
                interrupt();
            }
        }

        synchronized void interrupt() {
            interrupted = true;
            if (statement != null && !done) {
                cancel();
            }
        }

        synchronized boolean timedOut() {
            return timedOut;
        }

        synchronized boolean interrupted() {
            return interrupted;
        }

        private void cancel() {
            try {
                statement.cancel();
            } catch (SQLException e) {
                Log.debugf("sql_query: the statement could not be interrupted: %s", e.getMessage());
            }
        }
    }

    /**
     * The longest string or blob SQLite may make or hand out ({@code SQLITE_LIMIT_LENGTH}): SQLite
     * refuses a bigger value itself, before it is allocated, so {@code zeroblob(300000000)} is an
     * error and not 300 MB on the heap. A value longer than the result's byte budget could never be
     * returned anyway; the floor keeps sorting and grouping of ordinary rows working under a small budget.
     */
    private int valueLimit() {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(policy.limits().maxBytes(), MIN_VALUE_LIMIT));
    }

    /** Read-only by every means SQLite has, so that the guard is never the only line. */
    private static Connection open(Path file, int valueLimit) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        config.enableLoadExtension(false);
        // The driver directly, not DriverManager: it finds drivers by class loader, which Quarkus's class loading confuses.
        Connection connection = JDBC.createConnection(JDBC.PREFIX + uri(file), config.toProperties());
        try (Statement pragmas = connection.createStatement()) {
            connection.unwrap(SQLiteConnection.class).setLimit(SQLiteLimits.SQLITE_LIMIT_ATTACHED, 0);
            connection.unwrap(SQLiteConnection.class).setLimit(SQLiteLimits.SQLITE_LIMIT_LENGTH, valueLimit);
            pragmas.execute("PRAGMA query_only = ON");
            pragmas.execute("PRAGMA trusted_schema = OFF");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /**
     * A {@code file:} URI for the path with {@code mode=ro}; characters a URI reads specially are escaped, so a name cannot add
     * parameters.
     */
    static String uri(Path file) {
        StringBuilder uri = new StringBuilder("file:");
        for (byte b : file.toString().getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "/-._~".indexOf(c) >= 0) {
                uri.append(c);
            } else {
                uri.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return uri.append("?mode=ro").toString();
    }

    private Map<String, Object> read(ResultSet results) throws SQLException {
        ResultSetMetaData meta = results.getMetaData();
        List<String> columns = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            columns.add(meta.getColumnLabel(i));
            // SQLite's declared type of the column, or the storage class of an expression's first value.
            types.add(meta.getColumnTypeName(i));
        }
        List<List<Object>> rows = new ArrayList<>();
        boolean truncated = false;
        long size = 2;
        while (results.next()) {
            if (rows.size() == policy.limits().maxRows()) {
                truncated = true;
                break;
            }
            List<Object> row = new ArrayList<>(columns.size());
            for (int i = 1; i <= columns.size(); i++) {
                row.add(value(results.getObject(i)));
            }
            size += SnakeCaseJson.MAPPER.valueToTree(row).toString().getBytes(StandardCharsets.UTF_8).length + 1;
            if (size > policy.limits().maxBytes()) {
                truncated = true;
                break;
            }
            rows.add(row);
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("columns", columns);
        answer.put("column_types", types);
        answer.put("rows", rows);
        answer.put("truncated", truncated);
        return answer;
    }

    private static Object value(Object value) {
        return value instanceof byte[] bytes ? "base64:" + Base64.getEncoder().encodeToString(bytes) : value;
    }
}
