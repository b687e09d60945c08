package io.sqlagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

class MutinyTimersTest {

    @Test
    void aCancelledTimeoutLeavesTheSchedulersQueueAtOnce() {
        // Given a scheduler like Mutiny's, made to drop cancelled tasks
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
        try {
            assertTrue(MutinyTimers.removeCancelled(scheduler));

            // When a thousand calls with an hour's timeout each end (here: are cancelled) long before it
            for (int i = 0; i < 1000; i++) {
                Cancellable call = Uni.createFrom().nothing().ifNoItem().after(Duration.ofHours(1)).on(scheduler).fail()
                        .subscribe().with(item -> {
                        }, failure -> {
                        });
                call.cancel();
            }

            // Then none of their timers is left waiting (each would hold its call for the hour)
            assertEquals(0, scheduler.getQueue().size());
        } finally {
            scheduler.shutdownNow();
        }
    }
}
