package io.sqlagent.sql.source;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * Each source's readiness as the gauge {@code sqlagent_source_up{source}}: 1 when its last probe
 * answered, 0 when it did not. Probes run every {@code sqlagent.health.probe-interval} (and with
 * every readiness check), so the gauge follows a source that goes down between Kubernetes' probes
 * and also where nothing probes readiness. The source tag is bounded by the configured and declared
 * sources; a gauge of a source no longer declared reads 0 rather than vanishing mid-series.
 */
@ApplicationScoped
@Startup // the gauges exist and the first probe runs at start, before the first scrape
public class SourceUpGauges {

    static final String METRIC = "sqlagent.source.up";

    private final SourceRegistry registry;
    private final MeterRegistry meters;
    private final Vertx vertx;
    private final HealthConfig config;
    private final Map<String, AtomicInteger> up = new ConcurrentHashMap<>();
    private final long timerId;

    SourceUpGauges(SourceRegistry registry, MeterRegistry meters, Vertx vertx, HealthConfig config) {
        this.registry = registry;
        this.meters = meters;
        this.vertx = vertx;
        this.config = config;
        probeAll();
        this.timerId = vertx.setPeriodic(config.probeInterval().toMillis(), id -> probeAll());
    }

    /** Records the outcome of a probe, whoever ran it. */
    void record(SourceStatus status) {
        up.computeIfAbsent(status.name(), this::register).set(status.up() ? 1 : 0);
    }

    private void probeAll() {
        for (Source source : registry.all()) {
            source.probe(config.sourceTimeout())
                    .onFailure().recoverWithUni(failure -> Uni.createFrom()
                            .item(SourceStatus.down(source.name(), source.displayUrl(), String.valueOf(failure))))
                    .subscribe().with(this::record);
        }
    }

    private AtomicInteger register(String name) {
        AtomicInteger value = new AtomicInteger();
        Gauge.builder(METRIC, value, AtomicInteger::get)
                .description("Whether the source answered its last probe (1) or not (0)")
                .tag("source", name)
                .register(meters);
        return value;
    }

    @PreDestroy
    void stop() {
        vertx.cancelTimer(timerId);
    }
}
