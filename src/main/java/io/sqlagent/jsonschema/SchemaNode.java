package io.sqlagent.jsonschema;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One compiled schema location. {@link SchemaCompiler} fills the fields once and never changes
 * them afterwards; every message that does not echo the value is prepared then, so a valid value
 * is checked without building strings.
 */
final class SchemaNode {

    static final int OBJECT = 1;
    static final int ARRAY = 2;
    static final int STRING = 4;
    static final int INTEGER = 8;
    static final int NUMBER = 16;
    static final int BOOLEAN = 32;
    static final int NULL = 64;

    static final int ADDITIONAL_ALLOWED = 0;
    static final int ADDITIONAL_FORBIDDEN = 1;
    static final int ADDITIONAL_SCHEMA = 2;

    /** Set when only property names lead here, so the path is the same on every call. */
    ValuePath staticPath;

    /** Bit set of allowed types; 0 when the schema has no {@code type}. */
    int types;
    String typeExpectation;

    String[] propertyNames = new String[0];
    SchemaNode[] propertySchemas = new SchemaNode[0];
    boolean[] propertyRequired = new boolean[0];
    ValuePath[] propertyPaths = new ValuePath[0];
    Set<String> declared = Set.of();
    String[] undeclaredRequired = new String[0];
    int additional = ADDITIONAL_ALLOWED;
    SchemaNode additionalSchema;
    String unknownMessage;

    JsonNode[] enumValues;
    Set<String> enumStrings;
    String enumMessage;
    JsonNode constValue;
    String constMessage;

    /** The range a number must stay in, from its type and format; never null once compiled. */
    NumberRange range = NumberRange.DOUBLE;
    JsonNode minimum;
    JsonNode maximum;
    JsonNode exclusiveMinimum;
    JsonNode exclusiveMaximum;

    int minLength = -1;
    int maxLength = -1;
    Pattern pattern;
    String patternMessage;

    SchemaNode items;
    int minItems = -1;
    int maxItems = -1;
    boolean uniqueItems;

    /**
     * Checks {@code value}, found as {@code name} or {@code [index]} of {@code parent} (or as
     * {@code parent} itself), adding every problem to {@code out}.
     */
    void validate(JsonNode value, ValuePath parent, String name, int index, List<Violation> out) {
        if (types != 0 && !typeAllows(value)) {
            // The other keywords would only restate the type mismatch less clearly.
            report(out, parent, name, index, "must be " + typeExpectation + ", not "
                    + JsonValues.withArticle(JsonValues.typeName(value)));
            return;
        }
        if (enumValues != null && !inEnum(value)) {
            report(out, parent, name, index, enumMessage + " (got " + JsonValues.echo(value) + ")");
        }
        if (constValue != null && !JsonValues.equal(constValue, value)) {
            report(out, parent, name, index, constMessage + " (got " + JsonValues.echo(value) + ")");
        }
        switch (value.getNodeType()) {
            case OBJECT:
                validateObject(value, parent, name, index, out);
                break;
            case ARRAY:
                validateArray(value, parent, name, index, out);
                break;
            case STRING:
                validateString(value.textValue(), parent, name, index, out);
                break;
            case NUMBER:
                validateNumber(value, parent, name, index, out);
                break;
            default:
                break;
        }
    }

    private boolean typeAllows(JsonNode value) {
        switch (value.getNodeType()) {
            case OBJECT:
            case POJO:
                return (types & OBJECT) != 0;
            case ARRAY:
                return (types & ARRAY) != 0;
            case STRING:
            case BINARY:
                return (types & STRING) != 0;
            case NUMBER:
                return (types & NUMBER) != 0 || (types & INTEGER) != 0 && JsonValues.isIntegral(value);
            case BOOLEAN:
                return (types & BOOLEAN) != 0;
            default:
                return (types & NULL) != 0;
        }
    }

    private boolean inEnum(JsonNode value) {
        if (value.isTextual()) {
            return enumStrings.contains(value.textValue());
        }
        for (JsonNode candidate : enumValues) {
            if (JsonValues.equal(candidate, value)) {
                return true;
            }
        }
        return false;
    }

    private void validateObject(JsonNode value, ValuePath parent, String name, int index, List<Violation> out) {
        ValuePath here = null;
        int known = 0;
        for (int i = 0; i < propertyNames.length; i++) {
            JsonNode child = value.get(propertyNames[i]);
            if (child != null) {
                known++;
                if (propertyPaths[i] != null) {
                    propertySchemas[i].validate(child, propertyPaths[i], null, -1, out);
                } else {
                    here = here != null ? here : locate(parent, name, index);
                    propertySchemas[i].validate(child, here, propertyNames[i], -1, out);
                }
            } else if (propertyRequired[i]) {
                here = here != null ? here : locate(parent, name, index);
                out.add(new Violation(childPath(here, i).render(), "is required"));
            }
        }
        for (String required : undeclaredRequired) {
            if (value.get(required) == null) {
                here = here != null ? here : locate(parent, name, index);
                out.add(new Violation(ValuePath.property(here, required).render(), "is required"));
            }
        }
        if (additional == ADDITIONAL_ALLOWED || known == value.size()) {
            return;
        }
        here = here != null ? here : locate(parent, name, index);
        for (Map.Entry<String, JsonNode> member : value.properties()) {
            String key = member.getKey();
            if (declared.contains(key)) {
                continue;
            }
            if (additional == ADDITIONAL_FORBIDDEN) {
                out.add(new Violation(ValuePath.property(here, JsonValues.abbreviate(key)).render(), unknownMessage));
            } else {
                additionalSchema.validate(member.getValue(), here, key, -1, out);
            }
        }
    }

