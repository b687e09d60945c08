package io.sqlagent.declarative;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;

/**
 * The JSON Schema of a declared tool's arguments, built from its parameters. The tool executor
 * validates every call against it, so no value reaches the database unchecked. For an array,
 * {@code minLength}/{@code maxLength} count elements and the other constraints apply to each one.
 */
final class ParameterSchemas {

    /** Most elements an array argument may have when its file sets no {@code maxLength}. */
    static final int DEFAULT_MAX_ITEMS = 1000;

    private ParameterSchemas() {
    }

    /** The arguments object: one property per parameter, no others. */
    static ObjectNode arguments(List<DeclaredParameter> parameters) {
        ObjectNode schema = SnakeCaseJson.MAPPER.createObjectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = SnakeCaseJson.MAPPER.createArrayNode();
        for (DeclaredParameter parameter : parameters) {
            properties.set(parameter.name(), parameter(parameter));
            if (parameter.required()) {
                required.add(parameter.name());
            }
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    /** One argument's schema. */
    static ObjectNode parameter(DeclaredParameter parameter) {
        ObjectNode schema = SnakeCaseJson.MAPPER.createObjectNode();
        schema.put("type", parameter.type().jsonType());
        if (!parameter.description().isBlank()) {
            schema.put("description", parameter.description());
        }
        if (parameter.type() == ParameterType.ARRAY) {
            schema.set("items",
                    values(parameter, SnakeCaseJson.MAPPER.createObjectNode().put("type", parameter.valueType().jsonType())));
            // IN () is a syntax error, so an empty list can never run.
            schema.put("minItems", parameter.minLength().orElse(1));
            schema.put("maxItems", parameter.maxLength().orElse(DEFAULT_MAX_ITEMS));
        } else {
            values(parameter, schema);
            parameter.minLength().ifPresent(min -> schema.put("minLength", min));
            parameter.maxLength().ifPresent(max -> schema.put("maxLength", max));
        }
        parameter.defaultValue().ifPresent(value -> schema.set("default", value));
        return schema;
    }

    /** The constraints on each value: pattern, enum, range. */
    private static ObjectNode values(DeclaredParameter parameter, ObjectNode schema) {
        parameter.pattern().ifPresent(pattern -> schema.put("pattern", pattern));
        if (!parameter.enumValues().isEmpty()) {
            schema.putArray("enum").addAll(parameter.enumValues());
        }
        parameter.minimum().ifPresent(min -> schema.set("minimum", min));
        parameter.maximum().ifPresent(max -> schema.set("maximum", max));
        return schema;
    }
}
