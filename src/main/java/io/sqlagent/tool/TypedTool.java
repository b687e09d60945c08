package io.sqlagent.tool;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.SchemaGenerator;
import io.sqlagent.jsonschema.Violation;

/**
 * Base class for a tool written in Java: annotate the class with {@link ToolDefinition}, declare the
 * arguments as a record whose components carry {@code @Param} descriptions and constraints, and
 * implement {@link #run}. The JSON Schema is derived from the record; arguments arrive bound to it;
 * whatever {@code run} returns is turned into JSON (snake_case).
 *
 * <pre>
 * {
 *     &#64;code
 *     &#64;Singleton
 *     &#64;ToolDefinition(name = "echo", description = "Repeats a text.", readOnly = true)
 *     public class EchoTool extends TypedTool<EchoTool.Arguments> {
 *         public record Arguments(@Param(description = "What to repeat", maxLength = 100) String text) {
 *         }
 *
 *         @Override
 *         protected Uni<?> run(Arguments arguments, ToolCallContext context) {
 *             return Uni.createFrom().item(Map.of("text", arguments.text()));
 *         }
 *     }
 * }
 * </pre>
 *
 * @param <A> the arguments record
 */
public abstract class TypedTool<A extends Record> implements Tool {

    private volatile ToolDescriptor descriptor;
    private volatile Class<A> argumentsType;

    /** Runs the tool; the value becomes the result's JSON. Throw {@link ToolException} for failures the model should see. */
    protected abstract Uni<?> run(A arguments, ToolCallContext context);

    @Override
    public ToolDescriptor descriptor() {
        ToolDescriptor current = descriptor;
        if (current == null) {
            current = describe(getClass());
            descriptor = current;
        }
        return current;
    }

    @Override
    public Uni<ToolResult> invoke(ToolCall call, ToolCallContext context) {
        A arguments;
        try {
            arguments = SnakeCaseJson.MAPPER.treeToValue(call.arguments(), argumentsType());
        } catch (JsonMappingException e) {
            if (e.getCause() instanceof InputCoercionException coercion) {
                // A number the schema allows (any 64-bit integer) that the record's type cannot hold (an int):
                // the caller's mistake, so an invalid argument, never a wrapped value or a tool failure.
                StringBuilder argument = new StringBuilder();
                for (JsonMappingException.Reference reference : e.getPath()) {
                    if (reference.getFieldName() != null) {
                        argument.append(argument.isEmpty() ? "" : ".").append(reference.getFieldName());
                    } else {
                        argument.append('[').append(reference.getIndex()).append(']');
                    }
                }
                String problem = "is out of range (" + coercion.getOriginalMessage() + ")";
                return Uni.createFrom()
                        .item(ToolResult.invalidArguments("Invalid arguments for tool '" + descriptor().name() + "': "
                                + argument + " " + problem, List.of(new Violation(argument.toString(), problem))));
            }
            throw new ToolException("The arguments could not be read: " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw new ToolException("The arguments could not be read: " + e.getOriginalMessage());
        } catch (IllegalArgumentException e) {
            throw new ToolException("The arguments could not be read: " + e.getMessage());
        }
        Uni<?> result = Uni.createFrom().deferred(() -> run(arguments, context));
        if (definition(getClass()).blocking()) {
            result = result.runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        }
        return result.map(value -> value instanceof WrittenJson written ? ToolResult.written(written)
                : ToolResult.success(toJson(value)));
    }

    private static JsonNode toJson(Object value) {
        return value instanceof JsonNode node ? node : SnakeCaseJson.MAPPER.valueToTree(value);
    }

    private Class<A> argumentsType() {
        Class<A> current = argumentsType;
        if (current == null) {
            current = argumentsTypeOf(getClass());
            argumentsType = current;
        }
        return current;
    }

    /**
     * The descriptor of a typed tool class, from its annotation and arguments record, without
     * creating the tool.
     *
     * @throws IllegalArgumentException if the class lacks {@link ToolDefinition} or its arguments
     *         record cannot be described
     */
    public static ToolDescriptor describe(Class<?> toolClass) {
        ToolDefinition definition = definition(toolClass);
        return descriptor(definition, SchemaGenerator.forRecord(argumentsTypeOf(toolClass)));
    }

    /** The descriptor a {@link ToolDefinition} declares, with the given argument schema. */
    static ToolDescriptor descriptor(ToolDefinition definition, ObjectNode parameters) {
        ToolMetadata metadata = new ToolMetadata(
                definition.title().isBlank() ? definition.name() : definition.title(),
                List.of(definition.tags()),
                optional(definition.namespace()),
                definition.readOnly(),
                definition.auditArguments(),
                Map.of());
        return new ToolDescriptor(definition.name(), definition.description(), parameters,
                optional(definition.returns()), optional(definition.usage()), metadata);
    }

    private static Optional<String> optional(String text) {
        return text.isBlank() ? Optional.empty() : Optional.of(text);
    }

    private static ToolDefinition definition(Class<?> toolClass) {
        for (Class<?> type = toolClass; type != null && type != Object.class; type = type.getSuperclass()) {
            ToolDefinition definition = type.getAnnotation(ToolDefinition.class);
            if (definition != null) {
                return definition;
            }
        }
        throw new IllegalArgumentException(toolClass.getName() + " extends TypedTool but has no @ToolDefinition");
    }

    @SuppressWarnings("unchecked")
    private static <A extends Record> Class<A> argumentsTypeOf(Class<?> toolClass) {
        for (Class<?> type = toolClass; type != null && type != Object.class; type = type.getSuperclass()) {
            Type superType = type.getGenericSuperclass();
            if (superType instanceof ParameterizedType parameterized && parameterized.getRawType() == TypedTool.class) {
                Type argument = parameterized.getActualTypeArguments()[0];
                if (argument instanceof Class<?> argumentClass && argumentClass.isRecord()) {
                    return (Class<A>) argumentClass;
                }
            }
        }
        throw new IllegalArgumentException(
                toolClass.getName() + " must extend TypedTool<SomeRecord> with a concrete record type");
    }
}