    private ValuePath childPath(ValuePath here, int property) {
        return propertyPaths[property] != null
                ? propertyPaths[property]
                : ValuePath.property(here, propertyNames[property]);
    }

    private void validateArray(JsonNode value, ValuePath parent, String name, int index, List<Violation> out) {
        int size = value.size();
        if (minItems >= 0 && size < minItems) {
            report(out, parent, name, index, "must have at least " + minItems + (minItems == 1 ? " item" : " items")
                    + " (got " + size + ")");
        }
        if (maxItems >= 0 && size > maxItems) {
            report(out, parent, name, index, "must have at most " + maxItems + (maxItems == 1 ? " item" : " items")
                    + " (got " + size + ")");
        }
        if (uniqueItems && size > 1) {
            checkUnique(value, parent, name, index, out);
        }
        if (items != null && size > 0) {
            ValuePath here = locate(parent, name, index);
            for (int i = 0; i < size; i++) {
                items.validate(value.get(i), here, null, i, out);
            }
        }
    }

    private void checkUnique(JsonNode value, ValuePath parent, String name, int index, List<Violation> out) {
        Map<Key, Integer> seen = new HashMap<>();
        for (int i = 0; i < value.size(); i++) {
            Integer first = seen.putIfAbsent(new Key(value.get(i)), i);
            if (first != null) {
                report(out, parent, name, index, "must not contain duplicate items (items " + first + " and " + i
                        + " are equal)");
                return;
            }
        }
    }

    private void validateString(String text, ValuePath parent, String name, int index, List<Violation> out) {
        if (minLength >= 0 || maxLength >= 0) {
            // A string has between length/2 and length code points; count them (a linear scan)
            // only when the UTF-16 length does not already settle both bounds.
            boolean settled = (maxLength < 0 || text.length() <= maxLength) && text.length() >= 2L * minLength;
            int length = settled ? text.length() : text.codePointCount(0, text.length());
            if (minLength >= 0 && length < minLength) {
                report(out, parent, name, index, "must be at least " + minLength
                        + (minLength == 1 ? " character" : " characters") + " long (got " + length + ")");
            }
            if (maxLength >= 0 && length > maxLength) {
                report(out, parent, name, index, "must be at most " + maxLength
                        + (maxLength == 1 ? " character" : " characters") + " long (got " + length + ")");
            }
        }
        if (pattern != null && !pattern.matcher(text).find()) {
            report(out, parent, name, index, patternMessage);
        }
    }

    private void validateNumber(JsonNode value, ValuePath parent, String name, int index, List<Violation> out) {
        if (!range.contains(value)) {
            // The bounds below would compare a value that cannot be bound as it reads.
            report(out, parent, name, index, range.problem(value));
            return;
        }
        if (minimum != null && JsonValues.compareNumbers(value, minimum) < 0) {
            report(out, parent, name, index, "must be at least " + number(minimum) + got(value));
        }
        if (maximum != null && JsonValues.compareNumbers(value, maximum) > 0) {
            report(out, parent, name, index, "must be at most " + number(maximum) + got(value));
        }
        if (exclusiveMinimum != null && JsonValues.compareNumbers(value, exclusiveMinimum) <= 0) {
            report(out, parent, name, index, "must be greater than " + number(exclusiveMinimum) + got(value));
        }
        if (exclusiveMaximum != null && JsonValues.compareNumbers(value, exclusiveMaximum) >= 0) {
            report(out, parent, name, index, "must be less than " + number(exclusiveMaximum) + got(value));
        }
    }

    private static String got(JsonNode value) {
        return " (got " + JsonValues.echo(value) + ")";
    }

    /** A bound as a person writes it: {@code 20}, not {@code 20.0}. */
    private static String number(JsonNode bound) {
        if (!bound.isIntegralNumber() && JsonValues.isIntegral(bound) && Math.abs(bound.doubleValue()) < 1e15) {
            return Long.toString(bound.longValue());
        }
        return bound.asText();
    }

    private ValuePath locate(ValuePath parent, String name, int index) {
        return staticPath != null ? staticPath : ValuePath.of(parent, name, index);
    }

    private void report(List<Violation> out, ValuePath parent, String name, int index, String problem) {
        out.add(new Violation(locate(parent, name, index).render(), problem));
    }

    /** Array item wrapper giving {@link JsonValues#equal} semantics to a hash map. */
    private record Key(JsonNode value) {

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && JsonValues.equal(value, key.value);
        }

        @Override
        public int hashCode() {
            return JsonValues.hash(value);
        }
    }
}
