package io.sqlagent.tool;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.SnakeCaseJson;

/**
 * A tool's value whose JSON is already written (a SQL result, written while its rows were read): a
 * {@link ToolResult.Success} of it answers REST, MCP and the audit log with these bytes, and builds the
 * tree only for a reader that asks for it (the agent, MCP's structured content).
 */
public interface WrittenJson {

    /** The value as UTF-8 JSON, as {@link SnakeCaseJson#MAPPER} writes {@link #tree()}; callers must not change the array. */
    byte[] json();

    /** The value as a tree; a new one on every call. */
    JsonNode tree();
}
