package io.sqlagent.sql.result;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.sql.run.QueryResult;

/**
 * The answer written while rows are read is, byte for byte, the answer the service wrote before from a tree of
 * nodes (each row parsed into values, a row object per row, the whole tree serialised), for the results where the
 * two could differ; the rows read back from it are the values the tree held.
 */
class ResultJsonTest {

    private static final List<ResultColumn> THREE = QueryResult.columns(List.of("a", "b", "a"),
            List.of("integer", "text", "jsonb"));

    @Test
    void repeatedColumnNamesKeepEveryValueUnderItsOwnKey() {
        assertSameAnswer(THREE, 100, Long.MAX_VALUE, "{\"a\":1,\"b\":\"x\",\"a\":{\"k\":2}}",
                "{\"a\":2,\"b\":null,\"a\":null}");
    }

    @Test
    void numbersKeepPostgresDigitsExponentsAndScale() {
        List<ResultColumn> columns = QueryResult.columns(List.of("n", "f", "big", "neg", "zero"),
                List.of("numeric", "double precision", "numeric", "real", "numeric"));
        assertSameAnswer(columns, 100, Long.MAX_VALUE,
                "{\"n\":270.00,\"f\":1e+20,\"big\":123456789012345678901234567890.000000001,\"neg\":-1.5E-7,\"zero\":0}",
                "{\"n\":0.0000001,\"f\":1.7976931348623157e+308,\"big\":-0,\"neg\":2E3,\"zero\":-0.0}");
    }

    @Test
    void stringsWithEscapesUnicodeAndControlCharactersAreWrittenAlike() {
        List<ResultColumn> columns = QueryResult.columns(List.of("s\"q", "ünï \\ code", "e"),
                List.of("text", "text", "text"));
        assertSameAnswer(columns, 1000, Long.MAX_VALUE,
                "{\"s\\\"q\":\"quote \\\" backslash \\\\ slash \\/ tab \\t nl \\n nul-ish \\u0001 \\u001f\","
                        + "\"ünï \\\\ code\":\"Motörhead — 東京 🎸 \\ud83c\\udfb8\",\"e\":\"\"}");
    }

    @Test
    void longStringsAreCutWithTheirMarkerEvenInsideASurrogatePair() {
        List<ResultColumn> columns = QueryResult.columns(List.of("t", "u"), List.of("text", "text"));
        assertSameAnswer(columns, 5, Long.MAX_VALUE, "{\"t\":\"abcdefghij\",\"u\":\"abcd🎸xyz\"}",
                "{\"t\":\"abcde\",\"u\":\"abcdef\"}");
    }

    @Test
    void structuredValuesAreKeptAsStructureOrCutAsTheirText() {
        List<ResultColumn> columns = QueryResult.columns(List.of("j", "arr", "nested"), List.of("json", "integer[]", "json"));
        assertSameAnswer(columns, 20, Long.MAX_VALUE,
                // json keeps PostgreSQL's spacing and duplicate keys; a tree collapses both
                "{\"j\":{\"a\" : 1, \"a\" : 2, \"b\" : [1.50, null, true]},\"arr\":[1,2,3],\"nested\":[[1,2],[3,4]]}",
                "{\"j\":{\"long\":\"a value longer than twenty characters\"},\"arr\":[],\"nested\":{}}",
                "{\"j\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],\"arr\":null,\"nested\":[false]}");
    }

    @Test
    void aRowWithFewerValuesThanColumnsIsFilledWithNulls() {
        assertSameAnswer(THREE, 100, Long.MAX_VALUE, "{\"a\":1}", "{}");
    }

    @Test
    void theResultStopsAtTheFirstRowPastTheSizeCap() {
        List<ResultColumn> columns = QueryResult.columns(List.of("id", "name"), List.of("integer", "text"));
        String[] rows = { "{\"id\":1,\"name\":\"one\"}", "{\"id\":2,\"name\":\"two two two\"}", "{\"id\":3,\"name\":\"3\"}" };
        for (long cap = 0; cap < 120; cap++) {
            assertSameAnswer(columns, 100, cap, rows);
        }
    }

