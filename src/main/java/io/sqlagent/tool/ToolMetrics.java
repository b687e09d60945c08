package io.sqlagent.tool;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Tool-call metrics: {@code sqlagent_tool_calls_total} (a counter) and
 * {@code sqlagent_tool_calls_duration_seconds} (a histogram, buckets in
 * {@link io.sqlagent.metrics.DurationHistograms}), both tagged by {@code tool}, {@code outcome} and
 * {@code caller}. Meters are looked up once per tag set and cached.
 */
@ApplicationScoped
public class ToolMetrics implements ToolCallListener {

    static final String CALLS = "sqlagent.tool.calls";
    static final String DURATION = "sqlagent.tool.calls.duration";

    private final MeterRegistry registry;
    private final ConcurrentHashMap<Key, Meters> meters = new ConcurrentHashMap<>();

    public ToolMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    private record Key(String tool, Outcome outcome, String caller) {
    }

    private record Meters(Counter calls, Timer duration) {
    }

    @Override
    public void completed(ToolExecution execution) {
        Key key = new Key(execution.call().name(), execution.outcome(), execution.context().caller());
        Meters forKey = meters.computeIfAbsent(key, this::register);
        forKey.calls().increment();
        forKey.duration().record(execution.duration().toNanos(), TimeUnit.NANOSECONDS);
    }

    private Meters register(Key key) {
        // Unknown tool names come from the caller: tag them all as one value to bound cardinality.
        String tool = key.outcome() == Outcome.UNKNOWN_TOOL ? "(unknown)" : key.tool();
        return new Meters(
                Counter.builder(CALLS).description("Tool calls, by tool, outcome and caller")
                        .tags("tool", tool, "outcome", key.outcome().tag(), "caller", key.caller())
                        .register(registry),
                Timer.builder(DURATION).description("Time from taking a tool call to its result")
                        .tags("tool", tool, "outcome", key.outcome().tag(), "caller", key.caller())
                        .register(registry));
    }
}
