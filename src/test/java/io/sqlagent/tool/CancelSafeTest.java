package io.sqlagent.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniEmitter;

/** A cancel is never lost between an item and the work it starts, whichever comes first. */
class CancelSafeTest {

    /** A Uni whose item the test hands over when it likes. */
    private static final class Handed<T> {
        final AtomicReference<UniEmitter<? super T>> emitter = new AtomicReference<>();
        final Uni<T> uni = Uni.createFrom().<T> emitter(e -> emitter.set(e));
    }

    @Test
    void theWorkOfTheItemRunsAndItsResultComesThrough() {
        String result = CancelSafe.then(Uni.createFrom().item(2), n -> Uni.createFrom().item("got " + n))
                .await().atMost(Duration.ofSeconds(1));

        assertEquals("got 2", result);
    }

    @Test
    void aCancelRacingTheItemNeverLeavesWorkRunning() throws Exception {
        // Mutiny's own flatMap leaves the work running in some of these races; CancelSafe in none.
        int leftRunning = 0;
        for (int round = 0; round < 3000; round++) {
            Handed<String> connection = new Handed<>();
            AtomicBoolean started = new AtomicBoolean();
            AtomicBoolean workCancelled = new AtomicBoolean();
            List<String> dropped = java.util.Collections.synchronizedList(new ArrayList<>());
            Cancellable call = CancelSafe.then(connection.uni, c -> {
                started.set(true);
                return Uni.createFrom().<String> nothing().onCancellation().invoke(() -> workCancelled.set(true));
            }, dropped::add).subscribe().with(item -> {
            });
            java.util.concurrent.CyclicBarrier both = new java.util.concurrent.CyclicBarrier(2);
            Thread item = new Thread(() -> {
                await(both);
                connection.emitter.get().complete("connection");
            });
            item.start();
            await(both);
            call.cancel();
            item.join();
            if (started.get() && !workCancelled.get()) {
                leftRunning++;
            }
        }
        assertEquals(0, leftRunning);
    }

    private static void await(java.util.concurrent.CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aCancelAfterTheWorkStartedCancelsTheWork() {
        Handed<String> statement = new Handed<>();
        AtomicBoolean workCancelled = new AtomicBoolean();
        Cancellable call = CancelSafe.then(Uni.createFrom().item("connection"),
                c -> statement.uni.onCancellation().invoke(() -> workCancelled.set(true))).subscribe().with(item -> {
                });

        call.cancel();

        assertTrue(workCancelled.get());
    }
}
