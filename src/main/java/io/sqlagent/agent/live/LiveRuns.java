package io.sqlagent.agent.live;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.sqlagent.Caller;
import io.sqlagent.agent.AgentEvent;
import io.sqlagent.agent.loop.AgentService;

/**
 * The chat runs in progress on this replica, and their end when the service stops: on SIGTERM
 * ({@code quarkus.shutdown.delay-enabled} makes Quarkus announce it before anything closes) new
 * chats are refused and readiness goes DOWN, the running ones get
 * {@code sqlagent.shutdown.grace-period} to finish, then end with an {@code error} event
 * {@code shutting_down}; their last events are stored before the store's pool closes. Also prunes
 * stored runs older than {@code sqlagent.chat.resume.retention}.
 */
@ApplicationScoped
public class LiveRuns {

    static final String SHUTTING_DOWN = "shutting_down";
    /** How long stopped runs get to record their ending and store their last event. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);
    private static final Duration PRUNE_EVERY = Duration.ofMinutes(5);

    private final RunEventStore store;
    private final ResumeConfig resume;
    private final ShutdownConfig shutdown;
    private final Map<UUID, LiveRun> live = new ConcurrentHashMap<>();
    private volatile boolean draining;
    private volatile boolean drained;
    private Cancellable pruning;

    LiveRuns(RunEventStore store, ResumeConfig resume, ShutdownConfig shutdown) {
        this.store = store;
        this.resume = resume;
        this.shutdown = shutdown;
    }

    /** Whether the service is shutting down: new chats are refused. */
    public boolean draining() {
        return draining;
    }

    /** Runs in progress here now. */
    public int count() {
        return live.size();
    }

    /**
     * Begins the run {@code start} prepared, for {@code caller}, and returns the client's stream of its
     * numbered events. The run starts when that stream is subscribed to, and goes on when it is
     * cancelled (see {@link LiveRun}).
     */
    public Multi<RunEvent> begin(AgentService.Start start, Caller caller, Optional<UUID> conversationId) {
        RunJournal journal = new RunJournal(store, start.runId(), caller.name(), conversationId, resume);
        LiveRun[] run = new LiveRun[1];
        run[0] = new LiveRun(start.runId(), caller.name(), start.events(), () -> {
            live.put(start.runId(), run[0]);
            run[0].finished().whenComplete((ok, failure) -> live.remove(start.runId()));
        }, journal, start.stop(), resume.detachedTimeout(), watch());
        return run[0].client();
    }

    private LiveRun.DetachedWatch watch() {
        return new LiveRun.DetachedWatch() {
            @Override
            public Cancellable every(Duration period, Runnable check) {
                return Multi.createFrom().ticks().every(period).subscribe().with(tick -> check.run());
            }

            @Override
            public void watch(UUID runId, Duration period, Consumer<RunEventStore.Watched> answer) {
                // A store out of reach cannot say: the run goes on (its own timeout still bounds it).
                store.watch(runId, period).subscribe().with(answer::accept,
                        failure -> answer.accept(new RunEventStore.Watched(true, false)));
            }
        };
    }

    /** How a cancel request ended. */
    public enum Cancel {
        /** The run was cancelled here, or the replica running it was asked to. */
        CANCELLED,
        /** The run had already ended. */
        ENDED,
        /** No run of the caller has this id. */
        NOT_FOUND
    }

    /**
     * Cancels {@code principal}'s run: at once when it runs here, else through the store, where
     * the replica running it looks every second once its client is gone.
     */
    public Uni<Cancel> cancel(UUID runId, String principal) {
        LiveRun here = live.get(runId);
        if (here != null && here.principal().equals(principal)) {
            return Uni.createFrom().item(here.cancel(LiveRun.CANCELLED) ? Cancel.CANCELLED : Cancel.ENDED);
        }
        return store.requestCancel(runId, principal)
                .map(found -> found.map(ended -> ended ? Cancel.ENDED : Cancel.CANCELLED).orElse(Cancel.NOT_FOUND));
    }

    void startPruning(@Observes StartupEvent event) {
        Duration every = resume.retention().compareTo(PRUNE_EVERY) < 0 ? resume.retention() : PRUNE_EVERY;
        pruning = Multi.createFrom().ticks().startingAfter(Duration.ofSeconds(10)).every(every)
                .onItem().transformToUniAndConcatenate(tick -> store.prune(resume.retention())
                        .onFailure().recoverWithItem(0))
                .subscribe().with(count -> {
                    if (count > 0) {
                        Log.debugf("Pruned %d stored chat runs older than %s", count, resume.retention());
                    }
                });
    }

    /**
     * Quarkus' pre-shutdown phase: the HTTP server still serves, so readiness can say DOWN and clients get their last events.
     */
    void drainBeforeShutdown(@Observes ShutdownDelayInitiatedEvent event) {
        drain();
    }

    /** In case the pre-shutdown phase did not run; before the audit log's drain and the store's pool closing. */
    void drainAtShutdown(@Observes @Priority(100) ShutdownEvent event) {
        drain();
        if (pruning != null) {
            pruning.cancel();
        }
    }

    synchronized void drain() {
        if (drained) {
            return;
        }
        draining = true;
        long started = System.nanoTime();
        int running = live.size();
        if (running > 0) {
            Log.infof("Shutting down: %d chat run(s) in progress get up to %s to finish", running, shutdown.gracePeriod());
        }
        boolean finished = await(live.values(), shutdown.gracePeriod());
        if (!finished) {
            List<LiveRun> left = List.copyOf(live.values());
            Log.infof("Shutting down: %d chat run(s) still in progress after %s end with shutting_down", left.size(),
                    shutdown.gracePeriod());
            left.forEach(run -> run.stop(new AgentEvent.Error(SHUTTING_DOWN,
                    "The service is shutting down; ask again (another replica will answer)")));
            if (!await(live.values(), STOP_WAIT)) {
                Log.warnf("Shutting down: %d chat run(s) did not end in time", live.size());
            }
        } else if (running > 0) {
            Log.infof("Shutting down: the chat runs in progress finished in %d ms",
                    Duration.ofNanos(System.nanoTime() - started).toMillis());
        }
        drained = true;
    }

    /** Waits until every run in {@code runs} now has finished, or {@code atMost}; whether they all did. */
    private static boolean await(Collection<LiveRun> runs, Duration atMost) {
        CompletableFuture<?>[] all = runs.stream().map(LiveRun::finished).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(all).get(atMost.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return true;
        }
    }
}
