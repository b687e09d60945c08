package io.sqlagent.agent.live;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.AgentEvent;

/**
 * A chat run in progress on this replica, apart from the connection that asked for it: it
 * numbers the run's events, hands each to the {@link RunJournal} (so a resumed stream on any
 * replica finds it) and to the client while one is connected. When the client's connection
 * drops, the run goes on for {@code sqlagent.chat.resume.detached-timeout}, and for as long as a
 * resumed stream reads it; then it is cancelled. The service's shutdown may stop it early.
 */
public final class LiveRun {

    static final String CLIENT_GONE = "client_gone";
    static final String CANCELLED = "cancelled";
    /** How often a run whose client went away looks in the store for a reader or a cancel. */
    private static final Duration WATCH_EVERY = Duration.ofSeconds(1);

    private final UUID runId;
    private final String principal;
    private final Multi<AgentEvent> events;
    private final Runnable started;
    private final RunJournal journal;
    private final Consumer<AgentEvent.Error> stop;
    private final Duration detachedTimeout;
    private final DetachedWatch watch;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();

    // Guarded by this.
    private int seq;
    private final List<RunEvent> early = new ArrayList<>();
    private MultiEmitter<? super RunEvent> client;
    private boolean attached;
    private boolean ended;
    private Cancellable upstream;
    private Cancellable watching;

    /** Asks whether a detached run is still read somewhere, or to be cancelled; the answer comes later. */
    interface DetachedWatch {
        Cancellable every(Duration period, Runnable check);

        void watch(UUID runId, Duration period, Consumer<RunEventStore.Watched> answer);
    }

    LiveRun(UUID runId, String principal, Multi<AgentEvent> events, Runnable started, RunJournal journal,
            Consumer<AgentEvent.Error> stop, Duration detachedTimeout, DetachedWatch watch) {
        this.events = events;
        this.started = started;
        this.runId = runId;
        this.principal = principal;
        this.journal = journal;
        this.stop = stop;
        this.detachedTimeout = detachedTimeout;
        this.watch = watch;
    }

    UUID runId() {
        return runId;
    }

    String principal() {
        return principal;
    }

    /** Starts the run by subscribing to its events: from now on it runs whether a client reads or not. */
    private void begin(Multi<AgentEvent> events) {
        Cancellable subscription = events.subscribe().with(
                first -> first.request(Long.MAX_VALUE),
                this::onEvent,
                failure -> {
                    Log.warnf(failure, "Run %s failed", runId);
                    onEvent(new AgentEvent.Error("internal_error", "The run ended unexpectedly; ask again"));
                    onEnd();
                },
                this::onEnd);
        synchronized (this) {
            upstream = subscription;
        }
    }

    /** The client's stream: the events so far that it has not had, then the live ones. One client at a time. */
    Multi<RunEvent> client() {
        return Multi.createFrom().<RunEvent> emitter(this::attach, BackPressureStrategy.BUFFER);
    }

    /** Completes when the run ended and its last event is stored (or could not be). */
    CompletableFuture<Void> finished() {
        return finished;
    }

    /** Ends the run now with {@code error} as its last event (the service is shutting down). */
    void stop(AgentEvent.Error error) {
        stop.accept(error);
    }

    private void attach(MultiEmitter<? super RunEvent> emitter) {
        boolean first;
        synchronized (this) {
            client = emitter;
            first = !attached;
            attached = true;
            early.forEach(emitter::emit);
            early.clear();
            if (ended) {
                emitter.complete();
                return;
            }
        }
        emitter.onTermination(() -> detach(emitter));
        if (first) {
            // Only now: a client that went away before its stream began never started a run (as before runs outlived clients).
            started.run();
            begin(events);
        }
    }

    private void onEvent(AgentEvent agentEvent) {
        RunEvent event;
        synchronized (this) {
            if (ended) {
                return;
            }
            event = new RunEvent(runId, ++seq, agentEvent.event(), json(agentEvent));
            if (client != null) {
                client.emit(event);
            } else if (!attached) {
                early.add(event);
            }
        }
        journal.add(event);
    }

    private void onEnd() {
        MultiEmitter<? super RunEvent> reader;
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            reader = client;
            if (watching != null) {
                watching.cancel();
            }
        }
        if (reader != null) {
            reader.complete();
        }
        journal.closed().whenComplete((ok, failure) -> finished.complete(null));
    }

    /** The client's stream ended: normally after the last event, or because the client went away. */
    private void detach(MultiEmitter<? super RunEvent> emitter) {
        synchronized (this) {
            if (client != emitter) {
                return;
            }
            client = null;
            if (ended) {
                return;
            }
        }
        if (detachedTimeout.isZero()) {
            cancel(CLIENT_GONE);
            return;
        }
        long detachedAt = System.nanoTime();
        Cancellable ticks = watch.every(WATCH_EVERY, () -> watch.watch(runId, detachedTimeout, watched -> {
            if (watched.cancelRequested()) {
                cancel(CANCELLED);
            } else if (!watched.readRecently()
                    && Duration.ofNanos(System.nanoTime() - detachedAt).compareTo(detachedTimeout) >= 0) {
                cancel(CLIENT_GONE);
            }
        }));
        synchronized (this) {
            if (ended) {
                ticks.cancel();
            } else {
                watching = ticks;
            }
        }
    }

    /**
     * Cancels the run: {@code cancelled} when its client asked ({@code DELETE /api/chat/runs/{id}}),
     * {@code client_gone} when nobody reads it any more. Its stored stream ends with an error saying so.
     * Whether it was cancelled (false: it had ended).
     */
    boolean cancel(String why) {
        Cancellable running;
        synchronized (this) {
            if (ended) {
                return false;
            }
            running = upstream;
        }
        Log.debugf("Run %s cancelled (%s)", runId, why);
        if (running != null) {
            running.cancel();
        }
        onEvent(new AgentEvent.Error(why, CANCELLED.equals(why) ? "The run was cancelled by its client"
                : "The run was cancelled: its client went away and did not come back within"
                        + " sqlagent.chat.resume.detached-timeout"));
        onEnd();
        return true;
    }

    private static String json(AgentEvent event) {
        try {
            return SnakeCaseJson.MAPPER.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            return "{\"code\":\"internal_error\",\"message\":\"an event could not be written\"}";
        }
    }
}
