package io.sqlagent.tool;

import java.util.Optional;

/**
 * Who makes a call and on whose behalf: recorded in the audit log and available to hooks.
 *
 * @param caller the channel: {@code rest}, {@code agent}, {@code mcp}, ...
 * @param conversationId the agent conversation the call belongs to, if any
 * @param principal the authenticated user or client, if known
 */
public record ToolCallContext(String caller, Optional<String> conversationId, Optional<String> principal) {

    /** A context for a caller with no conversation and no known principal. */
    public static ToolCallContext of(String caller) {
        return new ToolCallContext(caller, Optional.empty(), Optional.empty());
    }
}
