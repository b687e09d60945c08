package io.sqlagent.tool;

import io.smallrye.mutiny.Uni;

/**
 * The contract every tool meets, whoever calls it (the agent loop, REST, MCP): a descriptor and an
 * asynchronous invocation. Callers never invoke a tool directly; they go through
 * {@link ToolExecutor}, which validates arguments, runs hooks, and records metrics and audit.
 *
 * <p>
 * {@code invoke} receives arguments that already match the descriptor's schema. It returns a
 * result, or fails: a {@link ToolException} becomes a failure with its message, any other
 * exception a generic failure, and a {@link ToolStopException} ends the agent run. It must not
 * block the calling thread; blocking work moves to a worker pool.
 */
public interface Tool {

    /** Name, description, argument schema and metadata. */
    ToolDescriptor descriptor();

    /** Runs the tool with validated arguments. */
    Uni<ToolResult> invoke(ToolCall call, ToolCallContext context);
}
