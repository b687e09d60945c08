package io.sqlagent;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

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
            Consumer<T> onItem = item -> {
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
            };
            Cancellable first = upstream.subscribe()
                    .withSubscriber(new LateItemSubscriber<>(cancelled, Infrastructure.decorate(onItem),
                            Infrastructure.decorate((Consumer<Throwable>) emitter::fail)));
            // Unless the item came at once and its work is what runs now.
            current.compareAndSet(null, first);
            if (cancelled.get()) {
                current.get().cancel();
            }
        });
    }

    /**
     * Passes on the item whenever it comes, even after a cancel. Not {@code subscribe().with(...)}: its
     * subscriber ignores an item that arrives after its cancel, and the two can cross (the cancel on the
     * caller's thread, the item on an event loop). An item lost that way was a pooled connection that
     * nobody closed: DisconnectChaosTest saw the pool's checked-out count stay up for good after a
     * thousand vanishing callers. The callbacks come decorated as {@code with(...)} decorates them
     * ({@link Infrastructure#decorate}), so they run in the subscriber's context (its trace, its request),
     * not in whatever context the event loop that delivers the item had last.
     */
    private static final class LateItemSubscriber<T> implements UniSubscriber<T>, Cancellable {

        private final AtomicBoolean cancelled;
        private final Consumer<T> onItem;
        private final Consumer<Throwable> onFailure;
        private final AtomicReference<UniSubscription> subscription = new AtomicReference<>();

        LateItemSubscriber(AtomicBoolean cancelled, Consumer<T> onItem, Consumer<Throwable> onFailure) {
            this.cancelled = cancelled;
            this.onItem = onItem;
            this.onFailure = onFailure;
        }

        @Override
        public void onSubscribe(UniSubscription upstream) {
            subscription.set(upstream);
            if (cancelled.get()) {
                upstream.cancel();
            }
        }

        @Override
        public void onItem(T item) {
            onItem.accept(item);
        }

        @Override
        public void onFailure(Throwable failure) {
            onFailure.accept(failure);
        }

        @Override
        public void cancel() {
            UniSubscription upstream = subscription.get();
            if (upstream != null) {
                upstream.cancel();
            }
        }
    }
}
