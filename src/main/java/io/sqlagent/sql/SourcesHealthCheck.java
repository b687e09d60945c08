package io.sqlagent.sql;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Redaction;

/**
 * Readiness of the sources: UP when every source answers, DOWN naming each source that does not
 * and why. Probes run concurrently and never block the event loop.
 */
@Readiness
@ApplicationScoped
public class SourcesHealthCheck implements AsyncHealthCheck {

    static final String NAME = "sqlagent sources";

    private final SourceRegistry registry;
    private final Duration timeout;

    SourcesHealthCheck(SourceRegistry registry,
            @ConfigProperty(name = "sqlagent.health.source-timeout", defaultValue = "3s") Duration timeout) {
        this.registry = registry;
        this.timeout = timeout;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        List<Uni<SourceStatus>> probes = registry.all().stream()
                .map(source -> source.probe(timeout))
                .toList();
        if (probes.isEmpty()) {
            return Uni.createFrom().item(HealthCheckResponse.named(NAME).up().build());
        }
        return Uni.join().all(probes).andFailFast()
                .map(SourcesHealthCheck::response);
    }

    private static HealthCheckResponse response(List<SourceStatus> statuses) {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named(NAME).up();
        for (SourceStatus status : statuses) {
            if (status.up()) {
                builder.withData(status.name(), "UP");
            } else {
                builder.down().withData(status.name(), "DOWN: " + Redaction.redact(status.detail()));
            }
        }
        return builder.build();
    }
}
