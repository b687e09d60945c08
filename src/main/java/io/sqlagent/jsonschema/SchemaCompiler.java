package io.sqlagent.jsonschema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Turns a JSON Schema document into {@link SchemaNode}s, rejecting anything it cannot enforce so
 * that a tool author learns at start-up, not when the model first calls the tool.
 */
final class SchemaCompiler {

    private static final Map<String, Integer> TYPES = new LinkedHashMap<>();

    static {
        TYPES.put("object", SchemaNode.OBJECT);
        TYPES.put("array", SchemaNode.ARRAY);
        TYPES.put("string", SchemaNode.STRING);
        TYPES.put("integer", SchemaNode.INTEGER);
        TYPES.put("number", SchemaNode.NUMBER);
        TYPES.put("boolean", SchemaNode.BOOLEAN);
        TYPES.put("null", SchemaNode.NULL);
    }

    private static final Set<String> SUPPORTED = new LinkedHashSet<>(List.of("type", "properties", "required",
            "additionalProperties", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
            "minLength", "maxLength", "pattern", "items", "minItems", "maxItems", "uniqueItems"));

    /** Keywords that only inform the reader, so ignoring them cannot let a bad value through. */
    private static final Set<String> ANNOTATIONS = Set.of("description", "default", "title", "examples", "example",
            "format", "$schema", "$id", "$comment", "deprecated", "readOnly", "writeOnly", "contentMediaType",
            "contentEncoding");

    private SchemaCompiler() {
    }

    static SchemaNode compile(JsonNode schema) {
        return compile(schema, "#", ValuePath.ROOT);
    }

    /** @param staticPath the value's path when it never depends on the input, else null */
    private static SchemaNode compile(JsonNode schema, String pointer, ValuePath staticPath) {
        if (schema == null || !schema.isObject()) {
            throw invalid(pointer, "a schema must be a JSON object, not "
                    + (schema == null ? "nothing" : JsonValues.withArticle(JsonValues.typeName(schema))));
        }
        for (String keyword : (Iterable<String>) schema::fieldNames) {
            // Unknown keywords are rejected rather than ignored: a typo such as "maximun" or an
            // unsupported "anyOf" would otherwise silently weaken validation.
            if (!SUPPORTED.contains(keyword) && !ANNOTATIONS.contains(keyword) && !keyword.startsWith("x-")) {
                throw invalid(pointer, "unsupported keyword \"" + keyword + "\"; supported: "
                        + String.join(", ", SUPPORTED));
            }
        }
        SchemaNode node = new SchemaNode();
        node.staticPath = staticPath;
        compileType(schema.get("type"), pointer, node);
        compileRange(schema.get("format"), node);
        compileObject(schema, pointer, staticPath, node);
        compileValues(schema, pointer, node);
        node.minimum = number(schema, "minimum", pointer);
        node.maximum = number(schema, "maximum", pointer);
        node.exclusiveMinimum = number(schema, "exclusiveMinimum", pointer);
        node.exclusiveMaximum = number(schema, "exclusiveMaximum", pointer);
        if (node.minimum != null && node.maximum != null && JsonValues.compareNumbers(node.minimum, node.maximum) > 0) {
            throw invalid(pointer, "\"minimum\" " + node.minimum + " is greater than \"maximum\" " + node.maximum);
        }
        node.minLength = count(schema, "minLength", pointer);
        node.maxLength = count(schema, "maxLength", pointer);
        checkOrder(node.minLength, node.maxLength, "minLength", "maxLength", pointer);
        JsonNode pattern = schema.get("pattern");
        if (pattern != null) {
            if (!pattern.isTextual()) {
                throw invalid(pointer, "\"pattern\" must be a string" + got(pattern));
            }
            try {
                node.pattern = Pattern.compile(pattern.textValue());
            } catch (PatternSyntaxException e) {
                throw invalid(pointer, "\"pattern\" does not compile as a Java regular expression: "
                        + e.getDescription() + " near index " + e.getIndex());
            }
            node.patternMessage = "must match the pattern " + pattern.textValue();
        }
        JsonNode items = schema.get("items");
        if (items != null) {
            if (items.isArray()) {
                throw invalid(pointer, "\"items\" must be a single schema; an array of schemas (tuple validation)"
                        + " is not supported");
            }
            node.items = compile(items, pointer + "/items", null);
        }
        node.minItems = count(schema, "minItems", pointer);
        node.maxItems = count(schema, "maxItems", pointer);
        checkOrder(node.minItems, node.maxItems, "minItems", "maxItems", pointer);
        JsonNode unique = schema.get("uniqueItems");
        if (unique != null) {
            if (!unique.isBoolean()) {
                throw invalid(pointer, "\"uniqueItems\" must be a boolean" + got(unique));
            }
            node.uniqueItems = unique.booleanValue();
        }
        return node;
    }

