package io.sqlagent.tool;

import java.util.Optional;

/**
 * Who makes a call and on whose behalf: recorded in the audit log, checked against the tool's
 * scopes, and passed on to the database (its role, its application name).
 *
 * @param caller the channel: {@code rest}, {@code agent}, {@code mcp}, ...
 * @param conversationId the agent conversation the call belongs to, if any
 * @param identity the principal and its scopes
 */
public record ToolCallContext(String caller, Optional<String> conversationId, Caller identity) {

    /** A context of the service's own calls (and of tests): no conversation, nothing refused. */
    public static ToolCallContext of(String caller) {
        return new ToolCallContext(caller, Optional.empty(), Caller.service());
    }

    /** A context for {@code identity} with no conversation. */
    public static ToolCallContext of(String caller, Caller identity) {
        return new ToolCallContext(caller, Optional.empty(), identity);
    }

    /** The principal's name, as the audit log records it. */
    public Optional<String> principal() {
        return Optional.of(identity.name());
    }
}
