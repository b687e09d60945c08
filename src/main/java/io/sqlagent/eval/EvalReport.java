package io.sqlagent.eval;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The report of a run, built from what the store holds:
 * {@code {"id","status","suite","model",…,"summary":{"total","passed","accuracy","by_category","hallucinations","tokens",…},"cases":[…]}}.
 * Accuracy is passed cases over the run's total (skipped cases count as not passed), to four decimals.
 */
public final class EvalReport {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private EvalReport() {
    }

    public static ObjectNode of(EvalStore.Run run, List<EvalStore.Stored> results) {
        ObjectNode report = NODES.objectNode();
        report.put("id", run.id().toString());
        report.put("status", run.status());
        report.put("suite", run.suite());
        report.put("model", run.model());
        report.put("started_at", run.startedAt().toString());
        if (run.finishedAt() != null) {
            report.put("finished_at", run.finishedAt().toString());
        }
        if (run.error() != null) {
            report.put("error", run.error());
        }
        report.set("settings", run.settings());
        report.set("summary", summary(run.total(), results));
        ArrayNode cases = report.putArray("cases");
        results.forEach(result -> cases.add(result.result()));
        return report;
    }

    /** The figures of a run: totals, accuracy overall and by category, hallucinations, tokens, cost. */
    public static ObjectNode summary(int total, List<EvalStore.Stored> results) {
        int passed = 0;
        int skipped = 0;
        long hallucinations = 0;
        long writes = 0;
        long input = 0;
        long output = 0;
        long calls = 0;
        long wall = 0;
        Map<String, int[]> byCategory = new TreeMap<>();
        for (EvalStore.Stored result : results) {
            JsonNode r = result.result();
            int[] counts = byCategory.computeIfAbsent(result.category(), c -> new int[2]);
            counts[0]++;
            if (result.passed()) {
                passed++;
                counts[1]++;
            }
            if (r.hasNonNull("skipped")) {
                skipped++;
            }
            hallucinations += r.path("hallucinations").size();
            writes += r.path("writes").size();
            JsonNode cost = r.path("grades").path("cost").path("details");
            input += cost.path("input_tokens").asLong();
            output += cost.path("output_tokens").asLong();
            calls += cost.path("model_calls").asLong();
            wall += cost.path("wall_ms").asLong();
        }
        ObjectNode summary = NODES.objectNode();
        summary.put("total", total);
        summary.put("completed", results.size());
        summary.put("passed", passed);
        summary.put("failed", results.size() - passed - skipped);
        summary.put("skipped", skipped);
        summary.put("accuracy", ratio(passed, total));
        ObjectNode categories = summary.putObject("by_category");
        byCategory.forEach((category, counts) -> categories.putObject(category).put("total", counts[0]).put("passed", counts[1])
                .put("accuracy", ratio(counts[1], counts[0])));
        summary.put("hallucinations", hallucinations);
        summary.put("writes", writes);
        summary.putObject("tokens").put("input", input).put("output", output).put("total", input + output);
        summary.put("model_calls", calls);
        summary.put("case_wall_ms", wall);
        return summary;
    }

    /** Accuracy by category (and {@code all}) from a summary, for the gauges. */
    public static Map<String, Double> accuracies(JsonNode summary) {
        Map<String, Double> accuracies = new LinkedHashMap<>();
        accuracies.put("all", summary.path("accuracy").asDouble());
        summary.path("by_category").fields()
                .forEachRemaining(e -> accuracies.put(e.getKey(), e.getValue().path("accuracy").asDouble()));
        return accuracies;
    }

    /**
     * How {@code run} differs from {@code baseline}: cases fixed (failed there, passed here), broken
     * (passed there, failed here), unchanged, and those only one of them has.
     */
    public static ObjectNode compare(EvalStore.Run run, List<EvalStore.Stored> results, EvalStore.Run baseline,
            List<EvalStore.Stored> baselineResults) {
        Map<String, Boolean> before = new LinkedHashMap<>();
        baselineResults.forEach(r -> before.put(r.caseId(), r.passed()));
        ObjectNode comparison = NODES.objectNode();
        comparison.put("run", run.id().toString());
        comparison.put("baseline", baseline.id().toString());
        ArrayNode fixed = comparison.putArray("fixed");
        ArrayNode broken = comparison.putArray("broken");
        ArrayNode unchanged = comparison.putArray("unchanged");
        ArrayNode added = comparison.putArray("only_in_run");
        for (EvalStore.Stored r : results) {
            Boolean was = before.remove(r.caseId());
            if (was == null) {
                added.add(r.caseId());
            } else if (!was && r.passed()) {
                fixed.add(r.caseId());
            } else if (was && !r.passed()) {
                broken.add(r.caseId());
            } else {
                unchanged.add(r.caseId());
            }
        }
        ArrayNode removed = comparison.putArray("only_in_baseline");
        before.keySet().forEach(removed::add);
        BigDecimal now = ratio(results.stream().filter(EvalStore.Stored::passed).count(), run.total());
        BigDecimal then = ratio(baselineResults.stream().filter(EvalStore.Stored::passed).count(), baseline.total());
        comparison.putObject("accuracy").put("run", now).put("baseline", then).put("change", now.subtract(then));
        return comparison;
    }

    static BigDecimal ratio(long part, long whole) {
        return whole == 0 ? BigDecimal.ZERO.setScale(4)
                : BigDecimal.valueOf(part).divide(BigDecimal.valueOf(whole), 4, RoundingMode.HALF_UP);
    }
}
