package io.sqlagent.tool;

/**
 * A tool refused its input by policy (the SQL guard refusing a statement, a path outside the
 * allowed directories): the call ends as {@link Outcome#BLOCKED} with this message, like a hook's
 * block, so callers see a 403 and metrics count a refusal rather than a failure.
 */
public class ToolRefusedException extends ToolException {

    public ToolRefusedException(String message) {
        super(message);
    }
}
