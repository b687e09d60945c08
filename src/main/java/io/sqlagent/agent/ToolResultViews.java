package io.sqlagent.agent;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import io.sqlagent.Texts;
import io.sqlagent.rest.ErrorBody;
import io.sqlagent.tool.ToolJson;
import io.sqlagent.tool.ToolResult;

/**
 * The two views of a tool call's result: what the model reads (all of it) and the
 * {@code tool_result} event the client gets (cut to a length). Pure.
 */
final class ToolResultViews {

    private ToolResultViews() {
    }

    /** What the model reads: the result's JSON, or an error object it can act on. */
    static String forModel(ToolResult result) {
        if (result instanceof ToolResult.Success success) {
            return success.value() == null ? "null" : success.value().toString();
        }
        ObjectNode error = ToolJson.MAPPER.createObjectNode();
        if (result instanceof ToolResult.Stopped stopped) {
            error.put("stopped", stopped.reason());
            return error.toString();
        }
        // The one error shape of the service (io.sqlagent.rest.ErrorBody), as REST and MCP give it.
        return ErrorBody.toolFailure((ToolResult.Failure) result).toJson().toString();
    }

    /** The result's outcome as events and the store name it ({@code success}, {@code invalid_arguments}, ...). */
    static String outcomeName(ToolResult result) {
        return result.outcome().name().toLowerCase(Locale.ROOT);
    }

    /**
     * The {@code tool_result} event: the value on success, else the message; either cut to
     * {@code max} characters with {@code truncated} set when cut.
     */
    static AgentEvent.ToolResultEvent event(String id, String name, ToolResult result, long durationMs, int max) {
        String outcome = outcomeName(result);
        if (result instanceof ToolResult.Success success) {
            JsonNode value = success.value();
            String text = value == null ? "null" : value.toString();
            if (text.length() <= max) {
                return new AgentEvent.ToolResultEvent(id, name, true, durationMs, value, null, outcome, null);
            }
            return new AgentEvent.ToolResultEvent(id, name, true, durationMs, TextNode.valueOf(cut(text, max)), null, outcome,
                    true);
        }
        String message = result instanceof ToolResult.Stopped stopped ? stopped.reason()
                : ((ToolResult.Failure) result).message();
        boolean truncated = message.length() > max;
        return new AgentEvent.ToolResultEvent(id, name, false, durationMs, null, cut(message, max), outcome,
                truncated ? Boolean.TRUE : null);
    }

    static String cut(String text, int max) {
        return Texts.cut(text, max);
    }
}