    @Test
    void rowsOfDriverValuesAreWrittenAsTheirTreesWere() {
        List<ResultColumn> columns = QueryResult.columns(List.of("plan", "n", "t"), List.of("json", "numeric", "text"));
        List<List<JsonNode>> rows = List.of(
                List.of(ResultValues.fromDriver(new io.vertx.core.json.JsonArray("[{\"Plan\":{\"Total Cost\":1.50}}]"), 100),
                        ResultValues.fromDriver(new java.math.BigDecimal("1E-7"), 100),
                        ResultValues.fromDriver("a long text value", 6)),
                List.of(NullNode.getInstance(), ResultValues.fromDriver(2.5d, 100), ResultValues.fromDriver(null, 100)));
        for (long cap = 0; cap < 150; cap += 7) {
            ResultJson answer = new ResultJson(columns, 100);
            long kept = 0;
            int keptRows = 0;
            boolean full = false;
            for (List<JsonNode> row : rows) {
                long size = answer.addValues(row, cap - kept);
                if (size > cap - kept) {
                    full = true;
                    break;
                }
                kept += size;
                keptRows++;
            }
            byte[] before = tree(columns, rows.subList(0, keptRows), rows.size(), full);
            assertEquals(new String(before, StandardCharsets.UTF_8),
                    new String(answer.finish(keptRows, rows.size(), full).json(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void noRowMayBeAddedAfterOneThatDidNotFit() {
        ResultJson answer = new ResultJson(THREE, 100);
        long size = answer.addRendered("{\"a\":1,\"b\":\"x\",\"a\":null}", 3);

        assertEquals(2 + (1 + 4 + 1) + (1 + 4 + 3) + (3 + 4 + 4), size);
        assertThrows(IllegalStateException.class, () -> answer.addRendered("{\"a\":1}", 1000));
        assertEquals("{\"columns\":[{\"name\":\"a\",\"type\":\"integer\",\"key\":\"a\"},{\"name\":\"b\",\"type\":\"text\","
                + "\"key\":\"b\"},{\"name\":\"a\",\"type\":\"jsonb\",\"key\":\"a_2\"}],\"rows\":[],\"row_count\":0,"
                + "\"total_rows\":1,\"truncated\":true}", new String(answer.finish(0, 1, true).json(), StandardCharsets.UTF_8));
    }

    @Test
    void aRowWithMoreValuesThanColumnsIsAnError() {
        ResultJson answer = new ResultJson(QueryResult.columns(List.of("a"), List.of("integer")), 100);

        assertThrows(IllegalStateException.class, () -> answer.addRendered("{\"a\":1,\"b\":2}", Long.MAX_VALUE));
    }

    /**
     * Values sent one text per column ({@link ColumnKind}) give the answer, byte for byte and size for size, that
     * PostgreSQL's {@code to_json} of the same rows gives: numbers with their digits (a string where JSON has no
     * such number, as {@code to_json} quotes NaN and Infinity), booleans, strings with escapes and cut, and every
     * other type as its own {@code to_json} (structures, ISO dates, quoted text), nulls included; and a row that
     * does not fit is taken back the same way.
     */
    @Test
    void valuesSentAsTextPerColumnGiveTheAnswerOfTheRowsJson() {
        List<ResultColumn> columns = QueryResult.columns(
                List.of("n", "f", "i", "yes", "s", "name", "doc", "day", "arr", "fixed"),
                List.of("numeric", "double precision", "bigint", "boolean", "text", "character varying", "jsonb",
                        "timestamp with time zone", "integer[]", "character"));
        List<String[]> texts = List.of(
                new String[] { "270.00", "1e+20", "-9223372036854775808", "true", "quote \" backslash \\ tab \t nl \n \u0001",
                        "Motörhead 🎸", "{\"a\": {\"c\": true}, \"b\": [1, 2.50]}", "\"2024-01-02T03:04:05+00:00\"",
                        "[1,2,null]", "\"ab   \"" },
                new String[] { "NaN", "-Infinity", "0", "false", "", "abcdefghijklmnop", "\"text\"", "\"infinity\"", "[]",
                        "\"\"" },
                new String[] { "0.0000001", "Infinity", null, null, null, null, "null", null, null, null });
        List<String> rows = new ArrayList<>();
        for (String[] row : texts) {
            StringBuilder json = new StringBuilder("{");
            for (int i = 0; i < row.length; i++) {
                json.append(i > 0 ? "," : "").append(TextNode.valueOf(columns.get(i).name())).append(':')
                        .append(toJson(ColumnKind.of(columns.get(i).type()), row[i]));
            }
            rows.add(json.append('}').toString());
        }
        List<ColumnKind> kinds = ColumnKind.of(columns);
        for (long cap : new long[] { Long.MAX_VALUE, 400 }) {
            ResultJson rendered = new ResultJson(columns, 12);
            ResultJson perColumn = new ResultJson(columns, 12);
            int kept = 0;
            for (int r = 0; r < rows.size(); r++) {
                long room = cap - 0;
                long expected = rendered.addRendered(rows.get(r), room);
                String[] row = texts.get(r);
                assertEquals(expected, perColumn.addTexts(kinds, i -> row[i], room), "size of row " + r);
                if (expected > room) {
                    break;
                }
                kept++;
                cap -= expected;
            }
            assertArrayEquals(rendered.finish(kept, rows.size(), false).json(),
                    perColumn.finish(kept, rows.size(), false).json());
        }
    }

    /** What {@code to_json} writes for a value whose text {@code text} is, by kind (a JSON kind's text is that already). */
    private static String toJson(ColumnKind kind, String text) {
        if (text == null) {
            return "null";
        }
        return switch (kind) {
            case NUMBER, DECIMAL -> text.matches("-?[0-9.e+]+") ? text : TextNode.valueOf(text).toString();
            case BOOLEAN, JSON -> text;
            case STRING -> TextNode.valueOf(text).toString();
        };
    }

    /**
     * Writes {@code rows} both ways under the same caps, as the service reads them: rows are kept until the first
     * that does not fit in what is left of {@code maxResultChars}. The bytes must be equal, and the rows read back
     * from the new answer must be the values the tree held.
     */
    private static void assertSameAnswer(List<ResultColumn> columns, int maxChars, long maxResultChars, String... rows) {
        List<List<JsonNode>> kept = new ArrayList<>();
        ResultJson answer = new ResultJson(columns, maxChars);
        long keptChars = 0;
        boolean full = false;
        for (String row : rows) {
            // before: the row's values as nodes, sized, kept whole or not at all
            List<JsonNode> values = ResultValues.fromRowJson(row, columns.size(), maxChars);
            long expected = 2;
            for (int i = 0; i < values.size(); i++) {
                expected += columns.get(i).key().length() + 4 + ResultValues.jsonSize(values.get(i));
            }
            long room = maxResultChars - keptChars;
            long size = answer.addRendered(row, room);
            assertEquals(expected, size, "size of " + row);
            if (size > room) {
                full = true;
                break;
            }
            keptChars += size;
            kept.add(values);
        }
        String before = new String(tree(columns, kept, rows.length, full), StandardCharsets.UTF_8);
        ResultJson.Written written = answer.finish(kept.size(), rows.length, full);
        assertEquals(before, new String(written.json(), StandardCharsets.UTF_8), "cap " + maxResultChars);
        assertArrayEquals(before.getBytes(StandardCharsets.UTF_8), written.json());
        assertEquals(kept, ResultValues.rows(written.json(), written.rowsStart(), written.rowsEnd() - written.rowsStart()));
    }

    /** The answer as the service wrote it before: a tree of the columns and of a row object per row, serialised. */
    private static byte[] tree(List<ResultColumn> columns, List<List<JsonNode>> rows, int totalRows, boolean truncated) {
        ObjectNode answer = SnakeCaseJson.MAPPER.createObjectNode();
        ArrayNode columnsJson = answer.putArray("columns");
        columns.forEach(c -> columnsJson.addObject().put("name", c.name()).put("type", c.type()).put("key", c.key()));
        ArrayNode objects = answer.putArray("rows");
        for (List<JsonNode> row : rows) {
            ObjectNode object = objects.addObject();
            for (int i = 0; i < columns.size(); i++) {
                JsonNode value = i < row.size() ? row.get(i) : null;
                object.set(columns.get(i).key(), value == null ? NullNode.getInstance() : value);
            }
        }
        answer.put("row_count", rows.size());
        answer.put("total_rows", totalRows);
        answer.put("truncated", truncated);
        try {
            return SnakeCaseJson.MAPPER.writeValueAsBytes(answer);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
