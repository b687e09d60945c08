package io.sqlagent.tool;

/**
 * An expected failure of a tool, with a message meant for the model ("table 'x' does not exist;
 * tables are ..."). The executor turns it into a failure result carrying exactly that message.
 */
public class ToolException extends RuntimeException {

    public ToolException(String message) {
        super(message, null, false, false);
    }

    public ToolException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
