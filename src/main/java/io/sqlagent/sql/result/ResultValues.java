package io.sqlagent.sql.result;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.data.Numeric;

/**
 * The one renderer of result values, used by every path that returns rows ({@code run_sql},
 * declared tools, schema samples) and so by REST, MCP, the {@code tool_result} event and the model.
 *
 * <p>
 * Rows of read-only statements arrive as PostgreSQL's own {@code to_json} text of the row (see
 * {@code PgResults}): every value is then exactly what PostgreSQL means by it — numbers as JSON
 * numbers with PostgreSQL's digits, booleans as booleans, {@code json}/{@code jsonb}, arrays and
 * composite values as JSON, dates and times in ISO 8601 (with the offset where PostgreSQL has one),
 * and every other type (numeric {@code NaN}/{@code Infinity}, money, interval, network types, uuid,
 * bytea in hex, bit strings, ranges, geometric types, tsvector, xml, enums, infinite dates) as a
 * string holding PostgreSQL's text output, the same text {@code psql} prints. Strings longer than
 * the cap, and structured values whose JSON is longer, are cut with a marker.
 *
 * <p>
 * Values the driver decoded itself (the plan of an {@code EXPLAIN}, rows a declared write
 * statement returns) go through {@link #fromDriver(Object, int)}.
 */
public final class ResultValues {

