package io.sqlagent.sql.run;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.sql.engine.ResultReader;
import io.sqlagent.sql.result.ResultColumn;
import io.sqlagent.sql.result.ResultJson;
import io.sqlagent.sql.result.ResultValues;
import io.sqlagent.tool.WrittenJson;

/**
 * The rows a statement returned: its columns (name, PostgreSQL type and row key, in order) and its
 * rows, held as the answer's JSON, written once while the rows were read
 * ({@link io.sqlagent.sql.result.ResultJson}). The REST and MCP answers and the audit log use those
 * bytes as they are ({@link #json()}); readers of values ({@link #rows()}, {@link #toJson()}) get
 * them read back, each value as it was rendered, so a result no longer holds a tree of nodes per
 * value besides its JSON.
 */
public final class QueryResult implements WrittenJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final List<ResultColumn> columns;
    private final ResultJson.Written written;
    private final int rowCount;
    private final int totalRows;
    private final boolean truncated;
    private volatile List<List<JsonNode>> rows;

    /**
     * @param columns the columns, in order
     * @param written the answer, rows included (see {@link io.sqlagent.sql.result.ResultValues} for how values are
     *        rendered)
     * @param rowCount how many rows the answer holds
     * @param totalRows how many rows the service read: it stops one row past the row limit, or as soon
     *        as the result-size cap is reached; not a count of everything the query would produce
     * @param truncated whether rows were left out (row limit or result size)
     */
    QueryResult(List<ResultColumn> columns, ResultJson.Written written, int rowCount, int totalRows, boolean truncated) {
        this.columns = columns;
        this.written = written;
        this.rowCount = rowCount;
        this.totalRows = totalRows;
        this.truncated = truncated;
    }

    /** What an engine's reader read ({@code Engine.results()}). */
    static QueryResult of(ResultReader.Result read) {
        return new QueryResult(read.columns(), read.written(), read.rowCount(), read.totalRows(), read.truncated());
    }

    /** The columns, in order. */
    public List<ResultColumn> columns() {
        return columns;
    }

    /** The rows, each a list of values in column order, as rendered; read from the answer on first use. */
    public List<List<JsonNode>> rows() {
        List<List<JsonNode>> read = rows;
        if (read == null) {
            read = ResultValues.rows(written.json(), written.rowsStart(), written.rowsEnd() - written.rowsStart());
            rows = read;
        }
        return read;
    }

    /** How many rows the result holds. */
    public int rowCount() {
        return rowCount;
    }

    /** How many rows the service read (see the constructor). */
    public int totalRows() {
        return totalRows;
    }

    /** Whether rows were left out (row limit or result size). */
    public boolean truncated() {
        return truncated;
    }

    /**
     * The documented result shape as UTF-8 JSON, the bytes {@link io.sqlagent.SnakeCaseJson#MAPPER} writes
     * for {@link #toJson()}. Callers must not change the array.
     */
    @Override
    public byte[] json() {
        return written.json();
    }

    @Override
    public JsonNode tree() {
        return toJson();
    }

    /** The columns' names, in order (repeated names repeated). */
    public List<String> columnNames() {
        return columns.stream().map(ResultColumn::name).toList();
    }

    /** The rows as JSON objects keyed by each column's {@link ResultColumn#key()}, in column order. */
    public ArrayNode rowObjects() {
        List<List<JsonNode>> rows = rows();
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

    /** Columns for {@code names} and {@code types}, each with a key of its own ({@link ResultColumn#keyed}). */
    public static List<ResultColumn> columns(List<String> names, List<String> types) {
        return ResultColumn.keyed(names, types);
    }
}
