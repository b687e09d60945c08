package io.sqlagent.tool;

/**
 * A tool could not run now because something it needs is at capacity (a source's connections all
 * in use, its wait queue full) or out of reach (a source's server down, or gone mid-statement):
 * nothing about the call is wrong, and the same call may succeed a moment later. The executor turns it into a failure with
 * outcome {@link Outcome#UNAVAILABLE}; REST
 * answers it with 503 and {@code Retry-After}.
 */
public class ToolUnavailableException extends ToolException {

    public ToolUnavailableException(String message) {
        super(message);
    }
}
