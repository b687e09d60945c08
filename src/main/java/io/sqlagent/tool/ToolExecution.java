package io.sqlagent.tool;

import java.time.Duration;
import java.time.Instant;

/**
 * The record of one tool call: the call as run (after hooks), its result, when it started and how
 * long it took. The unit the executor returns, events carry and the audit log stores.
 *
 * @param call the call, as rewritten by before-hooks
 * @param context who called
 * @param result what it produced
 * @param startedAt when the executor took the call
 * @param duration how long the whole lifecycle took
 */
public record ToolExecution(ToolCall call, ToolCallContext context, ToolResult result, Instant startedAt, Duration duration) {

    public Outcome outcome() {
        return result.outcome();
    }

    /** The same execution with another result, for after-hooks that replace it. */
    public ToolExecution withResult(ToolResult newResult) {
        return new ToolExecution(call, context, newResult, startedAt, duration);
    }
}
