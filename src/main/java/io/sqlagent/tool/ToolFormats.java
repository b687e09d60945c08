package io.sqlagent.tool;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;

/**
 * The JSON forms of a descriptor: short (listing), full (help), and the two shapes model APIs
 * expect. The OpenAI/Ollama {@code parameters} and the Anthropic {@code input_schema} are the
 * same schema object.
 */
public final class ToolFormats {

    private ToolFormats() {
    }

    /** {@code {"name","summary","namespace"?}}: enough to choose a tool. */
    public static ObjectNode shortForm(ToolDescriptor descriptor) {
        ObjectNode node = SnakeCaseJson.MAPPER.createObjectNode();
        node.put("name", descriptor.name());
        node.put("summary", descriptor.summary());
        descriptor.metadata().namespace().ifPresent(namespace -> node.put("namespace", namespace));
        return node;
    }

    /** Everything: description, parameters, return shape, usage notes and metadata. */
    public static ObjectNode fullForm(ToolDescriptor descriptor) {
        ObjectNode node = SnakeCaseJson.MAPPER.createObjectNode();
        node.put("name", descriptor.name());
        node.put("title", descriptor.metadata().title());
        node.put("summary", descriptor.summary());
        node.put("description", descriptor.description());
        node.set("parameters", descriptor.parameters().deepCopy());
        descriptor.returns().ifPresent(returns -> node.put("returns", returns));
        descriptor.usage().ifPresent(usage -> node.put("usage", usage));
        descriptor.metadata().namespace().ifPresent(namespace -> node.put("namespace", namespace));
        ArrayNode tags = node.putArray("tags");
        descriptor.metadata().tags().forEach(tags::add);
        node.put("read_only", descriptor.metadata().readOnly());
        node.put("audit_arguments", descriptor.metadata().auditArguments());
        if (!descriptor.metadata().extra().isEmpty()) {
            node.set("metadata", SnakeCaseJson.MAPPER.valueToTree(descriptor.metadata().extra()));
        }
        return node;
    }

    /** {@code {"type":"function","function":{"name","description","parameters"}}} for OpenAI-compatible APIs (and Ollama). */
    public static ObjectNode openAi(ToolDescriptor descriptor) {
        ObjectNode function = SnakeCaseJson.MAPPER.createObjectNode();
        function.put("name", descriptor.name());
        function.put("description", descriptor.description());
        function.set("parameters", descriptor.parameters().deepCopy());
        ObjectNode node = SnakeCaseJson.MAPPER.createObjectNode();
        node.put("type", "function");
        node.set("function", function);
        return node;
    }

    /** {@code {"name","description","input_schema"}} for Anthropic's API. */
    public static ObjectNode anthropic(ToolDescriptor descriptor) {
        ObjectNode node = SnakeCaseJson.MAPPER.createObjectNode();
        node.put("name", descriptor.name());
        node.put("description", descriptor.description());
        node.set("input_schema", descriptor.parameters().deepCopy());
        return node;
    }

    /** One of the forms above for every descriptor. */
    public static ArrayNode all(List<ToolDescriptor> descriptors, Format format) {
        ArrayNode array = SnakeCaseJson.MAPPER.createArrayNode();
        for (ToolDescriptor descriptor : descriptors) {
            array.add(switch (format) {
                case SHORT -> shortForm(descriptor);
                case FULL -> fullForm(descriptor);
                case OPENAI -> openAi(descriptor);
                case ANTHROPIC -> anthropic(descriptor);
            });
        }
        return array;
    }

    /** The available forms. */
    public enum Format {
        SHORT,
        FULL,
        OPENAI,
        ANTHROPIC
    }
}
