package io.sqlagent.tool;

import java.util.Optional;

import io.opentelemetry.context.Context;
import io.sqlagent.Caller;

/**
 * Who makes a call and on whose behalf: recorded in the audit log, checked against the tool's
 * scopes, and passed on to the database (its role, its application name).
 *
 * @param caller the channel: {@code rest}, {@code agent}, {@code mcp}, ...
 * @param conversationId the agent conversation the call belongs to, if any
 * @param identity the principal and its scopes
 */
public record ToolCallContext(String caller, Optional<String> conversationId, Caller identity, Context trace) {

    /**
     * A context with no trace of its own yet: the {@link ToolExecutor} gives the tool one whose
     * {@link #trace} holds the call's span.
     */
    public ToolCallContext(String caller, Optional<String> conversationId, Caller identity) {
        this(caller, conversationId, identity, Context.root());
    }

    /**
     * This context, inside {@code trace}: what the tool starts on its behalf (a statement) is a child of the
     * span in it. Carried explicitly because a tool's steps hop threads, where the "current" span is not this one.
     */
    public ToolCallContext withTrace(Context trace) {
        return new ToolCallContext(caller, conversationId, identity, trace);
    }

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
