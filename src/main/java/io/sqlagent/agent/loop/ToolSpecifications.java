package io.sqlagent.agent.loop;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import io.sqlagent.tool.ToolDescriptor;

/**
 * Turns a tool's descriptor into langchain4j's {@link ToolSpecification}, the form the model
 * client sends. langchain4j's schema types carry no numeric ranges, lengths or patterns, so those
 * constraints are added to the property's description, where the model reads them; the executor
 * still enforces them. This adapter is the only place tool descriptors meet langchain4j types.
 */
public final class ToolSpecifications {

    private ToolSpecifications() {
    }

    /** The specification of one tool. */
    public static ToolSpecification of(ToolDescriptor descriptor) {
        return ToolSpecification.builder()
                .name(descriptor.name())
                .description(descriptor.description())
                .parameters(object(descriptor.parameters()))
                .build();
    }

    /** The specifications of several tools, in order. */
    public static List<ToolSpecification> of(List<ToolDescriptor> descriptors) {
        return descriptors.stream().map(ToolSpecifications::of).toList();
    }

    private static JsonObjectSchema object(JsonNode schema) {
        JsonObjectSchema.Builder builder = JsonObjectSchema.builder();
        description(schema).ifPresent(builder::description);
        Iterator<Map.Entry<String, JsonNode>> properties = schema.path("properties").fields();
        while (properties.hasNext()) {
            Map.Entry<String, JsonNode> property = properties.next();
            builder.addProperty(property.getKey(), element(property.getValue()));
        }
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(name -> required.add(name.asText()));
        if (!required.isEmpty()) {
            builder.required(required);
        }
        if (schema.path("additionalProperties").isBoolean()) {
            builder.additionalProperties(schema.path("additionalProperties").asBoolean());
        }
        return builder.build();
    }

    /** One property's schema as a langchain4j element. */
    static JsonSchemaElement element(JsonNode schema) {
        String description = description(schema).orElse(null);
        if (schema.has("enum")) {
            List<String> values = new ArrayList<>();
            schema.path("enum").forEach(value -> values.add(value.asText()));
            return JsonEnumSchema.builder().enumValues(values).description(description).build();
        }
        return switch (type(schema)) {
            case "object" ->
                schema.has("properties") ? object(schema) : JsonObjectSchema.builder().description(description).build();
            case "array" -> JsonArraySchema.builder().description(description)
                    .items(schema.has("items") ? element(schema.path("items")) : JsonStringSchema.builder().build()).build();
            case "integer" -> JsonIntegerSchema.builder().description(description).build();
            case "number" -> JsonNumberSchema.builder().description(description).build();
            case "boolean" -> JsonBooleanSchema.builder().description(description).build();
            default -> JsonStringSchema.builder().description(description).build();
        };
    }

    /** The first non-null type; {@code string} when none is given. */
    private static String type(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isArray()) {
            for (JsonNode option : type) {
                if (!option.asText().equals("null")) {
                    return option.asText();
                }
            }
        }
        return type.isTextual() ? type.asText() : "string";
    }

    /** The schema's description followed by the constraints the model cannot otherwise see. */
    static Optional<String> description(JsonNode schema) {
        List<String> limits = new ArrayList<>();
        if (schema.has("minimum")) {
            limits.add("at least " + schema.path("minimum").asText());
        }
        if (schema.has("exclusiveMinimum")) {
            limits.add("more than " + schema.path("exclusiveMinimum").asText());
        }
        if (schema.has("maximum")) {
            limits.add("at most " + schema.path("maximum").asText());
        }
        if (schema.has("exclusiveMaximum")) {
            limits.add("less than " + schema.path("exclusiveMaximum").asText());
        }
        if (schema.has("minLength")) {
            limits.add("at least " + schema.path("minLength").asText() + " characters");
        }
        if (schema.has("maxLength")) {
            limits.add("at most " + schema.path("maxLength").asText() + " characters");
        }
        if (schema.has("pattern")) {
            limits.add("matching the pattern " + schema.path("pattern").asText());
        }
        if (schema.has("minItems")) {
            limits.add("at least " + schema.path("minItems").asText() + " items");
        }
        if (schema.has("maxItems")) {
            limits.add("at most " + schema.path("maxItems").asText() + " items");
        }
        if (schema.has("default")) {
            limits.add("default " + schema.path("default").toString());
        }
        String text = schema.path("description").asText("");
        if (limits.isEmpty()) {
            return text.isBlank() ? Optional.empty() : Optional.of(text);
        }
        String suffix = "(" + String.join(", ", limits) + ")";
        return Optional.of(text.isBlank() ? suffix : text + " " + suffix);
    }
}
