package io.sqlagent.tool;

/**
 * Observes tool calls: notified when the executor takes a call and when it completes. Used for
 * metrics and the audit log. Listeners run on the caller's thread and must return at once.
 */
public interface ToolCallListener {

    /** The executor took {@code call}. */
    default void started(ToolCall call, ToolCallContext context) {
    }

    /** The call completed, however it ended. */
    void completed(ToolExecution execution);
}
