package io.sqlagent.tool;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * {@code flatMap} that never loses a cancellation. Mutiny's own {@code flatMap} drops a cancel that
 * arrives on one thread while the item arrives on another (the cancel finds no inner subscription
 * yet, the item then starts the inner {@code Uni} anyway): seen as a statement that ran to its
 * timeout for a caller that had gone a millisecond after asking, right as the guard's verdict came
 * back from its worker thread. Here the inner work is cancelled whichever side comes second.
 */
public final class CancelSafe {

    private CancelSafe() {
    }

    /** {@code upstream}, then {@code mapper}'s {@code Uni} of its item; cancelling the result cancels whichever runs. */
    public static <T, R> Uni<R> then(Uni<T> upstream, Function<? super T, Uni<? extends R>> mapper) {
        return then(upstream, mapper, item -> {
        });
    }

    /**
     * As {@link #then(Uni, Function)}; an item that arrives after the cancel goes to {@code dropped}
     * (a connection to close, say), since nothing else will see it.
     */
    public static <T, R> Uni<R> then(Uni<T> upstream, Function<? super T, Uni<? extends R>> mapper,
            Consumer<? super T> dropped) {
        return Uni.createFrom().<R> emitter(emitter -> {
            AtomicBoolean cancelled = new AtomicBoolean();
            AtomicReference<Cancellable> current = new AtomicReference<>();
            emitter.onTermination(() -> {
                cancelled.set(true);
                Cancellable running = current.get();
                if (running != null) {
                    running.cancel();
                }
            });
            Cancellable first = upstream.subscribe().with(item -> {
                if (cancelled.get()) {
                    dropped.accept(item);
                    return;
                }
                Uni<? extends R> next;
                try {
                    next = mapper.apply(item);
                } catch (RuntimeException e) {
                    emitter.fail(e);
                    return;
                }
                Cancellable inner = next.subscribe().with(emitter::complete, emitter::fail);
                current.set(inner);
                // The caller may have gone between the check above and now: then nobody else cancels it.
                if (cancelled.get()) {
                    inner.cancel();
                }
            }, emitter::fail);
            // Unless the item came at once and its work is what runs now.
            current.compareAndSet(null, first);
            if (cancelled.get()) {
                current.get().cancel();
            }
        });
    }
}
