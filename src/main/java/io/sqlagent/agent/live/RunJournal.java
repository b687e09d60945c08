package io.sqlagent.agent.live;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;

/**
 * Writes one run's events to the store behind the run, never in its way: events wait at most
 * {@code sqlagent.chat.resume.flush-interval} and go in one batch; one write at a time, in order;
 * the final event is written at once, with the run's end. Past {@code max-events} only the final
 * event is kept. A store that cannot be reached costs the run nothing but its resumability.
 */
public final class RunJournal {

    private final RunEventStore store;
    private final UUID runId;
    private final int maxEvents;
    private final Duration flushInterval;
    private final Uni<Void> created;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    // Guarded by this.
    private final List<RunEvent> pending = new ArrayList<>();
    private int lastSeq;
    private boolean ended;
    private boolean writing;
    private boolean timerSet;
    private boolean warned;

    RunJournal(RunEventStore store, UUID runId, String principal, Optional<UUID> conversationId, ResumeConfig config) {
        this.store = store;
        this.runId = runId;
        this.maxEvents = config.maxEvents();
        this.flushInterval = config.flushInterval();
        // The run's row first (its events refer to it), once, whatever the events do meanwhile.
        this.created = store.create(runId, principal, conversationId).memoize().indefinitely();
        this.created.subscribe().with(ok -> {
        }, this::failed);
    }

    /** Adds the run's next event; the last one closes the journal once written. */
    void add(RunEvent event) {
        boolean now;
        synchronized (this) {
            if (ended) {
                return;
            }
            lastSeq = event.seq();
            if (event.seq() <= maxEvents || event.last()) {
                pending.add(event);
            }
            ended = event.last();
            now = ended && !writing;
            if (!now && !writing && !timerSet) {
                timerSet = true;
                Uni.createFrom().voidItem().onItem().delayIt().by(flushInterval).subscribe().with(ok -> write());
            }
        }
        if (now) {
            write();
        }
    }

    /** Completes when the last event is written (or could not be). */
    CompletableFuture<Void> closed() {
        return closed;
    }

    private void write() {
        List<RunEvent> batch;
        int seq;
        boolean end;
        synchronized (this) {
            timerSet = false;
            if (writing || (pending.isEmpty() && !ended) || closed.isDone()) {
                return;
            }
            writing = true;
            batch = List.copyOf(pending);
            pending.clear();
            seq = lastSeq;
            end = ended;
        }
        created.flatMap(ok -> store.append(runId, batch, seq, end))
                .subscribe().with(ok -> written(end), failure -> {
                    failed(failure);
                    written(end);
                });
    }

    private void written(boolean end) {
        boolean again;
        synchronized (this) {
            writing = false;
            again = !end && (ended || !pending.isEmpty());
        }
        if (end) {
            closed.complete(null);
        } else if (again) {
            write();
        }
    }

    private void failed(Throwable failure) {
        synchronized (this) {
            if (warned) {
                return;
            }
            warned = true;
        }
        Log.debugf("Events of run %s could not be stored (the run cannot be resumed): %s", runId, failure.getMessage());
    }
}