    /**
     * Reads PostgreSQL's JSON of rows and values, which the driver has already read whole into memory: Jackson's
     * default limit on a string's length (20 million characters) would only fail a row with a longer value, which
     * the service cuts to {@code max-cell-chars} anyway. Its limit on a number's length (1,000 digits) guards
     * against parsing a long number into a {@code BigDecimal}, which takes time quadratic in its length; numbers here
     * are never parsed, only copied as written ({@link ExactNumberNode}, {@code ResultJson}), and PostgreSQL's
     * {@code numeric} has up to 131,072 digits before the point, so that limit is lifted too. Nesting depth stays.
     */
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE).build())
            .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ResultValues() {
    }

    /**
     * The values of one row from PostgreSQL's {@code to_json} text of it, in column order (keys are
     * not used: columns that share a name appear once each, in order).
     *
     * @param maxChars longest string kept whole, and longest JSON text of a structured value kept as structure
     * @param columns how many columns the row has
     */
    public static List<JsonNode> fromRowJson(String rowJson, int columns, int maxChars) {
        List<JsonNode> values = new ArrayList<>(columns);
        try (JsonParser parser = JSON.createParser(rowJson)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalStateException("a row was not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                parser.nextToken();
                values.add(topLevel(parser, rowJson, maxChars));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL's JSON of a row could not be read", e);
        }
        while (values.size() < columns) {
            values.add(NullNode.getInstance());
        }
        return values;
    }

    private static JsonNode topLevel(JsonParser parser, String json, int maxChars) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            int start = (int) parser.currentTokenLocation().getCharOffset();
            JsonNode structure = structure(parser);
            int end = (int) parser.currentLocation().getCharOffset();
            return end - start > maxChars ? TextNode.valueOf(cut(json.substring(start, end), maxChars)) : structure;
        }
        JsonNode scalar = scalar(parser);
        return scalar instanceof TextNode text ? TextNode.valueOf(cut(text.textValue(), maxChars)) : scalar;
    }

    /** A parser of PostgreSQL's JSON of a row, with the limits every row is read under. */
    static JsonParser parser(String rowJson) throws IOException {
        return JSON.createParser(rowJson);
    }

    /**
     * The rows of a written answer ({@link ResultJson}): the JSON array of row objects at {@code offset}, each
     * row as its values in column order, numbers kept as written ({@link ExactNumberNode}).
     */
    public static List<List<JsonNode>> rows(byte[] json, int offset, int length) {
        List<List<JsonNode>> rows = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(json, offset, length)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new IllegalStateException("the rows were not a JSON array");
            }
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                List<JsonNode> values = new ArrayList<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    parser.nextToken();
                    values.add(value(parser));
                }
                rows.add(values);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("A result's rows could not be read back", e);
        }
        return rows;
    }

    /** The object or array at the parser's current token, read to its end; numbers kept as written. */
    static JsonNode structure(JsonParser parser) throws IOException {
        if (parser.currentToken() == JsonToken.START_OBJECT) {
            ObjectNode object = NODES.objectNode();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                object.set(name, value(parser));
            }
            return object;
        }
        ArrayNode array = NODES.arrayNode();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            array.add(value(parser));
        }
        return array;
    }

    private static JsonNode value(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        return token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY ? structure(parser) : scalar(parser);
    }

    private static JsonNode scalar(JsonParser parser) throws IOException {
        return switch (parser.currentToken()) {
            case VALUE_STRING -> TextNode.valueOf(parser.getText());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> ExactNumberNode.of(parser.getText());
            case VALUE_TRUE -> BooleanNode.TRUE;
            case VALUE_FALSE -> BooleanNode.FALSE;
            case VALUE_NULL -> NullNode.getInstance();
            default -> throw new IllegalStateException("unexpected JSON token " + parser.currentToken());
        };
    }

    /**
     * A value as the driver decoded it. Used only where PostgreSQL's own rendering cannot be asked
     * for (an {@code EXPLAIN} plan is text or JSON; a write statement cannot run as a subquery):
     * numbers keep their exact digits, JSON stays structured, text is cut.
     */
    public static JsonNode fromDriver(Object value, int maxChars) {
        if (value == null) {
            return NullNode.getInstance();
        }
        if (value instanceof Boolean bool) {
            return BooleanNode.valueOf(bool);
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short) {
            return ExactNumberNode.of(value.toString());
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            // PostgreSQL spells these as words; JSON has no literal for them.
            if (Double.isNaN(number)) {
                return TextNode.valueOf("NaN");
            }
            if (Double.isInfinite(number)) {
                return TextNode.valueOf(number > 0 ? "Infinity" : "-Infinity");
            }
            return ExactNumberNode.of(value.toString());
        }
        if (value instanceof BigDecimal decimal) {
            return ExactNumberNode.of(decimal);
        }
        if (value instanceof Numeric numeric) {
            return numeric.isNaN() ? TextNode.valueOf("NaN") : ExactNumberNode.of(numeric.bigDecimalValue());
        }
        if (value instanceof JsonObject || value instanceof JsonArray) {
            String encoded = value instanceof JsonObject object ? object.encode() : ((JsonArray) value).encode();
            return fromRowJson("{\"v\":" + encoded + "}", 1, maxChars).get(0);
        }
        if (value instanceof io.vertx.core.buffer.Buffer buffer) {
            return TextNode.valueOf(cut(hex(buffer.getBytes()), maxChars));
        }
        if (value instanceof io.vertx.mutiny.core.buffer.Buffer buffer) {
            return TextNode.valueOf(cut(hex(buffer.getBytes()), maxChars));
        }
        if (value.getClass().isArray()) {
            int length = Array.getLength(value);
            ArrayNode items = NODES.arrayNode(length);
            for (int i = 0; i < length; i++) {
                items.add(fromDriver(Array.get(value, i), maxChars));
            }
            return items;
        }
        return TextNode.valueOf(cut(value.toString(), maxChars));
    }

    /** bytea as PostgreSQL prints it ({@code bytea_output = hex}). */
    private static String hex(byte[] bytes) {
        return "\\x" + java.util.HexFormat.of().formatHex(bytes);
    }

    /** {@code text} cut to {@code maxChars} with a marker saying how much was left out. */
    public static String cut(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        return marked(text, text.length(), maxChars);
    }

    /**
     * The cut {@link #cut} makes of a value PostgreSQL already cut ({@link WideValues}): {@code prefix} is its first
     * {@code maxChars} characters as PostgreSQL counts them (code points, so at least {@code maxChars} here), of
     * {@code length} in all.
     */
    static String cutPrefix(String prefix, long length, int maxChars) {
        return marked(prefix, prefix.length() + (length - prefix.codePointCount(0, prefix.length())), maxChars);
    }

    private static String marked(String text, long length, int maxChars) {
        return text.substring(0, maxChars) + "…[cut: " + (length - maxChars) + " more characters]";
    }

    /** About how many characters {@code value} takes in a result's JSON, without writing it. */
    public static long jsonSize(JsonNode value) {
        if (value == null || value.isNull()) {
            return 4;
        }
        if (value.isTextual()) {
            return value.textValue().length() + 2L;
        }
        if (value.isContainerNode()) {
            long size = 2;
            for (var entry : (Iterable<java.util.Map.Entry<String, JsonNode>>) value::fields) {
                size += entry.getKey().length() + 4 + jsonSize(entry.getValue());
            }
            for (JsonNode item : value.isArray() ? value : NODES.arrayNode()) {
                size += jsonSize(item) + 1;
            }
            return size;
        }
        return value.asText().length();
    }
}
