package io.sqlagent.tool;

/**
 * Thrown by a tool to end the whole agent run (not just the call). It is the one exception the
 * executor does not turn into a failure result: the call ends as {@link Outcome#STOPPED}, the rest
 * of its batch is skipped, and the agent loop stops.
 */
public class ToolStopException extends RuntimeException {

    public ToolStopException(String reason) {
        super(reason, null, false, false);
    }
}
