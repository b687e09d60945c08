package io.sqlagent.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The figures of a load run: throughput, end-to-end and added latency per question (end-to-end
 * minus the time the scripted model spent answering that run), the service's memory, GC and CPU,
 * and every failed run. Printed for a person and written as JSON.
 */
final class LoadReport {

    static final double ADDED_P99_GOAL_MS = 50;
    static final long HEAP_GOAL_BYTES = 512L * 1024 * 1024;

    /**
     * One question as the virtual user saw it.
     *
     * @param failure why the run failed, or null when it ended in {@code done} as expected
     */
    record RunResult(String question, String failure, long endToEndNanos, long modelNanos, int modelTurns) {

        boolean ok() {
            return failure == null;
        }

        long addedNanos() {
            return endToEndNanos - modelNanos;
        }
    }

    private final ChatLoadOptions options;
    private final List<RunResult> runs;
    private final List<RunResult> warmupFailures;
    private final ServiceSampler.Totals totals;
    private final long wallNanos;
    private final Map<String, String> machine;
    private final int peakModelCalls;

    LoadReport(ChatLoadOptions options, List<RunResult> runs, List<RunResult> warmupFailures, ServiceSampler.Totals totals,
            long wallNanos, Map<String, String> machine, int peakModelCalls) {
        this.peakModelCalls = peakModelCalls;
        this.options = options;
        this.runs = runs;
        this.warmupFailures = warmupFailures;
        this.totals = totals;
        this.wallNanos = wallNanos;
        this.machine = machine;
    }

    List<RunResult> failures() {
        return runs.stream().filter(run -> !run.ok()).toList();
    }

    ObjectNode json() {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        ObjectNode settings = root.putObject("options");
        settings.put("conversations", options.conversations()).put("questions", options.questions())
                .put("turn_latency_ms", options.turnLatency().toMillis()).put("heap", options.heap())
                .put("warmup_conversations", options.warmup()).put("ramp_ms", options.ramp().toMillis());
        options.serviceOptions().forEach(settings.putArray("service_options")::add);
        machine.forEach(root.putObject("machine")::put);
        List<RunResult> ok = runs.stream().filter(RunResult::ok).toList();
        double seconds = wallNanos / 1e9;
        long turns = ok.stream().mapToLong(RunResult::modelTurns).sum();
        root.putObject("throughput").put("wall_seconds", round(seconds)).put("questions", runs.size())
                .put("questions_ok", ok.size()).put("questions_per_second", round(ok.size() / seconds))
                .put("model_turns", turns).put("model_turns_per_second", round(turns / seconds))
                .put("peak_model_calls_in_flight", peakModelCalls);
        root.set("end_to_end_ms", percentiles(json, ok.stream().mapToLong(RunResult::endToEndNanos).toArray()));
        root.set("model_ms", percentiles(json, ok.stream().mapToLong(RunResult::modelNanos).toArray()));
        ObjectNode added = percentiles(json, ok.stream().mapToLong(RunResult::addedNanos).toArray());
        root.set("added_ms", added);
        ObjectNode service = root.putObject("service");
        service.put("peak_heap_used_mb", mb(totals.peakHeapUsed())).put("peak_live_data_mb", mb(totals.peakLiveData()))
                .put("peak_rss_mb", mb(totals.peakRss())).put("rss_high_water_mark_mb", mb(totals.rssHighWaterMark()))
                .put("heap_samples", totals.samples()).put("gc_pauses", (long) totals.gcPauses())
                .put("gc_pause_seconds", round(totals.gcPauseSeconds()))
                .put("allocated_mb", mb((long) totals.allocatedBytes()))
                .put("allocated_kb_per_question", ok.isEmpty() ? 0 : round(totals.allocatedBytes() / 1024 / ok.size()))
                .put("cpu_seconds", round(totals.serviceCpu()))
                .put("cpu_ms_per_question", ok.isEmpty() ? 0 : round(totals.serviceCpu() * 1000 / ok.size()));
        root.putObject("cpu_seconds").put("service", round(totals.serviceCpu())).put("postgres", round(totals.postgresCpu()))
                .put("driver_and_model", round(totals.driverCpu())).put("machine", round(totals.machineCpu()))
                .put("rest_of_machine",
                        round(totals.machineCpu() - totals.serviceCpu() - totals.postgresCpu() - totals.driverCpu()))
                .put("available", round(totals.seconds() * Runtime.getRuntime().availableProcessors()));
        ObjectNode errors = root.putObject("errors");
        errors.put("failed", failures().size()).put("warmup_failed", warmupFailures.size());
        causes(failures()).forEach(errors.putObject("by_cause")::put);
        failures().stream().limit(10).forEach(run -> errors.withArray("examples").add(run.question() + ": " + run.failure()));
        warmupFailures.stream().limit(5)
                .forEach(run -> errors.withArray("warmup_examples").add(run.question() + ": " + run.failure()));
        root.putObject("goals")
                .put("added_p99_under_50ms", !ok.isEmpty() && added.path("p99").asDouble() < ADDED_P99_GOAL_MS)
                .put("heap_under_512mb", totals.peakHeapUsed() > 0 && totals.peakHeapUsed() < HEAP_GOAL_BYTES)
                .put("all_runs_ok", failures().isEmpty() && warmupFailures.isEmpty());
        return root;
    }

