package io.sqlagent.jsonschema;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import io.sqlagent.MessageText;

/**
 * JSON value helpers shared by the compiler and the validator: JSON Schema type names, equality
 * that compares numbers by value (Jackson's {@code equals} tells {@code 5} from {@code 5.0}), and
 * abbreviation of echoed values.
 */
final class JsonValues {

    /** Longest echoed value, in code points, before it is cut and marked with an ellipsis. */
    static final int ECHO_LIMIT = 40;

    private static final long MAX_EXACT_DOUBLE = 1L << 53;

    private JsonValues() {
    }

    /** The JSON Schema type of a value; integral numbers, {@code 5.0} included, are "integer". */
    static String typeName(JsonNode value) {
        switch (value.getNodeType()) {
            case OBJECT:
            case POJO:
                return "object";
            case ARRAY:
                return "array";
            case STRING:
            case BINARY:
                return "string";
            case NUMBER:
                return isIntegral(value) ? "integer" : "number";
            case BOOLEAN:
                return "boolean";
            default:
                return "null";
        }
    }

    /** "an integer", "a string", "null": how a type reads inside a sentence. */
    static String withArticle(String typeName) {
        switch (typeName) {
            case "null":
                return "null";
            case "object":
            case "array":
            case "integer":
                return "an " + typeName;
            default:
                return "a " + typeName;
        }
    }

    static boolean isIntegral(JsonNode number) {
        if (number.isIntegralNumber()) {
            return true;
        }
        if (number.isBigDecimal()) {
            var decimal = number.decimalValue();
            return decimal.signum() == 0 || decimal.scale() <= 0 || decimal.stripTrailingZeros().scale() <= 0;
        }
        double d = number.doubleValue();
        return !Double.isInfinite(d) && d == Math.rint(d);
    }

    /** Orders two numeric nodes by value, exactly, without allocating for ordinary numbers. */
    static int compareNumbers(JsonNode a, JsonNode b) {
        if (isExactLong(a) && isExactLong(b)) {
            return Long.compare(a.longValue(), b.longValue());
        }
        if (isExactDouble(a) && isExactDouble(b) || isNonFinite(a) || isNonFinite(b)) {
            double x = a.doubleValue();
            double y = b.doubleValue();
            // Not Double.compare: it would order -0.0 before 0.0.
            return x < y ? -1 : x > y ? 1 : 0;
        }
        return a.decimalValue().compareTo(b.decimalValue());
    }

    private static boolean isExactLong(JsonNode n) {
        return n.isInt() || n.isLong() || n.isShort() || n.isBigInteger() && n.canConvertToLong();
    }

    private static boolean isExactDouble(JsonNode n) {
        if (n.isDouble() || n.isFloat() || n.isInt() || n.isShort()) {
            return true;
        }
        return n.isLong() && Math.abs(n.longValue()) <= MAX_EXACT_DOUBLE;
    }

    private static boolean isNonFinite(JsonNode n) {
        return (n.isDouble() || n.isFloat()) && !Double.isFinite(n.doubleValue());
    }

    /** JSON equality: numbers by value, objects regardless of member order. */
    static boolean equal(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return compareNumbers(a, b) == 0;
        }
        if (a.getNodeType() != b.getNodeType()) {
            return false;
        }
        if (a.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> member : a.properties()) {
                JsonNode other = b.get(member.getKey());
                if (other == null || !equal(member.getValue(), other)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!equal(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /** A hash consistent with {@link #equal}. */
    static int hash(JsonNode value) {
        if (value.isNumber()) {
            double d = value.doubleValue();
            return d == 0 ? 0 : Double.hashCode(d);
        }
        if (value.isObject()) {
            int h = 1;
            for (Map.Entry<String, JsonNode> member : value.properties()) {
                h += member.getKey().hashCode() ^ hash(member.getValue());
            }
            return h;
        }
        if (value.isArray()) {
            int h = 7;
            for (Iterator<JsonNode> it = value.elements(); it.hasNext();) {
                h = 31 * h + hash(it.next());
            }
            return h;
        }
        return value.hashCode();
    }

    /** Text cut to {@link #ECHO_LIMIT} code points, so a huge argument is never echoed whole. */
    static String abbreviate(String text) {
        return MessageText.shorten(text, ECHO_LIMIT);
    }

    /** A value as JSON for a message: strings quoted, everything abbreviated. */
    static String echo(JsonNode value) {
        if (value.isTextual()) {
            return TextNode.valueOf(abbreviate(value.textValue())).toString();
        }
        if (value.isNumber()) {
            return abbreviate(value.asText());
        }
        return abbreviate(value.toString());
    }

    /** A value as it reads in a list of choices: strings bare, other values as JSON. */
    static String plain(JsonNode value) {
        return value.isTextual() ? value.textValue() : value.toString();
    }
}
