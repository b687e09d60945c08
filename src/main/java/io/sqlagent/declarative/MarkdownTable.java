package io.sqlagent.declarative;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.sql.run.QueryResult;

/**
 * Renders a result as a markdown table: a header of column names, one line per row up to
 * {@code maxDisplayRows}, and a footer when rows were left out of the table or not fetched.
 */
final class MarkdownTable {

    private MarkdownTable() {
    }

    static String render(String title, QueryResult result, int maxDisplayRows, int fetchLimit) {
        StringBuilder out = new StringBuilder();
        out.append("### ").append(title).append("\n\n");
        List<String> columns = result.columnNames();
        if (columns.isEmpty()) {
            return out.append("_The statement returned no columns._\n").toString();
        }
        if (result.rows().isEmpty()) {
            return out.append("_No rows._\n").toString();
        }
        out.append('|');
        columns.forEach(column -> out.append(' ').append(escape(column)).append(" |"));
        out.append("\n|");
        columns.forEach(column -> out.append(" --- |"));
        out.append('\n');
        int shown = Math.min(maxDisplayRows, result.rows().size());
        for (List<JsonNode> row : result.rows().subList(0, shown)) {
            out.append('|');
            row.forEach(value -> out.append(' ').append(cell(value)).append(" |"));
            out.append('\n');
        }
        out.append('\n');
        if (result.truncated()) {
            out.append("_").append(shown).append(" of the first ").append(result.rowCount())
                    .append(" rows shown; the result was truncated at ").append(fetchLimit)
                    .append(" rows, more exist._\n");
        } else if (shown < result.rows().size()) {
            out.append("_").append(shown).append(" of ").append(result.rowCount()).append(" rows shown._\n");
        } else {
            out.append("_").append(shown).append(shown == 1 ? " row._\n" : " rows._\n");
        }
        return out.toString();
    }

    /** A value fit for one table cell: no pipes or line breaks to break the table. */
    private static String cell(JsonNode value) {
        if (value == null || value.isNull()) {
            return "NULL";
        }
        return escape(value.isValueNode() ? value.asText() : value.toString());
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "<br>").replace("\n", "<br>").replace("\r",
                "<br>");
    }
}
