package io.sqlagent.agent.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Multi;

/**
 * The model's silence timeout as Mutiny runs it on the service's timers: restarted by every piece,
 * a long stream leaves no timeouts behind (the wire tests in {@code io.sqlagent.agent.AgentLimitsTest} show it firing).
 */
class ModelTurnTest {

    @Test
    void everyPieceRestartsTheTimeoutAndLeavesNoneQueued() {
        ScheduledThreadPoolExecutor timers = ModelTurn.newSilenceTimers();
        try {
            // 10,000 pieces, each cancelling its timeout of a minute and starting the next.
            AtomicInteger seen = new AtomicInteger();
            Multi.createFrom().range(0, 10_000)
                    .ifNoItem().after(Duration.ofMinutes(1)).on(timers).fail()
                    .onItem().invoke(piece -> {
                        if (piece == 9_999) {
                            assertTrue(timers.getQueue().size() <= 1, "queued: " + timers.getQueue().size());
                        }
                        seen.incrementAndGet();
                    })
                    .collect().last().await().atMost(Duration.ofSeconds(10));

            assertEquals(10_000, seen.get());
            assertEquals(0, timers.getQueue().size(), "a cancelled timeout stays queued");
        } finally {
            timers.shutdownNow();
        }
    }
}
