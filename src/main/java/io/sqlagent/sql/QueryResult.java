package io.sqlagent.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.sql.result.ResultColumn;

/**
 * The rows a statement returned: its columns (name, PostgreSQL type and row key, in order) and
 * its rows as values in column order, so that columns sharing a name never overwrite each other.
 *
 * @param columns the columns, in order
 * @param rows the rows, each a list of values in column order, already rendered (see
 *        {@link io.sqlagent.sql.result.ResultValues})
 * @param rowCount how many rows are in {@code rows}
 * @param totalRows how many rows the service read: it stops one row past the row limit, or as soon
 *        as the result-size cap is reached; not a count of everything the query would produce
 * @param truncated whether rows were left out (row limit or result size)
 */
public record QueryResult(List<ResultColumn> columns, List<List<JsonNode>> rows, int rowCount, int totalRows,
        boolean truncated) {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** The columns' names, in order (repeated names repeated). */
    public List<String> columnNames() {
        return columns.stream().map(ResultColumn::name).toList();
    }

    /** The rows as JSON objects keyed by each column's {@link ResultColumn#key()}, in column order. */
    public ArrayNode rowObjects() {
        ArrayNode objects = NODES.arrayNode(rows.size());
        for (List<JsonNode> row : rows) {
            ObjectNode object = NODES.objectNode();
            for (int i = 0; i < columns.size(); i++) {
                JsonNode value = i < row.size() ? row.get(i) : null;
                object.set(columns.get(i).key(), value == null ? NullNode.getInstance() : value);
            }
            objects.add(object);
        }
        return objects;
    }

    /** The columns as {@code [{"name","type","key"}]}. */
    public ArrayNode columnsJson() {
        ArrayNode array = NODES.arrayNode(columns.size());
        for (ResultColumn column : columns) {
            array.addObject().put("name", column.name()).put("type", column.type()).put("key", column.key());
        }
        return array;
    }

    /**
     * The documented result shape of {@code run_sql} and declared tools:
     * {@code {"columns":[…],"rows":[{…}],"row_count","total_rows","truncated"}}.
     */
    public ObjectNode toJson() {
        ObjectNode answer = NODES.objectNode();
        answer.set("columns", columnsJson());
        answer.set("rows", rowObjects());
        answer.put("row_count", rowCount);
        answer.put("total_rows", totalRows);
        answer.put("truncated", truncated);
        return answer;
    }

    /**
     * Columns for {@code names} and {@code types} (same length), each with a key no other column has:
     * the name itself the first time, then {@code name_2}, {@code name_3}, … skipping keys already taken
     * by a column of that name, so {@code SELECT a, a, a_2} keys its columns {@code a, a_3, a_2}.
     */
    public static List<ResultColumn> columns(List<String> names, List<String> types) {
        Set<String> taken = new HashSet<>(names);
        Set<String> used = new HashSet<>();
        List<ResultColumn> columns = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            String key = name;
            if (!used.add(key)) {
                int n = 2;
                while (taken.contains(name + "_" + n) || used.contains(name + "_" + n)) {
                    n++;
                }
                key = name + "_" + n;
                used.add(key);
            }
            columns.add(new ResultColumn(name, i < types.size() ? types.get(i) : "unknown", key));
        }
        return columns;
    }
}
