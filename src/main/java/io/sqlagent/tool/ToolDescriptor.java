package io.sqlagent.tool;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Everything a caller or a model needs to know about a tool without running it. Building a
 * descriptor never builds the tool, so a registry can list and search tools cheaply.
 *
 * @param name unique name, {@code [A-Za-z][A-Za-z0-9_-]{0,63}} (what model APIs accept)
 * @param description what the tool does, as sent to the model
 * @param parameters JSON Schema of the arguments object
 * @param returns what a successful result looks like (prose or a JSON shape), if documented
 * @param usage notes on when and how to use the tool, if any
 * @param metadata title, tags, namespace, hints
 */
public record ToolDescriptor(String name, String description, ObjectNode parameters, Optional<String> returns,
        Optional<String> usage, ToolMetadata metadata) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,63}");

    public ToolDescriptor {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("Tool name '" + name
                    + "' is invalid: use 1-64 letters, digits, '_' or '-', starting with a letter");
        }
        if (description == null || description.isBlank()) {
            throw new IllegalArgumentException("Tool '" + name + "' needs a description for the model");
        }
        Objects.requireNonNull(parameters, "parameters");
        if (!"object".equals(parameters.path("type").asText())) {
            throw new IllegalArgumentException("Tool '" + name + "': the parameters schema must have type object");
        }
        Objects.requireNonNull(metadata, "metadata");
    }

    /** The first sentence of the description: the short form used in listings. */
    public String summary() {
        String text = description.strip();
        int end = text.length();
        for (int i = 0; i < text.length() - 1; i++) {
            char c = text.charAt(i);
            if ((c == '.' || c == '!' || c == '?') && Character.isWhitespace(text.charAt(i + 1))) {
                end = i + 1;
                break;
            }
            if (c == '\n') {
                end = i;
                break;
            }
        }
        return text.substring(0, end).strip();
    }

}
