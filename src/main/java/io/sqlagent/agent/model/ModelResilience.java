package io.sqlagent.agent.model;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Model calls that survive a failing model server: a call that fails before its answer began to
 * stream with HTTP 429, HTTP 5xx or a connection failure is tried again after a backoff with
 * jitter (or the server's {@code Retry-After}, capped); a call that failed after its first piece
 * is never repeated, so a partial answer is never sent twice. Each model has a circuit breaker:
 * after {@code failure-threshold} calls in a row failed as unavailable, calls fail at once for
 * {@code open-for}, then one call tries. Metrics: {@code sqlagent_model_retries_total{reason}} and
 * {@code sqlagent_model_circuit_open{model}} (1 while a model's breaker is open).
 * <p>
 * Hand-written on Mutiny rather than SmallRye Fault Tolerance: its Mutiny support (6.10,
 * {@code UniSupport.toFuture}) subscribes to the guarded {@code Uni} and drops the subscription,
 * so cancelling a run (client gone, run timeout, answer cap) would leave the model's HTTP stream
 * running. Mutiny's retry re-subscribes and is cancelled with the run, delays included; the
 * breaker is the small {@link Breaker} below.
 */
@ApplicationScoped
@Startup // bad settings stop the start, not the first question
public class ModelResilience {

    /** What a failed model call was, for retries, the breaker and the error event. */
    enum Kind {
        /** HTTP 429: retried; the breaker does not count it (the server is up). */
        RATE_LIMITED("rate_limited"),
        /** HTTP 5xx: retried and counted. */
        SERVER_ERROR("server_error"),
        /** No HTTP answer: refused, reset, closed. Retried and counted. */
        CONNECTION("connection"),
        /** No answer in time: counted, not retried (it would only multiply the wait). */
        TIMEOUT("timeout"),
        /** Anything else (HTTP 4xx, an unreadable stream): the server answered; neither. */
        OTHER("other");

        final String reason;

        Kind(String reason) {
            this.reason = reason;
        }

        boolean retried() {
            return this == RATE_LIMITED || this == SERVER_ERROR || this == CONNECTION;
        }

        boolean unavailable() {
            return this == SERVER_ERROR || this == CONNECTION || this == TIMEOUT;
        }
    }

    private final ModelFaultsConfig.Retry retry;
    private final ModelFaultsConfig.CircuitBreaker breakerConfig;
    private final MeterRegistry meters;
    private final Map<String, Breaker> breakers = new ConcurrentHashMap<>();

    ModelResilience(ModelFaultsConfig config, MeterRegistry meters) {
        this.retry = config.retry();
        this.breakerConfig = config.circuitBreaker();
        this.meters = meters;
        validate(config);
    }

    static void validate(ModelFaultsConfig config) {
        ModelFaultsConfig.Retry retry = config.retry();
        require(retry.maxRetries() >= 0 && retry.maxRetries() <= 20, "sqlagent.model.retry.max-retries must be 0 to 20, was "
                + retry.maxRetries());
        require(!retry.initialDelay().isNegative(), "sqlagent.model.retry.initial-delay must not be negative, was "
                + retry.initialDelay());
        require(retry.maxDelay().compareTo(retry.initialDelay()) >= 0,
                "sqlagent.model.retry.max-delay must be at least sqlagent.model.retry.initial-delay, was " + retry.maxDelay());
        require(retry.jitter() >= 0 && retry.jitter() <= 1,
                "sqlagent.model.retry.jitter must be 0 to 1, was " + retry.jitter());
        ModelFaultsConfig.CircuitBreaker breaker = config.circuitBreaker();
        require(breaker.failureThreshold() >= 1, "sqlagent.model.circuit-breaker.failure-threshold must be at least 1, was "
                + breaker.failureThreshold());
        require(breaker.openFor().compareTo(Duration.ZERO) > 0, "sqlagent.model.circuit-breaker.open-for must be positive, was "
                + breaker.openFor());
    }

    private static void require(boolean valid, String message) {
        if (!valid) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * {@code attempt} (subscribed again for each retry) with retries before its first item and
     * the breaker of {@code model}; a failure that ends it is a {@link ModelUnavailableException}
     * when the model was unavailable or limiting, a {@link ModelInterruptedException} when its
     * connection broke after the first item, otherwise the attempt's own.
     */
    <T> Multi<T> protect(String model, Multi<T> attempt) {
        Breaker breaker = breakers.computeIfAbsent(model, this::newBreaker);
        return Multi.createFrom().deferred(() -> {
            if (breakerConfig.enabled() && !breaker.tryAcquire(System.nanoTime())) {
                return Multi.createFrom().failure(ModelUnavailableException.breakerOpen(model,
                        breakerConfig.failureThreshold(), breaker.remaining(System.nanoTime())));
            }
            return guarded(model, attempt, breaker);
        });
    }

    private <T> Multi<T> guarded(String model, Multi<T> attempt, Breaker breaker) {
        AtomicBoolean streamed = new AtomicBoolean();
        AtomicInteger retries = new AtomicInteger();
        return attempt
                .onItem().invoke(item -> {
                    if (streamed.compareAndSet(false, true)) {
                        breaker.success();
                    }
                })
                .onFailure().retry().when(failures -> failures.onItem()
                        .transformToUniAndConcatenate(failure -> nextTry(failure, streamed.get(), retries)))
                .onFailure().transform(failure -> ending(model, failure, streamed.get(), retries.get(), breaker))
                .onCancellation().invoke(breaker::release);
    }

    /** A wait and then a retry, or the failure when it is not retried. */
    private Uni<Object> nextTry(Throwable failure, boolean streamed, AtomicInteger retries) {
        Kind kind = kind(failure);
        if (streamed || !kind.retried() || retries.get() >= retry.maxRetries()) {
            return Uni.createFrom().failure(failure);
        }
        Optional<Duration> asked = retryAfter(failure);
        if (asked.isPresent() && asked.get().compareTo(retry.maxDelay()) > 0) {
            return Uni.createFrom().failure(new RetryAfterTooLong(failure, asked.get()));
        }
        int attempt = retries.incrementAndGet();
        Duration wait = asked.orElseGet(() -> backoff(attempt));
        Counter.builder("sqlagent.model.retries").description("Model calls tried again, by what failed")
                .tag("reason", kind.reason).register(meters).increment();
        Log.debugf("Model call failed (%s), retry %d in %d ms", kind.reason, attempt, wait.toMillis());
        return Uni.createFrom().item((Object) failure).onItem().delayIt().by(wait.isZero() ? Duration.ofMillis(1) : wait);
    }

    /** The backoff before retry {@code attempt} (1 for the first): doubling, capped, its jitter fraction random. */
    Duration backoff(int attempt) {
        long initial = retry.initialDelay().toMillis();
        long doubled = initial << Math.min(attempt - 1, 30);
        long capped = Math.min(doubled < 0 ? Long.MAX_VALUE : doubled, retry.maxDelay().toMillis());
        long jitter = (long) (capped * retry.jitter() * ThreadLocalRandom.current().nextDouble());
        return Duration.ofMillis(capped - jitter);
    }

    private Throwable ending(String model, Throwable failure, boolean streamed, int retries, Breaker breaker) {
        if (failure instanceof RetryAfterTooLong tooLong) {
            breaker.release();
            return ModelUnavailableException.waitTooLong(model, tooLong.getCause(), tooLong.asked, retry.maxDelay(), retries);
        }
        Kind kind = kind(failure);
        if (streamed) {
            return kind == Kind.CONNECTION ? new ModelInterruptedException(model, failure) : failure;
        }
        if (kind.unavailable()) {
            breaker.failure(System.nanoTime(), breakerConfig.failureThreshold(), breakerConfig.openFor().toNanos());
        } else {
            breaker.release();
        }
        if (kind == Kind.RATE_LIMITED || kind == Kind.SERVER_ERROR || kind == Kind.CONNECTION) {
            return ModelUnavailableException.gaveUp(model, kind, failure, retries);
        }
        return failure;
    }

    private Breaker newBreaker(String model) {
        Breaker breaker = new Breaker();
        Gauge.builder("sqlagent.model.circuit.open", breaker, b -> b.isOpen() ? 1 : 0)
                .description("1 while the model's circuit breaker refuses calls").tag("model", model).register(meters);
        return breaker;
    }

    /** Closes every breaker: tests that open one on purpose start the next from a closed breaker. */
    public void resetBreakers() {
        breakers.values().forEach(Breaker::success);
    }

    /** What {@code failure} says about the model server. */
    static Kind kind(Throwable failure) {
        if (ModelErrors.causedBy(failure, ModelTurn.ModelSilentException.class, TimeoutException.class,
                SocketTimeoutException.class, dev.langchain4j.exception.TimeoutException.class)) {
            return Kind.TIMEOUT;
        }
        Integer status = ModelErrors.status(failure);
        if (status != null) {
            return status == 429 ? Kind.RATE_LIMITED : status >= 500 ? Kind.SERVER_ERROR : Kind.OTHER;
        }
        // A body that could not be parsed is an IOException to Jackson, but no connection failure.
        if (ModelErrors.causedBy(failure, com.fasterxml.jackson.core.JacksonException.class)) {
            return Kind.OTHER;
        }
        if (ModelErrors.causedBy(failure, IOException.class, io.vertx.core.VertxException.class)) {
            return Kind.CONNECTION;
        }
        return Kind.OTHER;
    }

    private static Optional<Duration> retryAfter(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ModelHttpFailure http) {
                return http.retryAfter();
            }
        }
        return Optional.empty();
    }

    /** The model stayed unavailable or kept limiting this service (after retries), or its breaker is open. */
    static final class ModelUnavailableException extends RuntimeException {
        final String code;

        private ModelUnavailableException(String code, String message, Throwable cause) {
            super(message, cause, false, false);
            this.code = code;
        }

        static ModelUnavailableException gaveUp(String model, Kind kind, Throwable cause, int retries) {
            String what = switch (kind) {
                case RATE_LIMITED -> "kept refusing calls as rate limited";
                case CONNECTION -> "could not be reached";
                default -> "stayed unavailable";
            };
            Integer status = ModelErrors.status(cause);
            return new ModelUnavailableException(kind == Kind.RATE_LIMITED ? "model_rate_limited" : "model_unavailable",
                    "The model " + model + " " + what + ": " + (status == null ? "" : "HTTP " + status + ": ")
                            + ModelErrors.message(cause) + " (" + tries(retries) + ")",
                    cause);
        }

        static ModelUnavailableException waitTooLong(String model, Throwable cause, Duration asked, Duration max, int retries) {
            Integer status = ModelErrors.status(cause);
            return new ModelUnavailableException(status != null && status == 429 ? "model_rate_limited" : "model_unavailable",
                    "The model " + model + " answered HTTP " + status + " and asked to wait " + asked.toSeconds()
                            + " s, longer than sqlagent.model.retry.max-delay (" + max.toSeconds() + " s): "
                            + ModelErrors.message(cause) + " (" + tries(retries) + ")",
                    cause);
        }

        static ModelUnavailableException breakerOpen(String model, int threshold, Duration remaining) {
            return new ModelUnavailableException("model_unavailable", "The model " + model
                    + " is not called for now: its last " + threshold + " calls failed (HTTP 5xx, connection or timeout),"
                    + " so its circuit breaker is open; the next call goes through in " + Math.max(1, remaining.toSeconds())
                    + " s (0 retries)", null);
        }

        private static String tries(int retries) {
            return retries + (retries == 1 ? " retry" : " retries");
        }
    }

    /** The model's connection broke after its answer began to stream: not retried, so nothing is sent twice. */
    static final class ModelInterruptedException extends RuntimeException {
        ModelInterruptedException(String model, Throwable cause) {
            super("The model " + model + "'s stream broke after its answer began (" + ModelErrors.message(cause)
                    + "); it was not retried, so no part of the answer is repeated (0 retries)", cause, false, false);
        }
    }

    /** The server asked to wait longer than {@code max-delay}: not retried. */
    private static final class RetryAfterTooLong extends RuntimeException {
        final Duration asked;

        RetryAfterTooLong(Throwable cause, Duration asked) {
            super(cause.getMessage(), cause, false, false);
            this.asked = asked;
        }
    }

    /**
     * One model's circuit breaker: closed, open after {@code threshold} unavailable calls in a
     * row, half-open (one trial call) once {@code openFor} passed; the trial's success closes it,
     * its failure opens it again.
     */
    static final class Breaker {
        private int failures;
        private long openedAt;
        private long openFor;
        private boolean open;
        private boolean trial;

        synchronized boolean tryAcquire(long now) {
            if (!open) {
                return true;
            }
            if (!trial && now - openedAt >= openFor) {
                trial = true;
                return true;
            }
            return false;
        }

        synchronized void success() {
            failures = 0;
            open = false;
            trial = false;
        }

        synchronized void failure(long now, int threshold, long openForNanos) {
            failures++;
            if (trial || failures >= threshold) {
                open = true;
                trial = false;
                openedAt = now;
                openFor = openForNanos;
            }
        }

        /** The call ended saying nothing about the model (cancelled, or a client error): a trial may go again. */
        synchronized void release() {
            trial = false;
        }

        synchronized boolean isOpen() {
            return open;
        }

        synchronized Duration remaining(long now) {
            return Duration.ofNanos(Math.max(0, openFor - (now - openedAt)));
        }
    }
}
