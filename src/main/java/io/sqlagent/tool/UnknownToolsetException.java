package io.sqlagent.tool;

/**
 * A caller named toolsets the registry does not have; the message names every unknown one and the
 * known ones. Its own type so that callers turn exactly this, and no other argument problem, into
 * their "unknown toolset" answer.
 */
public class UnknownToolsetException extends IllegalArgumentException {

    public UnknownToolsetException(String message) {
        super(message);
    }
}
