package io.sqlagent.sql.source;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Redaction;

/**
 * Readiness of the sources: UP when every source answers, DOWN naming each source that does not
 * and why; a source whose role may do more than read gets a {@code "<name> warning"} detail
 * ({@link SourceRoleCheck}) and stays UP, and so does a source whose connections are all in use while it serves
 * ({@code "UP, busy: …"}, see {@link Source#probe}). Probes run concurrently and never block the event loop.
 */
@Readiness
@ApplicationScoped
public class SourcesHealthCheck implements AsyncHealthCheck {

    static final String NAME = "sqlagent sources";

    private final SourceRegistry registry;
    private final SourceRoleCheck roles;
    private final Duration timeout;
    private final SourceUpGauges gauges;

    /** A source's status, and the warning about its role when it answers and may do more than read. */
    private record Probed(SourceStatus status, Optional<String> warning) {
    }

    SourcesHealthCheck(SourceRegistry registry, SourceRoleCheck roles, HealthConfig config, SourceUpGauges gauges) {
        this.registry = registry;
        this.roles = roles;
        this.timeout = config.sourceTimeout();
        this.gauges = gauges;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        List<Uni<Probed>> probes = registry.all().stream()
                .map(this::probe)
                .toList();
        if (probes.isEmpty()) {
            return Uni.createFrom().item(HealthCheckResponse.named(NAME).up().build());
        }
        return Uni.join().all(probes).andFailFast()
                .map(SourcesHealthCheck::response);
    }

    private Uni<Probed> probe(Source source) {
        return source.probe(timeout)
                .invoke(gauges::record)
                // A busy source's role is not checked: that would wait for a connection too.
                .flatMap(status -> status.up() && !status.busy()
                        ? roles.warning(source, timeout).map(warning -> new Probed(status, warning))
                        : Uni.createFrom().item(new Probed(status, Optional.empty())));
    }

    private static HealthCheckResponse response(List<Probed> probed) {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named(NAME).up();
        for (Probed each : probed) {
            SourceStatus status = each.status();
            if (status.busy()) {
                builder.withData(status.name(), "UP, " + status.detail());
            } else if (status.up()) {
                builder.withData(status.name(), "UP");
            } else {
                builder.down().withData(status.name(), "DOWN: " + Redaction.redact(status.detail()));
            }
            // A warning, not a failure: the source still answers, and the agent's SQL stays read-only.
            each.warning().ifPresent(warning -> builder.withData(status.name() + " warning", warning));
        }
        return builder.build();
    }
}
