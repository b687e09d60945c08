package io.sqlagent.agent.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * {@link ModelResilience} alone, on Mutiny streams standing for model calls: what is retried and what
 * never is, the waits, the breaker, the settings refused at start. The wire tests are in
 * {@code io.sqlagent.agent.ModelFaultsTest}.
 */
class ModelResilienceTest {

    private static ModelFaultsConfig config(int maxRetries, Duration initial, Duration max, double jitter, int threshold) {
        return new ModelFaultsConfig() {
            @Override
            public java.util.Optional<String> replayFile() {
                return java.util.Optional.empty();
            }

            @Override
            public Retry retry() {
                return new Retry() {
                    @Override
                    public int maxRetries() {
                        return maxRetries;
                    }

                    @Override
                    public Duration initialDelay() {
                        return initial;
                    }

                    @Override
                    public Duration maxDelay() {
                        return max;
                    }

                    @Override
                    public double jitter() {
                        return jitter;
                    }
                };
            }

            @Override
            public CircuitBreaker circuitBreaker() {
                return new CircuitBreaker() {
                    @Override
                    public boolean enabled() {
                        return true;
                    }

                    @Override
                    public int failureThreshold() {
                        return threshold;
                    }

                    @Override
                    public Duration openFor() {
                        return Duration.ofMinutes(1);
                    }
                };
            }
        };
    }

    private static ModelResilience resilience(int maxRetries, int threshold) {
        return new ModelResilience(config(maxRetries, Duration.ofMillis(1), Duration.ofSeconds(2), 0.5, threshold),
                new SimpleMeterRegistry());
    }

    private static ModelHttpFailure status(int status) {
        return new ModelHttpFailure(status, "status " + status, Optional.empty());
    }

    /** A model call that fails with {@code failures} (one per attempt) before it streams "answer". */
    private static Multi<String> calls(AtomicInteger attempts, Throwable... failures) {
        return Multi.createFrom().deferred(() -> {
            int attempt = attempts.getAndIncrement();
            return attempt < failures.length ? Multi.createFrom().failure(failures[attempt])
                    : Multi.createFrom().item("answer");
        });
    }

    @Test
    void failuresBeforeTheFirstPieceAreRetriedUntilTheModelAnswers() {
        AtomicInteger attempts = new AtomicInteger();

        List<String> items = resilience(3, 5)
                .protect("m", calls(attempts, status(503), new IOException("Connection reset"), status(429)))
                .collect().asList().await().atMost(Duration.ofSeconds(5));

        assertEquals(List.of("answer"), items);
        assertEquals(4, attempts.get());
    }

    @Test
    void aFailureAfterTheFirstPieceIsNeverRetried() {
        AtomicInteger attempts = new AtomicInteger();
        Multi<String> breaksMidAnswer = Multi.createFrom().deferred(() -> {
            attempts.incrementAndGet();
            return Multi.createBy().concatenating().streams(Multi.createFrom().item("half"),
                    Multi.createFrom().failure(new IOException("Connection reset")));
        });

        AssertSubscriber<String> subscriber = resilience(3, 5).protect("m", breaksMidAnswer)
                .subscribe().withSubscriber(AssertSubscriber.create(10));

        subscriber.awaitFailure(Duration.ofSeconds(5)).assertItems("half");
        assertInstanceOf(ModelResilience.ModelInterruptedException.class, subscriber.getFailure());
        assertEquals(1, attempts.get());
    }

    @Test
    void clientErrorsAndTimeoutsAreNotRetriedAndKeepTheirOwnFailure() {
        for (Throwable failure : List.of(status(400), status(401), new ModelTurn.ModelSilentException(Duration.ofSeconds(1)))) {
            AtomicInteger attempts = new AtomicInteger();
            Throwable ended = assertThrows(RuntimeException.class,
                    () -> resilience(3, 5).protect("m", calls(attempts, failure, failure)).collect().asList().await()
                            .atMost(Duration.ofSeconds(5)));
            assertEquals(failure, ended, failure.toString());
            assertEquals(1, attempts.get(), failure.toString());
        }
    }

    @Test
    void failuresAreToldApartByWhatTheyAre() {
        assertEquals(ModelResilience.Kind.RATE_LIMITED, ModelResilience.kind(new RuntimeException(status(429))));
        assertEquals(ModelResilience.Kind.SERVER_ERROR, ModelResilience.kind(status(503)));
        assertEquals(ModelResilience.Kind.OTHER, ModelResilience.kind(status(404)));
        assertEquals(ModelResilience.Kind.CONNECTION,
                ModelResilience.kind(new RuntimeException(new java.net.ConnectException("refused"))));
        assertEquals(ModelResilience.Kind.CONNECTION,
                ModelResilience.kind(new io.vertx.core.http.HttpClosedException("Connection was closed")));
        assertEquals(ModelResilience.Kind.TIMEOUT,
                ModelResilience.kind(new RuntimeException(new java.util.concurrent.TimeoutException())));
        assertEquals(ModelResilience.Kind.OTHER, ModelResilience.kind(new jakarta.ws.rs.ProcessingException(
                new com.fasterxml.jackson.core.JsonParseException(null, "Unexpected end-of-input"))));
    }

