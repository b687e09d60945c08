package io.sqlagent.sql.source;

import io.sqlagent.tool.ToolUnavailableException;

/**
 * A wait for one of a source's connections refused because the pool is at capacity (the wait queue full, or no
 * connection came free within the acquire timeout), not because the server is out of reach: readiness tells the two
 * apart ({@link Source#probe}).
 */
public class SourceBusyException extends ToolUnavailableException {

    public SourceBusyException(String message) {
        super(message);
    }
}
