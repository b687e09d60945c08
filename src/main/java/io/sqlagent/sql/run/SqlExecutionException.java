package io.sqlagent.sql.run;

import java.util.Optional;

import io.sqlagent.tool.ToolException;

/**
 * PostgreSQL refused or failed a statement: carries the server's message, SQLSTATE and the
 * position of the error in the statement, phrased for the model to fix its SQL.
 */
public class SqlExecutionException extends ToolException {

    private final String sqlState;
    private final Optional<Integer> position;
    private final String sql;

    public SqlExecutionException(String message, String sqlState, Optional<Integer> position, String sql) {
        super(message);
        this.sqlState = sqlState;
        this.position = position;
        this.sql = sql;
    }

    /** The SQLSTATE code ({@code 42P01} for an unknown table, ...). */
    public String sqlState() {
        return sqlState;
    }

    /** 1-based character position of the error in the statement, when PostgreSQL gave one. */
    public Optional<Integer> position() {
        return position;
    }

    /** The statement that failed. */
    public String sql() {
        return sql;
    }
}
