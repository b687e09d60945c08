package io.sqlagent.agent.model;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How model calls survive a model server that fails: retries before the answer begins to stream,
 * and a circuit breaker per model. Checked at start ({@link ModelResilience}): a bad value stops the
 * start with a message naming the property.
 */
@ConfigMapping(prefix = "sqlagent.model")
public interface ModelFaultsConfig {

    /**
     * A replay file of recorded model turns ({@code classpath:replay/chinook.yaml} is shipped: the Chinook
     * demo's and evaluation suite's questions), which answers when no model is configured (no OpenAI key
     * or base URL); a configured model always wins. Unset: no replay. A file path or
     * {@code classpath:<resource>}; a file that cannot be read stops the start, naming it.
     */
    Optional<String> replayFile();

    /** Retries of a model call that failed before its answer began to stream. */
    Retry retry();

    /** The circuit breaker of each model. */
    CircuitBreaker circuitBreaker();

    /** Retries of a model call that failed before its first streamed piece. */
    interface Retry {

        /**
         * Retries after the first attempt, for HTTP 429, HTTP 5xx and connection failures before
         * the answer began to stream (never after: a partial answer is never repeated); 0 turns
         * retries off.
         */
        @WithDefault("3")
        int maxRetries();

        /** The wait before the first retry; each further retry waits twice as long, up to {@link #maxDelay()}. */
        @WithDefault("500ms")
        Duration initialDelay();

        /**
         * The longest wait before one retry, the backoff's and the server's {@code Retry-After}
         * alike: a server asking for longer is not retried, and the run ends at once.
         */
        @WithDefault("30s")
        Duration maxDelay();

        /** The random part of each backoff wait, as a fraction of it (0 to 1): 0.5 waits between half and all of it. */
        @WithDefault("0.5")
        double jitter();
    }

    /**
     * The circuit breaker of each model: after {@link #failureThreshold()} model calls in a row
     * that failed as unavailable (after their retries), calls fail at once with
     * {@code model_unavailable} for {@link #openFor()}; then one call is let through, and its
     * success closes the breaker.
     */
    interface CircuitBreaker {

        /** Whether model calls go through a circuit breaker. */
        @WithDefault("true")
        boolean enabled();

        /** Model calls in a row that failed as unavailable (HTTP 5xx, connection, timeout) before the breaker opens. */
        @WithDefault("5")
        int failureThreshold();

        /** How long an open breaker refuses model calls before it lets one through to try. */
        @WithDefault("30s")
        Duration openFor();
    }
}
