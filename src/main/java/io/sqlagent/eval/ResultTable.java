package io.sqlagent.eval;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.sql.run.QueryResult;

/**
 * The rows a statement returned, as the graders compare them: column names (only for reports) and
 * rows of values in column order.
 */
public record ResultTable(List<String> columns, List<List<JsonNode>> rows, boolean truncated) {

    public static ResultTable of(QueryResult result) {
        return new ResultTable(result.columnNames(), result.rows(), result.truncated());
    }

    public int width() {
        return columns.isEmpty() && !rows.isEmpty() ? rows.get(0).size() : columns.size();
    }
}