    /**
     * The range every number must stay in, whatever {@code minimum} and {@code maximum} say: what
     * the value is bound to can hold no more. An integer is a 64-bit integer (Java {@code long},
     * PostgreSQL {@code bigint}) unless its {@code format} is {@code int32}; a number is a finite
     * double ({@code format} {@code float}: a finite float). A value outside would wrap or become
     * infinite when bound, and pass bounds it breaks.
     */
    private static void compileRange(JsonNode format, SchemaNode node) {
        String name = format != null && format.isTextual() ? format.textValue() : "";
        if ((node.types & SchemaNode.NUMBER) != 0) {
            node.range = "float".equals(name) ? NumberRange.FLOAT : NumberRange.DOUBLE;
        } else if ((node.types & SchemaNode.INTEGER) != 0) {
            node.range = "int32".equals(name) ? NumberRange.INT32 : NumberRange.INT64;
        } else {
            node.range = NumberRange.DOUBLE;
        }
    }

    private static void compileType(JsonNode type, String pointer, SchemaNode node) {
        if (type == null) {
            return;
        }
        List<String> names = new ArrayList<>();
        if (type.isTextual()) {
            names.add(type.textValue());
        } else if (type.isArray() && type.size() > 0) {
            for (JsonNode name : type) {
                if (!name.isTextual()) {
                    throw invalid(pointer, "\"type\" must list type names as strings" + got(name));
                }
                names.add(name.textValue());
            }
        } else {
            throw invalid(pointer, "\"type\" must be a type name or a non-empty array of them" + got(type));
        }
        StringBuilder expectation = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            Integer bit = TYPES.get(names.get(i));
            if (bit == null) {
                throw invalid(pointer, "\"type\" names an unknown type \"" + names.get(i) + "\"; known types: "
                        + String.join(", ", TYPES.keySet()));
            }
            node.types |= bit;
            expectation.append(i == 0 ? "" : i == names.size() - 1 ? " or " : ", ")
                    .append(JsonValues.withArticle(names.get(i)));
        }
        node.typeExpectation = expectation.toString();
    }

    private static void compileObject(JsonNode schema, String pointer, ValuePath staticPath, SchemaNode node) {
        JsonNode properties = schema.get("properties");
        if (properties != null) {
            if (!properties.isObject()) {
                throw invalid(pointer, "\"properties\" must be an object" + got(properties));
            }
            int size = properties.size();
            node.propertyNames = new String[size];
            node.propertySchemas = new SchemaNode[size];
            node.propertyRequired = new boolean[size];
            node.propertyPaths = new ValuePath[size];
            int i = 0;
            for (Map.Entry<String, JsonNode> property : properties.properties()) {
                String name = property.getKey();
                ValuePath path = staticPath == null ? null : ValuePath.property(staticPath, name);
                node.propertyNames[i] = name;
                node.propertyPaths[i] = path;
                node.propertySchemas[i] = compile(property.getValue(), pointer + "/properties/" + escape(name), path);
                i++;
            }
            node.declared = Set.of(node.propertyNames);
        }
        JsonNode required = schema.get("required");
        Set<String> undeclared = new LinkedHashSet<>();
        if (required != null) {
            if (!required.isArray()) {
                throw invalid(pointer, "\"required\" must be an array of property names" + got(required));
            }
            List<String> names = List.of(node.propertyNames);
            for (JsonNode name : required) {
                if (!name.isTextual()) {
                    throw invalid(pointer, "\"required\" must list property names as strings" + got(name));
                }
                int index = names.indexOf(name.textValue());
                if (index >= 0) {
                    node.propertyRequired[index] = true;
                } else {
                    undeclared.add(name.textValue());
                }
            }
            node.undeclaredRequired = undeclared.toArray(new String[0]);
        }
        JsonNode additional = schema.get("additionalProperties");
        if (additional == null || additional.isBoolean() && additional.booleanValue()) {
            node.additional = SchemaNode.ADDITIONAL_ALLOWED;
        } else if (additional.isBoolean()) {
            if (!undeclared.isEmpty()) {
                throw invalid(pointer, "\"required\" names " + undeclared + " which \"additionalProperties\": false"
                        + " forbids, so no value could be valid");
            }
            node.additional = SchemaNode.ADDITIONAL_FORBIDDEN;
            node.unknownMessage = node.propertyNames.length == 0
                    ? "is not a known argument; none are accepted here"
                    : "is not a known argument; known arguments: " + String.join(", ", node.propertyNames);
        } else {
            node.additional = SchemaNode.ADDITIONAL_SCHEMA;
            node.additionalSchema = compile(additional, pointer + "/additionalProperties", null);
        }
    }

    private static void compileValues(JsonNode schema, String pointer, SchemaNode node) {
        JsonNode values = schema.get("enum");
        if (values != null) {
            if (!values.isArray() || values.isEmpty()) {
                throw invalid(pointer, "\"enum\" must be a non-empty array" + got(values));
            }
            node.enumValues = new JsonNode[values.size()];
            Set<String> strings = new HashSet<>();
            StringJoiner choices = new StringJoiner(", ", "must be one of: ", "");
            for (int i = 0; i < values.size(); i++) {
                JsonNode value = values.get(i);
                node.enumValues[i] = value;
                if (value.isTextual()) {
                    strings.add(value.textValue());
                }
                choices.add(JsonValues.plain(value));
            }
            node.enumStrings = Set.copyOf(strings);
            node.enumMessage = choices.toString();
        }
        JsonNode constant = schema.get("const");
        if (constant != null) {
            node.constValue = constant;
            node.constMessage = "must be " + constant;
        }
    }

    private static JsonNode number(JsonNode schema, String keyword, String pointer) {
        JsonNode value = schema.get(keyword);
        if (value != null && !value.isNumber()) {
            throw invalid(pointer, "\"" + keyword + "\" must be a number" + got(value));
        }
        return value;
    }

    private static int count(JsonNode schema, String keyword, String pointer) {
        JsonNode value = schema.get(keyword);
        if (value == null) {
            return -1;
        }
        if (!value.isNumber() || !JsonValues.isIntegral(value) || value.doubleValue() < 0
                || value.doubleValue() > Integer.MAX_VALUE) {
            throw invalid(pointer, "\"" + keyword + "\" must be a non-negative integer" + got(value));
        }
        return value.intValue();
    }

    private static void checkOrder(int min, int max, String minKeyword, String maxKeyword, String pointer) {
        if (min >= 0 && max >= 0 && min > max) {
            throw invalid(pointer, "\"" + minKeyword + "\" " + min + " is greater than \"" + maxKeyword + "\" " + max);
        }
    }

    private static String got(JsonNode value) {
        return " (got " + JsonValues.echo(value) + ")";
    }

    /** JSON Pointer escaping, so the reported location can be followed into the schema. */
    private static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    private static IllegalArgumentException invalid(String pointer, String problem) {
        return new IllegalArgumentException("invalid schema at " + pointer + ": " + problem);
    }
}
