package io.sqlagent.jsonschema;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ValueNode;

/** Maps Java argument types to the JSON Schema of the values Jackson binds to them. */
final class TypeMapper {

    private static final String SUPPORTED = "supported: String, char, primitive and boxed numbers, BigInteger,"
            + " BigDecimal, boolean, enums, records, List/Set/Collection/arrays of these, Map<String, T>,"
            + " Optional, JsonNode, ValueNode (a scalar), Object, UUID, Instant, LocalDate, OffsetDateTime";

    private TypeMapper() {
    }

    static boolean isOptional(Type type) {
        Class<?> raw = raw(type);
        return raw == Optional.class || raw == OptionalInt.class || raw == OptionalLong.class
                || raw == OptionalDouble.class;
    }

    /** The type inside an {@code Optional}, or {@code type} itself. */
    static Type unwrapOptional(Type type) {
        if (type == OptionalInt.class || type == OptionalLong.class) {
            return long.class;
        }
        if (type == OptionalDouble.class) {
            return double.class;
        }
        if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == Optional.class) {
            return parameterized.getActualTypeArguments()[0];
        }
        return type;
    }

    static ObjectNode schemaFor(Type type, String site, Set<Class<?>> inProgress) {
        if (type instanceof WildcardType wildcard) {
            return schemaFor(wildcard.getUpperBounds()[0], site, inProgress);
        }
        if (type instanceof GenericArrayType array) {
            return array(schemaFor(array.getGenericComponentType(), site, inProgress));
        }
        if (type instanceof ParameterizedType parameterized) {
            return parameterized(parameterized, site, inProgress);
        }
        if (type instanceof Class<?> c) {
            ObjectNode schema = simple(c, site, inProgress);
            if (schema != null) {
                return schema;
            }
        }
        throw unsupported(type, site);
    }

    private static ObjectNode parameterized(ParameterizedType type, String site, Set<Class<?>> inProgress) {
        Class<?> raw = raw(type);
        Type[] arguments = type.getActualTypeArguments();
        if (raw == List.class || raw == Collection.class || raw == Set.class) {
            ObjectNode schema = array(schemaFor(arguments[0], site, inProgress));
            if (raw == Set.class) {
                // Jackson would silently drop duplicates; say so to the model instead.
                schema.put("uniqueItems", true);
            }
            return schema;
        }
        if (raw == Map.class && arguments[0] == String.class) {
            ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
            schema.set("additionalProperties", schemaFor(arguments[1], site, inProgress));
            return schema;
        }
        throw unsupported(type, site);
    }

    private static ObjectNode simple(Class<?> c, String site, Set<Class<?>> inProgress) {
        if (c == String.class || c == CharSequence.class) {
            return typed("string");
        }
        if (c == char.class || c == Character.class) {
            // Jackson refuses to bind a longer string to a char.
            return typed("string").put("minLength", 1).put("maxLength", 1);
        }
        if (c == int.class || c == long.class || c == short.class || c == byte.class || c == Integer.class
                || c == Long.class || c == Short.class || c == Byte.class || c == BigInteger.class) {
            return typed("integer");
        }
        if (c == float.class || c == Float.class) {
            // Jackson binds 1e39 to a float as infinity without a word; the format lets the validator refuse it.
            return typed("number").put("format", "float");
        }
        if (c == double.class || c == Double.class || c == BigDecimal.class || c == Number.class) {
            return typed("number");
        }
        if (c == boolean.class || c == Boolean.class) {
            return typed("boolean");
        }
        if (c.isEnum()) {
            return enumSchema(c);
        }
        if (c.isRecord()) {
            return SchemaGenerator.recordSchema(c, inProgress);
        }
        if (c.isArray() && c != byte[].class && c != char[].class) {
            return array(schemaFor(c.getComponentType(), site, inProgress));
        }
        if (c == List.class || c == Collection.class || c == Set.class) {
            return typed("array");
        }
        if (c == Map.class || c == ObjectNode.class) {
            return typed("object");
        }
        if (c == ArrayNode.class) {
            return typed("array");
        }
        if (c == ValueNode.class) {
            // A scalar: what Jackson binds to a ValueNode, less null (a value that says nothing).
            ObjectNode schema = JsonNodeFactory.instance.objectNode();
            schema.putArray("type").add("string").add("number").add("boolean");
            return schema;
        }
        if (c == JsonNode.class || c == Object.class) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (c == Instant.class || c == OffsetDateTime.class) {
            return typed("string").put("format", "date-time");
        }
        if (c == LocalDate.class) {
            return typed("string").put("format", "date");
        }
        if (c == UUID.class) {
            return typed("string").put("format", "uuid");
        }
        return null;
    }

    /**
     * Constants are offered lower-case (or by their {@code @JsonProperty} name); the framework's
     * mapper accepts enums case-insensitively, so these bind.
     */
    private static ObjectNode enumSchema(Class<?> type) {
        ObjectNode schema = typed("string");
        ArrayNode values = schema.putArray("enum");
        for (Object constant : type.getEnumConstants()) {
            String name = ((Enum<?>) constant).name();
            JsonProperty renamed;
            try {
                renamed = type.getField(name).getAnnotation(JsonProperty.class);
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException("enum constant without a field: " + type.getName() + "." + name, e);
            }
            values.add(renamed != null && !renamed.value().isEmpty() ? renamed.value() : name.toLowerCase(Locale.ROOT));
        }
        return schema;
    }

    private static ObjectNode array(ObjectNode items) {
        ObjectNode schema = typed("array");
        schema.set("items", items);
        return schema;
    }

    private static ObjectNode typed(String type) {
        return JsonNodeFactory.instance.objectNode().put("type", type);
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> c) {
            return c;
        }
        return null;
    }

    private static IllegalArgumentException unsupported(Type type, String site) {
        String reason = isOptional(type) ? "Optional is only supported as the outer type of an argument"
                : SUPPORTED;
        return new IllegalArgumentException(site + " has unsupported type " + type.getTypeName() + "; " + reason);
    }
}
