package io.sqlagent.tool;

import io.smallrye.mutiny.Uni;

/**
 * Runs after every tool call that reached its tool or was refused, in ascending
 * {@link #priority()} order: may inspect the execution or replace its result (to redact output,
 * say). CDI beans implementing this are applied to every call.
 */
public interface AfterToolHook {

    /** Lower runs first. */
    default int priority() {
        return 0;
    }

    /** Returns the execution to pass on: {@code execution} itself or a copy with another result. */
    Uni<ToolExecution> after(ToolExecution execution);
}
