package io.sqlagent.tool;

import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One request to run a tool: what the model (or a REST or MCP caller) asked for.
 *
 * @param id the caller's id for the call (the model's tool-call id), used to pair results with calls
 * @param name the tool's name
 * @param arguments the arguments object, untrusted until validated
 */
public record ToolCall(String id, String name, ObjectNode arguments) {

    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }

    /** The same call with other arguments, for hooks that rewrite a call. */
    public ToolCall withArguments(ObjectNode newArguments) {
        return new ToolCall(id, name, newArguments);
    }
}
