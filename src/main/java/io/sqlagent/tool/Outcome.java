package io.sqlagent.tool;

import java.util.Locale;

/** How a tool call ended; the {@code outcome} tag of the tool metrics and the audit log. */
public enum Outcome {
    /** The tool ran and returned a result. */
    SUCCESS,
    /** The tool ran and failed; the message says why. */
    FAILURE,
    /** The arguments did not match the schema; the tool did not run. */
    INVALID_ARGUMENTS,
    /** A hook or policy refused the call; the tool did not run. */
    BLOCKED,
    /** The caller lacks a scope the tool needs, or may not act as the database role it names; the tool did not run. */
    FORBIDDEN,
    /** No tool has the requested name. */
    UNKNOWN_TOOL,
    /** The call was not run because an earlier call of its batch was blocked. */
    SKIPPED,
    /**
     * Something the tool needs was at capacity (a source's pool) or out of reach (its server); the same call may succeed
     * shortly.
     */
    UNAVAILABLE,
    /** The tool asked to stop the whole agent run. */
    STOPPED;

    /** Lower-case name, as used in tags, JSON and the audit log. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
