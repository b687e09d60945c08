package io.sqlagent.agent.loop;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.util.RawValue;

import io.sqlagent.MessageText;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.AgentEvent;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.tool.ToolResult;

/**
 * The two views of a tool call's result: what the model reads (all of it) and the
 * {@code tool_result} event the client gets (cut to a length). Pure.
 */
public final class ToolResultViews {

    private ToolResultViews() {
    }

    /**
     * What the model reads: the result's JSON, or an error object it can act on. A success is its JSON as the tool
     * wrote it ({@link ToolResult.Success#json()}, the bytes REST and MCP answer with): run_sql's rows are written as
     * JSON while they are read, and building a tree of them to write it again cost a tree and a write per call.
     */
    static String forModel(ToolResult result) {
        if (result instanceof ToolResult.Success success) {
            return new String(success.json(), StandardCharsets.UTF_8);
        }
        ObjectNode error = SnakeCaseJson.MAPPER.createObjectNode();
        if (result instanceof ToolResult.Stopped stopped) {
            error.put("stopped", stopped.reason());
            return error.toString();
        }
        // The one error shape of the service (io.sqlagent.http.ErrorBody), as REST and MCP give it.
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
        return event(id, name, result, result instanceof ToolResult.Success ? forModel(result) : null, durationMs, max);
    }

    /**
     * The {@code tool_result} event of a result whose {@link #forModel} text is {@code forModel}: a success's value
     * goes into the event as that JSON text, unparsed (the event's JSON is the same, without reading it into a tree).
     */
    static AgentEvent.ToolResultEvent event(String id, String name, ToolResult result, String forModel, long durationMs,
            int max) {
        String outcome = outcomeName(result);
        if (result instanceof ToolResult.Success) {
            String text = forModel;
            if (text.length() <= max) {
                JsonNode value = JsonNodeFactory.instance.rawValueNode(new RawValue(text));
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
        return MessageText.cut(text, max);
    }
}
