package io.sqlagent.agent.live;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness DOWN from the moment the service is asked to stop, while its running chats finish:
 * Kubernetes stops sending it new requests before it stops serving.
 */
@Readiness
@ApplicationScoped
public class ShutdownReadiness implements HealthCheck {

    static final String NAME = "sqlagent shutdown";

    private final LiveRuns runs;

    ShutdownReadiness(LiveRuns runs) {
        this.runs = runs;
    }

    @Override
    public HealthCheckResponse call() {
        if (runs.draining()) {
            return HealthCheckResponse.named(NAME).down().withData("shutting_down", true)
                    .withData("chat_runs_in_progress", runs.count()).build();
        }
        return HealthCheckResponse.named(NAME).up().build();
    }
}
