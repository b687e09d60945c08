package io.sqlagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.CallbackDecorator;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.smallrye.mutiny.subscription.UniSubscriber;

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

    /** A {@code Uni} whose item the test delivers itself, through the subscriber it keeps in {@code upstream}. */
    private static Uni<String> deliveredBy(AtomicReference<UniSubscriber<? super String>> upstream) {
        return new AbstractUni<>() {
            @Override
            public void subscribe(UniSubscriber<? super String> subscriber) {
                upstream.set(subscriber);
                subscriber.onSubscribe(() -> {
                });
            }
        };
    }

    @Test
    void anItemThatCrossesTheCancelIsHandedToDropped() {
        // Given an upstream whose item was already on its way when the cancel reached it (an event loop
        // handing over a pooled connection while the caller goes away on another thread)
        AtomicReference<UniSubscriber<? super String>> upstream = new AtomicReference<>();
        Uni<String> connection = deliveredBy(upstream);
        List<String> dropped = new ArrayList<>();
        List<String> used = new ArrayList<>();
        Cancellable call = CancelSafe.then(connection, c -> {
            used.add(c);
            return Uni.createFrom().item(c);
        }, dropped::add).subscribe().with(item -> {
        });

        // When the caller cancels and the item arrives after
        call.cancel();
        upstream.get().onItem("connection");

        // Then the item is handed back, not lost (a lost connection stayed checked out of the pool for good)
        assertEquals(List.of("connection"), dropped);
        assertEquals(List.of(), used);
    }

    /** A context the caller's thread holds, as a trace or a request is held in the service. */
    private static final ThreadLocal<String> CONTEXT = new ThreadLocal<>();

    /** Carries {@link #CONTEXT} into a callback, as SmallRye Context Propagation does for Mutiny in the service. */
    public static final class PropagatingDecorator implements CallbackDecorator {
        @Override
        public <T> Consumer<T> decorate(Consumer<T> consumer) {
            String captured = CONTEXT.get();
            return item -> {
                String before = CONTEXT.get();
                CONTEXT.set(captured);
                try {
                    consumer.accept(item);
                } finally {
                    CONTEXT.set(before);
                }
            };
        }
    }

    @Test
    void theWorkRunsInTheCallersContextNotInTheDeliveringThreads(@TempDir Path services) throws Exception {
        // Given Mutiny's callback decorators propagating a context (found by ServiceLoader, as in the service)
        Path file = services.resolve("META-INF/services/" + CallbackDecorator.class.getName());
        Files.createDirectories(file.getParent());
        Files.writeString(file, PropagatingDecorator.class.getName() + "\n");
        ClassLoader original = Thread.currentThread().getContextClassLoader();
        // Mutiny's reload cannot take decorators away again: it copies the new (empty) list into the old
        // array, which leaves a null in it and breaks every later Uni in this JVM. The array is put back as it was.
        Field decorators = Infrastructure.class.getDeclaredField("CALLBACK_DECORATORS");
        decorators.setAccessible(true);
        Object originalDecorators = decorators.get(null);
        try (URLClassLoader loader = new URLClassLoader(new URL[] { services.toUri().toURL() }, getClass().getClassLoader())) {
            Thread.currentThread().setContextClassLoader(loader);
            Infrastructure.reloadCallbackDecorators();
            AtomicReference<UniSubscriber<? super String>> upstream = new AtomicReference<>();
            Uni<String> connection = deliveredBy(upstream);
            AtomicReference<String> seen = new AtomicReference<>();
            CONTEXT.set("the caller's trace");
            CancelSafe.then(connection, c -> {
                seen.set(CONTEXT.get());
                return Uni.createFrom().item(c);
            }).subscribe().with(item -> {
            });

            // When the item is delivered by a thread that holds another context (an event loop's last one)
            Thread loop = new Thread(() -> {
                CONTEXT.set("another call's trace");
                upstream.get().onItem("connection");
            });
            loop.start();
            loop.join();

            // Then the work ran in the caller's context (without it, chats' log lines carried other calls' trace ids)
            assertEquals("the caller's trace", seen.get());
        } finally {
            CONTEXT.remove();
            Thread.currentThread().setContextClassLoader(original);
            decorators.set(null, originalDecorators);
        }
    }
}
