package io.sqlagent.embedded;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Watches the embedded PostgreSQL while the application runs: when its postmaster dies (killed, crashed, out of
 * memory) readiness goes DOWN at once and the server is started again on the same data directory and port, so the
 * store's and sources' pools reconnect by themselves; readiness is UP again when it answers queries. What could not be
 * written meanwhile waits in memory ({@code sqlagent.audit.queue-capacity} for the audit log). Nothing is watched when
 * the store and sources are external servers.
 */
@Readiness
@ApplicationScoped
public class EmbeddedSupervisor implements HealthCheck {

    static final String NAME = "sqlagent embedded PostgreSQL";
    /** How long one restart may take before it is tried again from the start. */
    private static final Duration RESTART_WAIT = Duration.ofSeconds(25);

    private final AtomicReference<Instant> downSince = new AtomicReference<>();
    private volatile boolean stopping;
    private volatile int restarts;

    void started(@Observes StartupEvent event) {
        EmbeddedDatabase.current().ifPresent(running -> PostmasterStopper.postmaster(running.dataDirectory())
                .ifPresentOrElse(postmaster -> watch(running, postmaster),
                        () -> Log.warnf("The embedded PostgreSQL's postmaster is not found in %s: it is not supervised",
                                running.dataDirectory())));
    }

    /** The application stops: a postmaster stopping now is meant to ({@link PostmasterStopper}). */
    void stopped(@Observes ShutdownEvent event) {
        stopping = true;
    }

    private void watch(EmbeddedDatabase.Running running, ProcessHandle postmaster) {
        postmaster.onExit().thenRun(() -> died(running, postmaster.pid()));
    }

    private void died(EmbeddedDatabase.Running running, long pid) {
        if (stopping) {
            return;
        }
        downSince.set(Instant.now());
        Log.errorf("The embedded PostgreSQL (postmaster pid %d) died; starting it again on port %d (data: %s)", pid,
                running.port(), running.dataDirectory());
        Thread restarting = new Thread(() -> restart(running), "sqlagent-embedded-postgres-restart");
        restarting.setDaemon(true);
        restarting.start();
    }

    private void restart(EmbeddedDatabase.Running running) {
        while (!stopping) {
            try {
                ProcessHandle postmaster = PostmasterRestart.restart(running, RESTART_WAIT);
                restarts++;
                Instant since = downSince.getAndSet(null);
                Log.infof("The embedded PostgreSQL answers again (postmaster pid %d), %d ms after it died",
                        postmaster.pid(), since == null ? 0 : Duration.between(since, Instant.now()).toMillis());
                watch(running, postmaster);
                return;
            } catch (Exception e) {
                Log.errorf("The embedded PostgreSQL could not be started again, trying again: %s", e.getMessage());
            }
        }
    }

    @Override
    public HealthCheckResponse call() {
        Optional<Instant> since = Optional.ofNullable(downSince.get());
        if (since.isPresent()) {
            return HealthCheckResponse.named(NAME).down().withData("restarting", true)
                    .withData("down_since", since.get().toString()).build();
        }
        return HealthCheckResponse.named(NAME).up().withData("restarts", restarts).build();
    }
}
