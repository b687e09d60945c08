package io.sqlagent.sql;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.sqlclient.data.Numeric;

/**
 * Turns PostgreSQL values into JSON-friendly ones for the model: numbers stay numbers (exact
 * decimals as decimals), dates and times become ISO text, JSON stays structured, arrays become
 * lists, binary data becomes a size marker, and text longer than the cap is cut with a marker.
 */
public final class SqlValues {

    private SqlValues() {
    }

    /** One row as an ordered map from column name to value. */
    public static Map<String, Object> row(Row row, List<String> columns, int maxChars) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            values.put(columns.get(i), value(row.getValue(i), maxChars));
        }
        return values;
    }

    /** One value, converted and capped. */
    public static Object value(Object value, int maxChars) {
        if (value == null || value instanceof Boolean || value instanceof Integer || value instanceof Long
                || value instanceof Short || value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
            return value;
        }
        if (value instanceof Numeric numeric) {
            return numeric.isNaN() ? "NaN" : numeric.bigDecimalValue();
        }
        if (value instanceof String text) {
            return cut(text, maxChars);
        }
        if (value instanceof TemporalAccessor || value instanceof UUID) {
            return value.toString();
        }
        if (value instanceof JsonObject json) {
            return capped(json.getMap(), json.encode(), maxChars);
        }
        if (value instanceof JsonArray json) {
            return capped(json.getList(), json.encode(), maxChars);
        }
        if (value instanceof Buffer buffer) {
            return "[binary data, " + buffer.length() + " bytes]";
        }
        if (value instanceof io.vertx.core.buffer.Buffer buffer) {
            return "[binary data, " + buffer.length() + " bytes]";
        }
        if (value.getClass().isArray()) {
            int length = Array.getLength(value);
            List<Object> items = new ArrayList<>(length);
            for (int i = 0; i < length; i++) {
                items.add(value(Array.get(value, i), maxChars));
            }
            return items;
        }
        return cut(value.toString(), maxChars);
    }

    private static Object capped(Object structured, String encoded, int maxChars) {
        return encoded.length() <= maxChars ? structured : cut(encoded, maxChars);
    }

    private static String cut(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        return text.substring(0, maxChars) + "…[cut: " + (text.length() - maxChars) + " more characters]";
    }
}
