package io.sqlagent.sql.engine.mysql;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.sqlagent.sql.engine.SessionPlan;

/**
 * The session around a statement on MySQL or MariaDB: {@code sql_mode} pinned to what
 * {@link MySqlLexer} assumes (no {@code ANSI_QUOTES}, no {@code NO_BACKSLASH_ESCAPES}), then
 * {@code START TRANSACTION READ ONLY}; the time limit is per statement, as each server spells it
 * ({@code SET STATEMENT max_statement_time = s FOR …} on MariaDB, the session's
 * {@code max_execution_time} in milliseconds on MySQL, which applies to SELECT only). Roles
 * ({@code SET ROLE}) last for the session, not the transaction, so they are not offered per
 * transaction ({@link #identity()} is empty): the caller's role is taken on after the opening and dropped
 * ({@code SET ROLE NONE}) after the rollback, and a connection that cannot drop it is closed by the server
 * ({@code KILL CONNECTION_ID()}).
 */
final class MySqlSession implements SessionPlan {

    /** The modes the guard's lexer reads statements in: MariaDB's and MySQL's defaults, without the quoting ones. */
    static final String SQL_MODE = "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";

    private final boolean mariaDb;

    MySqlSession(boolean mariaDb) {
        this.mariaDb = mariaDb;
    }

    @Override
    public List<String> open(boolean readOnly, Duration timeout) {
        String mode = "SET SESSION sql_mode = '" + SQL_MODE + "'";
        String start = "START TRANSACTION " + (readOnly ? "READ ONLY" : "READ WRITE");
        if (mariaDb) {
            return List.of(mode, start);
        }
        return List.of(mode, "SET SESSION max_execution_time = " + Math.max(1, timeout.toMillis()), start);
    }

    @Override
    public String timed(String sql, Duration timeout) {
        if (!mariaDb) {
            return sql;
        }
        // Seconds with microsecond precision; the statement follows on a line of its own, as it was written.
        String seconds = String.format(java.util.Locale.ROOT, "%.6f", Math.max(1, timeout.toMillis()) / 1000.0);
        return "SET STATEMENT max_statement_time = " + seconds + " FOR\n" + sql;
    }

    @Override
    public Optional<String> identity() {
        return Optional.empty();
    }

    @Override
    public String rollback() {
        return "ROLLBACK";
    }

    @Override
    public Optional<String> takeRole(String role) {
        // A backticked name, backticks doubled: the role is a configured name (allowed-roles), quoted all the same.
        return Optional.of("SET ROLE `" + role.replace("`", "``") + "`");
    }

    @Override
    public String dropRole() {
        return "SET ROLE NONE";
    }

    @Override
    public String discard() {
        // The server closes its own connection; KILL takes an expression on MySQL and MariaDB alike.
        return "KILL CONNECTION_ID()";
    }
}
