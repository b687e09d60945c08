package io.sqlagent.sql;

import java.util.List;
import java.util.Map;

/**
 * The rows a statement returned, in the shape the {@code run_sql} contract gives the model.
 *
 * @param columns column names, in order
 * @param rows the rows, each a map from column name to a JSON-friendly value
 * @param rowCount how many rows are in {@code rows}
 * @param totalRows how many rows the service saw: at most {@code max-rows + 1}, because it stops
 *        reading one row past the limit; not a count of everything the query would produce
 * @param truncated whether rows were left out (row limit or result size)
 */
public record QueryResult(List<String> columns, List<Map<String, Object>> rows, int rowCount, int totalRows, boolean truncated) {
}
