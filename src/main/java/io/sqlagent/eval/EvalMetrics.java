package io.sqlagent.eval;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

/**
 * Prometheus gauges of the last finished run: {@code sqlagent_eval_accuracy{category}} (with
 * {@code category="all"}) and {@code sqlagent_eval_hallucinations}. A category the last run did not
 * have reads NaN; at most 50 categories get a series. {@code all} is there from the start, NaN until
 * a run has finished, so a dashboard or an alert on it finds the series on every replica.
 */
@Startup // built at start, not on first use, so that the series exists before any run (dashboards, alerts)
@ApplicationScoped
public class EvalMetrics {

    private static final int MAX_CATEGORIES = 50;
    /** The category of every case of a run. */
    private static final String ALL = "all";

    private final MeterRegistry registry;
    private final Map<String, Double> accuracy = new ConcurrentHashMap<>();
    private volatile double hallucinations = Double.NaN;
    /** The gauges this instance registered: removed when it goes, or a registry that outlives it keeps reading them. */
    private final List<Meter> registered = new CopyOnWriteArrayList<>();

    EvalMetrics(MeterRegistry registry) {
        this.registry = registry;
        registered.add(Gauge.builder("sqlagent.eval.hallucinations", this, metrics -> metrics.hallucinations)
                .description(
                        "Table and column names that did not exist but reached the database, in the last finished eval run")
                .register(registry));
        accuracy.put(ALL, Double.NaN);
        accuracyGauge(ALL);
    }

    void lastRun(Map<String, Double> byCategory, long hallucinated) {
        accuracy.keySet().forEach(category -> accuracy.put(category, Double.NaN));
        byCategory.forEach((category, value) -> {
            if (!accuracy.containsKey(category) && accuracy.size() >= MAX_CATEGORIES) {
                return; // an uploaded case list may name any categories: the number of series stays bounded
            }
            if (accuracy.put(category, value) == null) {
                accuracyGauge(category);
            }
        });
        hallucinations = hallucinated;
    }

    private void accuracyGauge(String category) {
        registered.add(Gauge.builder("sqlagent.eval.accuracy", accuracy, map -> map.getOrDefault(category, Double.NaN))
                .description("Share of cases passed in the last finished eval run, by category (all: every case)")
                .tag("category", category)
                .register(registry));
    }

    /**
     * Built at start, this instance registers its gauges before any run; a registry that outlives the
     * application (Micrometer's global one across restarts in one JVM, as in the tests) would otherwise
     * answer the next instance's registration with these gauges, which read this instance's NaN forever.
     */
    @PreDestroy
    void unregister() {
        registered.forEach(registry::remove);
    }
}
