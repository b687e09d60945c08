package io.sqlagent.jsonschema;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Writes a {@link Param}'s constraints into an argument's schema, refusing constraints that do
 * not fit the argument's type or contradict each other, since either is a mistake in the tool.
 */
final class ParamConstraints {

    private static final Set<String> NUMBERS = Set.of("integer", "number");
    private static final Set<String> STRINGS = Set.of("string");
    private static final Set<String> ARRAYS = Set.of("array");

    private static final ObjectReader LITERALS = new ObjectMapper().reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private ParamConstraints() {
    }

    static void apply(ObjectNode property, Param param, String site) {
        if (!param.description().isEmpty()) {
            property.put("description", param.description());
        }
        applyBounds(property, param, site);
        applyStringRules(property, param, site);
        int minItems = count(param.minItems(), "minItems", site);
        int maxItems = count(param.maxItems(), "maxItems", site);
        if (minItems >= 0 || maxItems >= 0) {
            ObjectNode target = target(property, ARRAYS, minItems >= 0 ? "minItems" : "maxItems", site);
            checkOrder(minItems, maxItems, "minItems", "maxItems", site);
            putCount(target, "minItems", minItems);
            putCount(target, "maxItems", maxItems);
        }
        if (!param.example().isEmpty()) {
            property.putArray("examples").add(literal(param.example(), property));
        }
        if (!param.defaultValue().isEmpty()) {
            JsonNode value = literal(param.defaultValue(), property);
            property.set("default", value);
            checkDefault(property, value, site);
        }
    }

    private static void applyBounds(ObjectNode property, Param param, String site) {
        double minimum = param.minimum();
        double maximum = param.maximum();
        if (Double.isNaN(minimum) && Double.isNaN(maximum)) {
            return;
        }
        ObjectNode target = target(property, NUMBERS, Double.isNaN(minimum) ? "maximum" : "minimum", site);
        if (Double.isInfinite(minimum) || Double.isInfinite(maximum)) {
            throw new IllegalArgumentException(site + ": @Param minimum and maximum must be finite");
        }
        if (minimum > maximum) {
            throw new IllegalArgumentException(site + ": @Param(minimum = " + minimum + ") is greater than maximum "
                    + maximum);
        }
        boolean integer = "integer".equals(target.path("type").asText());
        putBound(target, "minimum", minimum, integer);
        putBound(target, "maximum", maximum, integer);
    }

    private static void putBound(ObjectNode target, String keyword, double value, boolean integer) {
        if (Double.isNaN(value)) {
            return;
        }
        // An integer argument reads "minimum": 1, not 1.0, which a model could take as a hint to send decimals.
        if (integer && value == Math.rint(value) && Math.abs(value) < 0x1p63) {
            long whole = (long) value;
            if (whole == (int) whole) {
                target.put(keyword, (int) whole);
            } else {
                target.put(keyword, whole);
            }
        } else {
            target.put(keyword, value);
        }
    }

    private static void applyStringRules(ObjectNode property, Param param, String site) {
        int minLength = count(param.minLength(), "minLength", site);
        int maxLength = count(param.maxLength(), "maxLength", site);
        String pattern = param.pattern();
        String[] allowed = param.allowed();
        if (minLength < 0 && maxLength < 0 && pattern.isEmpty() && allowed.length == 0) {
            return;
        }
        String attribute = !pattern.isEmpty() ? "pattern"
                : allowed.length > 0 ? "allowed"
                        : minLength >= 0 ? "minLength" : "maxLength";
        ObjectNode target = target(property, STRINGS, attribute, site);
        checkOrder(minLength, maxLength, "minLength", "maxLength", site);
        putCount(target, "minLength", minLength);
        putCount(target, "maxLength", maxLength);
        if (!pattern.isEmpty()) {
            try {
                Pattern.compile(pattern);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(site + ": @Param(pattern) does not compile as a Java regular"
                        + " expression: " + e.getDescription() + " near index " + e.getIndex(), e);
            }
            target.put("pattern", pattern);
        }
        if (allowed.length > 0) {
            restrictEnum(target, allowed, site);
        }
    }

    /** Sets {@code enum} to {@code allowed}, which must narrow, not widen, an enum type's constants. */
    private static void restrictEnum(ObjectNode target, String[] allowed, String site) {
        JsonNode existing = target.get("enum");
        Set<String> permitted = new HashSet<>();
        if (existing != null) {
            existing.forEach(value -> permitted.add(value.asText()));
        }
        ArrayNode values = target.putArray("enum");
        for (String value : allowed) {
            if (existing != null && !permitted.contains(value)) {
                throw new IllegalArgumentException(site + ": @Param(allowed) value \"" + value
                        + "\" is not one of the enum's values " + existing);
            }
            values.add(value);
        }
    }

    /**
     * The schema a constraint belongs on: the property itself, or the items of an array property
     * whose items have one of {@code types}.
     */
    private static ObjectNode target(ObjectNode property, Set<String> types, String attribute, String site) {
        String type = property.path("type").asText("");
        if (types.contains(type)) {
            return property;
        }
        JsonNode items = property.get("items");
        if ("array".equals(type) && items instanceof ObjectNode itemSchema
                && types.contains(itemSchema.path("type").asText(""))) {
            return itemSchema;
        }
        List<String> expected = types.stream().sorted().toList();
        throw new IllegalArgumentException(site + ": @Param(" + attribute + ") needs " + String.join(" or ", expected)
                + (types == ARRAYS ? "" : " (or an array of them)") + ", but the argument is "
                + (type.isEmpty() ? "of any type" : JsonValues.withArticle(type)));
    }

    private static int count(int value, String attribute, String site) {
        if (value < -1) {
            throw new IllegalArgumentException(site + ": @Param(" + attribute + ") must not be negative (got "
                    + value + ")");
        }
        return value;
    }

    private static void checkOrder(int min, int max, String minAttribute, String maxAttribute, String site) {
        if (min >= 0 && max >= 0 && min > max) {
            throw new IllegalArgumentException(site + ": @Param(" + minAttribute + " = " + min + ") is greater than "
                    + maxAttribute + " " + max);
        }
    }

    private static void putCount(ObjectNode target, String keyword, int value) {
        if (value >= 0) {
            target.put(keyword, value);
        }
    }

    /** JSON text as a value; plain text, or any non-string for a string argument, as a string. */
    private static JsonNode literal(String text, ObjectNode property) {
        JsonNode parsed;
        try {
            parsed = LITERALS.readTree(text);
        } catch (IOException e) {
            return TextNode.valueOf(text);
        }
        if (parsed == null || parsed.isMissingNode()
                || "string".equals(property.path("type").asText()) && !parsed.isTextual()) {
            return TextNode.valueOf(text);
        }
        return parsed;
    }

    /** A default the argument's own constraints reject would be offered to the model as valid. */
    private static void checkDefault(ObjectNode property, JsonNode value, String site) {
        List<Violation> violations;
        try {
            violations = CompiledSchema.compile(property).validate(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(site + ": " + e.getMessage(), e);
        }
        if (!violations.isEmpty()) {
            throw new IllegalArgumentException(site + ": @Param(defaultValue = " + value + ") breaks the argument's"
                    + " own constraints: " + violations.stream().map(Violation::problem).toList());
        }
    }
}
