package io.sqlagent.tool;

import io.smallrye.mutiny.Uni;

/**
 * Runs before every tool call, in ascending {@link #priority()} order: may let the call through,
 * rewrite it, or block it. A block is a result the caller sees (403 over REST, a message to the
 * model), never an exception. CDI beans implementing this are applied to every call.
 */
public interface BeforeToolHook {

    /** Lower runs first. */
    default int priority() {
        return 0;
    }

    /** Decides what happens to {@code call}; the descriptor is the called tool's. */
    Uni<Decision> before(ToolCall call, ToolDescriptor descriptor, ToolCallContext context);

    /** A hook's verdict on a call. */
    sealed interface Decision permits Proceed, Block {
    }

    /** Go on with {@code call} (the original or a rewritten one). */
    record Proceed(ToolCall call) implements Decision {
    }

    /** Refuse the call, for {@code reason}. */
    record Block(String reason) implements Decision {
    }

    static Uni<Decision> proceed(ToolCall call) {
        return Uni.createFrom().item(new Proceed(call));
    }

    static Uni<Decision> block(String reason) {
        return Uni.createFrom().item(new Block(reason));
    }
}
