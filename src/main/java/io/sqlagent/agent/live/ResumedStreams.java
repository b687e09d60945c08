package io.sqlagent.agent.live;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.sqlagent.agent.AgentConfig;

/**
 * A run's stream read back from the store, on whichever replica the client reconnects to: the
 * stored events after the client's last one, then, while the run goes on (here or on another
 * replica), new ones as they are stored, until its last event. The store is polled every
 * {@code sqlagent.chat.resume.poll-interval}: a few milliseconds later than the run's own
 * connection, with nothing to keep in step between replicas.
 */
@ApplicationScoped
public class ResumedStreams {

    /** Events read from the store at a time. */
    static final int PAGE = 200;
    static final String RUN_LOST = "run_lost";

    private final RunEventStore store;
    private final ResumeConfig config;
    private final AgentConfig agent;

    ResumedStreams(RunEventStore store, ResumeConfig config, AgentConfig agent) {
        this.store = store;
        this.config = config;
        this.agent = agent;
    }

    /** The run as stored, looked up for {@code principal}: empty when it does not exist or is another principal's. */
    public Uni<Optional<RunEventStore.StoredRun>> find(UUID runId, String principal) {
        return store.read(runId).map(found -> found.filter(run -> run.principal().equals(principal)));
    }

    /** The run's events after {@code seq}, then the live ones until its last. */
    public Multi<RunEvent> follow(UUID runId, int seq) {
        return Multi.createFrom().emitter(emitter -> new Follower(runId, seq, emitter).next(), BackPressureStrategy.BUFFER);
    }

    /** One resumed stream: reads a page, emits it, and reads again (at once, after a pause, or never). */
    private final class Follower {
        private final UUID runId;
        private final MultiEmitter<? super RunEvent> emitter;
        private volatile int seq;
        private volatile Cancellable pending;

        Follower(UUID runId, int seq, MultiEmitter<? super RunEvent> emitter) {
            this.runId = runId;
            this.seq = seq;
            this.emitter = emitter;
            emitter.onTermination(() -> {
                Cancellable current = pending;
                if (current != null) {
                    current.cancel();
                }
            });
        }

        void next() {
            if (emitter.isCancelled()) {
                return;
            }
            // The run's state first: when it says ended, every event is already stored.
            pending = store.read(runId)
                    .flatMap(run -> store.after(runId, seq, PAGE).map(events -> new Page(run, events)))
                    .subscribe().with(this::handle, emitter::fail);
        }

        private void handle(Page page) {
            for (RunEvent event : page.events()) {
                emitter.emit(event);
                seq = event.seq();
                if (event.last()) {
                    emitter.complete();
                    return;
                }
            }
            if (page.events().size() == PAGE) {
                next();
                return;
            }
            Optional<RunEventStore.StoredRun> run = page.run();
            if (run.isEmpty() || run.get().ended()) {
                // Pruned meanwhile, or ended without a stored last event: nothing more will come.
                emitter.complete();
                return;
            }
            if (lost(run.get().startedAt())) {
                emitter.emit(new RunEvent(runId, seq + 1, "error", "{\"code\":\"" + RUN_LOST + "\",\"message\":"
                        + "\"The run stopped without an end: the replica running it went away. Ask again.\"}"));
                emitter.complete();
                return;
            }
            pending = Uni.createFrom().voidItem().onItem().delayIt().by(config.pollInterval())
                    .subscribe().with(ok -> next());
        }

        /** Older than any run can be: the replica that ran it stopped before its end. */
        private boolean lost(OffsetDateTime startedAt) {
            Duration longest = agent.timeout().plus(config.detachedTimeout()).plusMinutes(1);
            return startedAt.toInstant().plus(longest).isBefore(java.time.Instant.now());
        }
    }

    private record Page(Optional<RunEventStore.StoredRun> run, List<RunEvent> events) {
    }
}