    @Test
    void whenTheRetriesRunOutTheFailureNamesTheModelAndTheRetries() {
        AtomicInteger attempts = new AtomicInteger();

        ModelResilience.ModelUnavailableException ended = assertThrows(ModelResilience.ModelUnavailableException.class,
                () -> resilience(2, 5).protect("gpt-test", calls(attempts, status(500), status(502), status(503))).collect()
                        .asList()
                        .await().atMost(Duration.ofSeconds(5)));

        assertEquals("model_unavailable", ended.code);
        assertEquals("The model gpt-test stayed unavailable: HTTP 503: status 503 (2 retries)", ended.getMessage());
        assertEquals(3, attempts.get());
    }

    @Test
    void cancellingDuringTheWaitBeforeARetryMakesNoFurtherCall() throws Exception {
        ModelResilience slow = new ModelResilience(config(3, Duration.ofMillis(500), Duration.ofSeconds(2), 0, 5),
                new SimpleMeterRegistry());
        AtomicInteger attempts = new AtomicInteger();
        Cancellable run = slow.protect("m", calls(attempts, status(503), status(503))).subscribe().with(item -> {
        }, failure -> {
        });

        Thread.sleep(100);
        run.cancel();
        Thread.sleep(800);

        assertEquals(1, attempts.get());
    }

    @Test
    void theBreakerOpensAfterFailedCallsInARowAndRefusesWithoutCalling() {
        ModelResilience resilience = resilience(0, 2);
        AtomicInteger attempts = new AtomicInteger();
        for (int call = 0; call < 2; call++) {
            assertThrows(ModelResilience.ModelUnavailableException.class,
                    () -> resilience.protect("m", Multi.createFrom().deferred(() -> {
                        attempts.incrementAndGet();
                        return Multi.createFrom().<String> failure(status(500));
                    })).collect().asList().await().atMost(Duration.ofSeconds(5)));
        }

        ModelResilience.ModelUnavailableException refused = assertThrows(ModelResilience.ModelUnavailableException.class,
                () -> resilience.protect("m", calls(attempts)).collect().asList().await().atMost(Duration.ofSeconds(5)));

        assertTrue(refused.getMessage().contains("circuit breaker is open"), refused.getMessage());
        assertEquals(2, attempts.get());
        // Another model has its own breaker.
        assertEquals(List.of("answer"), resilience.protect("other", calls(new AtomicInteger())).collect().asList().await()
                .atMost(Duration.ofSeconds(5)));
    }

    @Test
    void anOpenBreakerLetsOneTrialThroughAfterItsTimeAndItsSuccessClosesIt() {
        ModelResilience.Breaker breaker = new ModelResilience.Breaker();
        breaker.failure(0, 1, 100);

        assertTrue(!breaker.tryAcquire(50));
        assertTrue(breaker.tryAcquire(100));
        assertTrue(!breaker.tryAcquire(101), "a second trial while the first runs");
        breaker.success();
        assertTrue(breaker.tryAcquire(102) && breaker.tryAcquire(102));
    }

    @Test
    void backoffDoublesIsCappedAndItsJitterStaysWithinItsFraction() {
        ModelResilience resilience = new ModelResilience(config(5, Duration.ofMillis(100), Duration.ofMillis(350), 0.5, 5),
                new SimpleMeterRegistry());
        for (int i = 0; i < 200; i++) {
            long first = resilience.backoff(1).toMillis();
            long third = resilience.backoff(3).toMillis();
            assertTrue(first >= 50 && first <= 100, "first " + first);
            assertTrue(third >= 175 && third <= 350, "third " + third);
        }
    }

    @Test
    void retryAfterIsReadAsSecondsOrAnHttpDate() {
        Instant now = Instant.parse("2026-11-25T12:00:00Z");
        assertEquals(Optional.of(Duration.ofSeconds(7)), ModelHttpFailure.parseRetryAfter(" 7 ", now));
        assertEquals(Optional.of(Duration.ofSeconds(30)),
                ModelHttpFailure.parseRetryAfter("Wed, 25 Nov 2026 12:00:30 GMT", now));
        assertEquals(Optional.of(Duration.ZERO), ModelHttpFailure.parseRetryAfter("Wed, 25 Nov 2026 11:00:00 GMT", now));
        assertEquals(Optional.empty(), ModelHttpFailure.parseRetryAfter("soon", now));
        assertEquals(Optional.empty(), ModelHttpFailure.parseRetryAfter("-3", now));
        assertEquals(Optional.empty(), ModelHttpFailure.parseRetryAfter(null, now));
    }

    @Test
    void badSettingsAreRefusedNamingTheProperty() {
        assertEquals("sqlagent.model.retry.max-retries must be 0 to 20, was -1", assertThrows(IllegalArgumentException.class,
                () -> ModelResilience.validate(config(-1, Duration.ZERO, Duration.ZERO, 0, 1))).getMessage());
        assertEquals("sqlagent.model.retry.jitter must be 0 to 1, was 1.5", assertThrows(IllegalArgumentException.class,
                () -> ModelResilience.validate(config(1, Duration.ZERO, Duration.ZERO, 1.5, 1))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> ModelResilience.validate(config(1, Duration.ofSeconds(2), Duration.ofSeconds(1), 0, 1))).getMessage()
                .startsWith("sqlagent.model.retry.max-delay must be at least sqlagent.model.retry.initial-delay"));
        assertEquals("sqlagent.model.circuit-breaker.failure-threshold must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class,
                        () -> ModelResilience.validate(config(1, Duration.ZERO, Duration.ZERO, 0, 0))).getMessage());
    }
}
