package io.sqlagent.tool;

import java.time.Duration;

/**
 * How the executor treats a call or batch.
 *
 * @param failFast raise {@link ToolFailedException} instead of returning a failure result
 * @param stopOnBlock skip the rest of a batch after a blocked call
 * @param concurrent run consecutive read-only calls of a batch concurrently (other calls always run
 *        in order, one at a time)
 * @param timeout how long one tool may run before the call fails
 */
public record ExecutorOptions(boolean failFast, boolean stopOnBlock, boolean concurrent, Duration timeout) {

    /** Failures returned, batches run to the end, read-only calls concurrent, 60 s per call. */
    public static ExecutorOptions defaults() {
        return new ExecutorOptions(false, false, true, Duration.ofSeconds(60));
    }

    public ExecutorOptions withFailFast(boolean value) {
        return new ExecutorOptions(value, stopOnBlock, concurrent, timeout);
    }

    public ExecutorOptions withStopOnBlock(boolean value) {
        return new ExecutorOptions(failFast, value, concurrent, timeout);
    }

    public ExecutorOptions withConcurrent(boolean value) {
        return new ExecutorOptions(failFast, stopOnBlock, value, timeout);
    }

    public ExecutorOptions withTimeout(Duration value) {
        return new ExecutorOptions(failFast, stopOnBlock, concurrent, value);
    }
}