    void write() throws IOException {
        ObjectNode root = json();
        Files.createDirectories(options.out().toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(options.out().toFile(), root);
        System.out.println(summary(root));
        System.out.println("JSON: " + options.out());
    }

    static String summary(ObjectNode root) {
        var t = root.path("throughput");
        var s = root.path("service");
        var c = root.path("cpu_seconds");
        var e = root.path("errors");
        var g = root.path("goals");
        return String.join("\n",
                "",
                String.format("conversations %d x %d questions, %d ms per model turn, heap %s",
                        root.at("/options/conversations").asInt(), root.at("/options/questions").asInt(),
                        root.at("/options/turn_latency_ms").asInt(), root.at("/options/heap").asText()),
                String.format(
                        "wall %.2f s: %.1f questions/s, %.1f model turns/s (%d of %d questions ok); at most %d model calls"
                                + " in flight",
                        t.path("wall_seconds").asDouble(), t.path("questions_per_second").asDouble(),
                        t.path("model_turns_per_second").asDouble(), t.path("questions_ok").asInt(),
                        t.path("questions").asInt(),
                        t.path("peak_model_calls_in_flight").asInt()),
                "end-to-end ms   " + line(root.path("end_to_end_ms")),
                "model ms        " + line(root.path("model_ms")),
                "added ms        " + line(root.path("added_ms")),
                String.format("heap used peak %.0f MB (live after GC %.0f MB), RSS peak %.0f MB (high-water mark %.0f MB)",
                        s.path("peak_heap_used_mb").asDouble(), s.path("peak_live_data_mb").asDouble(),
                        s.path("peak_rss_mb").asDouble(), s.path("rss_high_water_mark_mb").asDouble()),
                String.format("GC %d pauses, %.3f s; allocated %.0f MB (%.0f KB per question)", s.path("gc_pauses").asLong(),
                        s.path("gc_pause_seconds").asDouble(), s.path("allocated_mb").asDouble(),
                        s.path("allocated_kb_per_question").asDouble()),
                String.format(
                        "CPU s: service %.1f (%.1f ms per question), postgres %.1f, driver+model %.1f, rest of machine %.1f,"
                                + " of %.1f available",
                        c.path("service").asDouble(), s.path("cpu_ms_per_question").asDouble(),
                        c.path("postgres").asDouble(), c.path("driver_and_model").asDouble(),
                        c.path("rest_of_machine").asDouble(),
                        c.path("available").asDouble()),
                "errors: " + e.path("failed").asInt() + " failed, " + e.path("warmup_failed").asInt() + " in warm-up "
                        + e.path("by_cause") + (e.has("examples") ? " e.g. " + e.path("examples").get(0).asText() : ""),
                String.format("goals: added p99 < 50 ms %s, heap < 512 MB %s",
                        met(g.path("added_p99_under_50ms").asBoolean()), met(g.path("heap_under_512mb").asBoolean())));
    }

    private static String met(boolean met) {
        return met ? "MET" : "NOT MET";
    }

    private static String line(JsonNode p) {
        return String.format("p50 %7.1f  p90 %7.1f  p99 %7.1f  max %7.1f  mean %7.1f", p.path("p50").asDouble(),
                p.path("p90").asDouble(), p.path("p99").asDouble(), p.path("max").asDouble(), p.path("mean").asDouble());
    }

    /** Failures by their cause's first words ("error event model_error", "stream ended before done", ...). */
    private static Map<String, Integer> causes(List<RunResult> failed) {
        return failed.stream().collect(Collectors.groupingBy(run -> run.failure().split(":")[0], TreeMap::new,
                Collectors.summingInt(run -> 1)));
    }

    /** Nearest-rank percentiles of nanosecond values, in milliseconds. */
    static ObjectNode percentiles(ObjectMapper json, long[] nanos) {
        ObjectNode node = json.createObjectNode();
        if (nanos.length == 0) {
            return node;
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        node.put("p50", ms(rank(sorted, 0.50))).put("p90", ms(rank(sorted, 0.90))).put("p99", ms(rank(sorted, 0.99)))
                .put("max", ms(sorted[sorted.length - 1])).put("min", ms(sorted[0]))
                .put("mean", round(Arrays.stream(sorted).average().orElse(0) / 1e6));
        return node;
    }

    private static long rank(long[] sorted, double p) {
        return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
    }

    private static double ms(long nanos) {
        return round(nanos / 1e6);
    }

    private static double mb(long bytes) {
        return round(bytes / 1024.0 / 1024.0);
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
