package io.sqlagent.tool;

/**
 * The caller may not do what the call asks (its identity names a database role it is not allowed):
 * the call ends as {@link Outcome#FORBIDDEN}, a 403 over REST, like a call outside the caller's scopes.
 */
public class ToolForbiddenException extends ToolException {

    public ToolForbiddenException(String message) {
        super(message);
    }
}
