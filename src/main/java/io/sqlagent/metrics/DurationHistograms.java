package io.sqlagent.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/**
 * Gives every duration the service records histogram buckets, so that Prometheus can compute
 * p95/p99 ({@code histogram_quantile(0.95, sum by (le) (rate(..._bucket[5m])))}): tool calls, agent
 * runs, SQL statements, model calls (quarkus-langchain4j's {@code gen_ai_client_operation_duration_seconds})
 * and any {@code sqlagent.*} timer added later. Quarkus applies every {@link MeterFilter} bean to its
 * registries; one filter keeps all bounds in one place, and also reaches the library's timer,
 * whose builder the service does not own.
 *
 * <p>
 * Fixed bounds rather than Micrometer's percentile histogram: a few buckets per series around
 * the range each duration lives in (well under one per series of the default 70-odd), which keeps
 * the scrape small with one series per tool, outcome and caller.
 */
@Singleton
public class DurationHistograms implements MeterFilter {

    /** The timer quarkus-langchain4j records around each model call. */
    static final String MODEL_CALLS = "gen_ai.client.operation.duration";

    /** From a cheap catalogue read to the statement timeout (30 s by default) and a little beyond. */
    static final List<Duration> STATEMENT = millis(1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000,
            60_000);
    /** Tool calls: statements plus validation, files and embeddings; up to a slow statement with margin. */
    static final List<Duration> TOOL = millis(1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000,
            120_000);
    /** One model response, streamed to its end: from a short answer to the model timeout (60 s) and beyond. */
    static final List<Duration> MODEL = millis(100, 250, 500, 1000, 2500, 5000, 10_000, 20_000, 30_000, 60_000, 120_000);
    /** A whole question: several model calls and tools, up to the run timeout (5 min). */
    static final List<Duration> RUN = millis(250, 500, 1000, 2500, 5000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000,
            600_000);

    private static final Map<String, List<Duration>> BUCKETS = Map.of(
            "sqlagent.sql.statement.duration", STATEMENT,
            "sqlagent.tool.calls.duration", TOOL,
            "sqlagent.agent.run.duration", RUN,
            MODEL_CALLS, MODEL);

    @Override
    public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        if (id.getType() != Meter.Type.TIMER) {
            return config;
        }
        List<Duration> bounds = BUCKETS.get(id.getName());
        if (bounds == null && id.getName().startsWith("sqlagent.")) {
            bounds = TOOL;
        }
        if (bounds == null) {
            return config;
        }
        // A timer's bucket bounds are given in nanoseconds; the registry writes them in seconds.
        double[] nanos = bounds.stream().mapToDouble(Duration::toNanos).toArray();
        return DistributionStatisticConfig.builder().serviceLevelObjectives(nanos).build().merge(config);
    }

    private static List<Duration> millis(double... values) {
        return java.util.Arrays.stream(values).mapToObj(ms -> Duration.ofNanos(Math.round(ms * 1_000_000))).toList();
    }
}
