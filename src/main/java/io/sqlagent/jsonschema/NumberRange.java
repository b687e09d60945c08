package io.sqlagent.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;

/**
 * The range of values an argument's type can hold once bound: a 32- or 64-bit integer, or a finite
 * float or double. JSON numbers have no limit, so {@code 18446744073709551621} or {@code 1e400}
 * parse; bound as they are, the first wraps to 5 and the second becomes infinity, each passing
 * bounds it breaks. Checked before {@code minimum} and {@code maximum}.
 */
enum NumberRange {
    INT32(IntNode.valueOf(Integer.MIN_VALUE), IntNode.valueOf(Integer.MAX_VALUE), "an integer"),
    INT64(LongNode.valueOf(Long.MIN_VALUE), LongNode.valueOf(Long.MAX_VALUE), "an integer"),
    FLOAT(DoubleNode.valueOf(-Float.MAX_VALUE), DoubleNode.valueOf(Float.MAX_VALUE), "a number"),
    DOUBLE(DoubleNode.valueOf(-Double.MAX_VALUE), DoubleNode.valueOf(Double.MAX_VALUE), "a number");

    private final JsonNode low;
    private final JsonNode high;
    private final String kind;

    NumberRange(JsonNode low, JsonNode high, String kind) {
        this.low = low;
        this.high = high;
        this.kind = kind;
    }

    boolean contains(JsonNode number) {
        if (number.isDouble() || number.isFloat()) {
            double d = number.doubleValue();
            // NaN never comes from JSON text, but a tree built in code may hold it.
            if (!Double.isFinite(d)) {
                return false;
            }
        }
        if ((this == INT64 || this == DOUBLE) && (number.isInt() || number.isLong() || number.isShort())) {
            return true;
        }
        return JsonValues.compareNumbers(number, low) >= 0 && JsonValues.compareNumbers(number, high) <= 0;
    }

    String problem(JsonNode number) {
        double d = number.doubleValue();
        boolean nonFinite = (number.isDouble() || number.isFloat()) && !Double.isFinite(d);
        String got = !nonFinite ? JsonValues.echo(number) : Double.isNaN(d) ? "NaN" : "a number too large to hold";
        return "must be " + kind + " from " + low.asText() + " to " + high.asText() + " (got " + got + ")";
    }
}
