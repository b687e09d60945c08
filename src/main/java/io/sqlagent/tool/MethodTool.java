package io.sqlagent.tool;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.SchemaGenerator;

/**
 * A tool made from a method annotated with {@link ToolDefinition}: the method's parameters (with
 * {@code @Param}) are the arguments, its return value (a value or a {@code Uni}) the result. The
 * alternative to an arguments record when a tool is one small function.
 *
 * <pre>{@code
 * &#64;ToolDefinition(name = "add", description = "Adds two numbers.", readOnly = true)
 * public int add(@Param(description = "first") int a, @Param(description = "second") int b) { return a + b; }
 * ...
 * registry.register(MethodTool.all(calculator));
 * }</pre>
 */
public final class MethodTool implements Tool {

    private final Object target;
    private final Method method;
    private final ToolDescriptor descriptor;
    private final boolean blocking;
    private final List<String> argumentNames = new ArrayList<>();
    private final List<JavaType> argumentTypes = new ArrayList<>();

    private MethodTool(Object target, Method method) {
        ToolDefinition definition = method.getAnnotation(ToolDefinition.class);
        if (definition == null) {
            throw new IllegalArgumentException(method + " has no @ToolDefinition");
        }
        this.target = target;
        this.method = method;
        this.method.setAccessible(true);
        this.blocking = definition.blocking();
        this.descriptor = TypedTool.descriptor(definition, SchemaGenerator.forMethod(method));
        for (Parameter parameter : method.getParameters()) {
            JsonProperty renamed = parameter.getAnnotation(JsonProperty.class);
            argumentNames.add(renamed != null && !renamed.value().isEmpty() ? renamed.value()
                    : SchemaGenerator.snakeCase(parameter.getName()));
            argumentTypes.add(SnakeCaseJson.MAPPER.getTypeFactory().constructType(parameter.getParameterizedType()));
        }
    }

    /** A tool for one annotated method of {@code target}. */
    public static MethodTool of(Object target, Method method) {
        return new MethodTool(target, method);
    }

    /** A tool for every method of {@code target}'s class annotated with {@link ToolDefinition}. */
    public static List<Tool> all(Object target) {
        List<Tool> tools = new ArrayList<>();
        for (Method method : target.getClass().getDeclaredMethods()) {
            if (method.isAnnotationPresent(ToolDefinition.class)) {
                tools.add(new MethodTool(target, method));
            }
        }
        return tools;
    }

    @Override
    public ToolDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public Uni<ToolResult> invoke(ToolCall call, ToolCallContext context) {
        Object[] values = bind(call);
        Uni<Object> result = Uni.createFrom().deferred(() -> call(values));
        if (blocking) {
            result = result.runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        }
        return result
                .map(value -> ToolResult
                        .success(value instanceof JsonNode node ? node : SnakeCaseJson.MAPPER.valueToTree(value)));
    }

    private Object[] bind(ToolCall call) {
        Object[] values = new Object[argumentNames.size()];
        for (int i = 0; i < values.length; i++) {
            JsonNode value = call.arguments().get(argumentNames.get(i));
            JavaType type = argumentTypes.get(i);
            try {
                values[i] = value == null || value.isNull()
                        ? absent(type)
                        : SnakeCaseJson.MAPPER.convertValue(value, type);
            } catch (IllegalArgumentException e) {
                throw new ToolException("Argument '" + argumentNames.get(i) + "' could not be read: " + e.getMessage());
            }
        }
        return values;
    }

    private static Object absent(JavaType type) {
        if (type.getRawClass() == Optional.class) {
            return Optional.empty();
        }
        return type.isPrimitive() ? SnakeCaseJson.MAPPER.convertValue(0, type) : null;
    }

    @SuppressWarnings("unchecked")
    private Uni<Object> call(Object[] values) {
        try {
            Object returned = method.invoke(target, values);
            return returned instanceof Uni<?> uni ? (Uni<Object>) uni : Uni.createFrom().item(returned);
        } catch (InvocationTargetException e) {
            return Uni.createFrom().failure(e.getCause());
        } catch (IllegalAccessException e) {
            return Uni.createFrom().failure(e);
        }
    }

}
