package io.sqlagent.eval;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.MultiEmitter;

/**
 * The progress events of one run on this replica: every event so far is replayed to a client that
 * connects late, then the new ones follow, and the stream ends with the run. Written by hand because
 * Mutiny's BroadcastProcessor forgets what was sent before a subscriber arrived, and a run has at
 * most a few thousand small events.
 */
public final class RunProgress {

    /** One progress event: its SSE name and data. */
    public record Event(String name, ObjectNode data) {
    }

    private final List<Event> history = new ArrayList<>();
    private final List<MultiEmitter<? super Event>> listeners = new ArrayList<>();
    private boolean ended;

    synchronized void publish(Event event) {
        history.add(event);
        // A copy: a listener that cancels while it is handed the event removes itself from the list
        // (onTermination below) on this same thread, which would break a loop over the list itself.
        List.copyOf(listeners).forEach(listener -> listener.emit(event));
    }

    synchronized void end() {
        ended = true;
        // Completing a listener runs its onTermination, which removes it from the list: loop over a copy
        // so that every watcher is completed, not only the first.
        List<MultiEmitter<? super Event>> watching = List.copyOf(listeners);
        listeners.clear();
        watching.forEach(MultiEmitter::complete);
    }

    synchronized boolean ended() {
        return ended;
    }

    Multi<Event> events() {
        return Multi.createFrom().emitter(emitter -> {
            synchronized (this) {
                history.forEach(emitter::emit);
                if (ended) {
                    emitter.complete();
                    return;
                }
                listeners.add(emitter);
            }
            emitter.onTermination(() -> {
                synchronized (this) {
                    listeners.remove(emitter);
                }
            });
        });
    }
}
