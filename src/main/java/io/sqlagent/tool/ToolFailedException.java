package io.sqlagent.tool;

/**
 * Raised instead of returning a failure result when the executor runs in fail-fast mode; carries
 * the execution record of the call that failed.
 */
public class ToolFailedException extends RuntimeException {

    private final transient ToolExecution execution;

    public ToolFailedException(ToolExecution execution) {
        super("Tool '" + execution.call().name() + "' ended with " + execution.outcome().tag() + ": "
                + (execution.result() instanceof ToolResult.Failure failure ? failure.message() : ""), null, false, false);
        this.execution = execution;
    }

    public ToolExecution execution() {
        return execution;
    }
}
