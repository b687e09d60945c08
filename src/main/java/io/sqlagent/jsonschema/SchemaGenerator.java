package io.sqlagent.jsonschema;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Derives a tool's argument schema from the record (or method) that declares its arguments, so a
 * Java tool never carries hand-written JSON that could drift from the type it binds to. Argument
 * names follow Jackson's snake_case strategy, the naming the tool framework binds with.
 */
public final class SchemaGenerator {

    private static final PropertyNamingStrategies.SnakeCaseStrategy SNAKE_CASE = new PropertyNamingStrategies.SnakeCaseStrategy();

    private SchemaGenerator() {
    }

    /**
     * The object schema for a record's components: {@code type}, {@code properties} in component
     * order, {@code required} (omitted when empty) and {@code "additionalProperties": false}.
     *
     * @throws IllegalArgumentException naming the record and component when a component's type is
     *         unsupported or its {@link Param} constraints are malformed or contradictory
     */
    public static ObjectNode forRecord(Class<? extends Record> type) {
        Objects.requireNonNull(type, "type");
        return recordSchema(type, new HashSet<>(), false);
    }

    /**
     * The object schema for a method's parameters, by the same rules as {@link #forRecord}; the
     * class must be compiled with {@code -parameters} so the names are real.
     */
    public static ObjectNode forMethod(Method method) {
        Objects.requireNonNull(method, "method");
        List<Member> members = new ArrayList<>();
        for (Parameter parameter : method.getParameters()) {
            String site = "method " + method.getDeclaringClass().getName() + "." + method.getName()
                    + " parameter '" + parameter.getName() + "'";
            if (!parameter.isNamePresent()) {
                throw new IllegalArgumentException(site + ": parameter names are missing; compile with -parameters");
            }
            members.add(new Member(jsonName(parameter.getName(), parameter.getAnnotation(JsonProperty.class)),
                    parameter.getParameterizedType(), parameter.getAnnotation(Param.class), site));
        }
        return objectSchema(members, new HashSet<>(), false);
    }

    /** The argument name for a Java name, exactly as Jackson's {@code SNAKE_CASE} strategy spells it. */
    public static String snakeCase(String name) {
        return SNAKE_CASE.translate(name);
    }

    /**
     * The schema of a record inside the arguments (an argument's value or element).
     *
     * @param inProgress records being expanded, to refuse a record that contains itself
     */
    static ObjectNode recordSchema(Class<?> type, Set<Class<?>> inProgress) {
        return recordSchema(type, inProgress, true);
    }

    /** @param nested whether the record is inside the arguments rather than the arguments themselves */
    private static ObjectNode recordSchema(Class<?> type, Set<Class<?>> inProgress, boolean nested) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        if (!inProgress.add(type)) {
            throw new IllegalArgumentException("record " + type.getName()
                    + " contains itself; recursive argument types are not supported");
        }
        List<Member> members = new ArrayList<>();
        for (RecordComponent component : type.getRecordComponents()) {
            // @JsonProperty cannot target record components, so Java places it on the accessor.
            JsonProperty renamed = component.getAccessor().getAnnotation(JsonProperty.class);
            members.add(new Member(jsonName(component.getName(), renamed), component.getGenericType(),
                    component.getAnnotation(Param.class),
                    "record " + type.getName() + " component '" + component.getName() + "'"));
        }
        ObjectNode schema = objectSchema(members, inProgress, nested);
        inProgress.remove(type);
        return schema;
    }

    private static ObjectNode objectSchema(List<Member> members, Set<Class<?>> inProgress, boolean nested) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode schema = json.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = json.arrayNode();
        for (Member member : members) {
            if (properties.has(member.name())) {
                throw new IllegalArgumentException(member.site() + ": argument name '" + member.name()
                        + "' is already used by another component");
            }
            boolean optional = TypeMapper.isOptional(member.type());
            ObjectNode property = TypeMapper.schemaFor(TypeMapper.unwrapOptional(member.type()), member.site(),
                    inProgress);
            Param param = member.param();
            if (param != null) {
                ParamConstraints.apply(property, param, member.site());
            }
            if (optional && nested) {
                allowNull(property);
            }
            properties.set(member.name(), property);
            if (!optional && (param == null || param.required() && param.defaultValue().isEmpty())) {
                required.add(member.name());
            }
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    /**
     * Lets an optional member of a nested record be {@code null}, which Jackson binds to empty:
     * the executor drops a null optional argument only at the top level, and a model sends nulls
     * for what it leaves out at any depth.
     */
    private static void allowNull(ObjectNode property) {
        JsonNode type = property.get("type");
        if (type != null && type.isTextual()) {
            property.putArray("type").add(type.textValue()).add("null");
        } else if (type != null && type.isArray()) {
            ((ArrayNode) type).add("null");
        }
        if (property.get("enum") instanceof ArrayNode values) {
            values.addNull();
        }
    }

    private static String jsonName(String javaName, JsonProperty renamed) {
        // Jackson binds an explicit @JsonProperty name as written, without the naming strategy.
        if (renamed != null && !renamed.value().isEmpty()) {
            return renamed.value();
        }
        return snakeCase(javaName);
    }

    /** One argument: its JSON name, Java type, annotation and a description for error messages. */
    private record Member(String name, Type type, Param param, String site) {
    }
}
