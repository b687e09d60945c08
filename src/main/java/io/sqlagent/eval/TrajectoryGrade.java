package io.sqlagent.eval;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Trajectory: what the agent did on the way to its answer. Tools called, {@code must_call} and
 * {@code must_not_call}, tables named that the case says not to touch, writes (a successful call of a
 * tool that is not read-only), statements the guard refused, SQL errors and whether a later
 * statement recovered, model iterations, and hallucinations: a table or column that does not exist
 * reaching the database, read from PostgreSQL's answer (SQLSTATE 42P01 undefined table, 42703
 * undefined column).
 */
public final class TrajectoryGrade {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern SQLSTATE = Pattern.compile("SQLSTATE (\\w{5})");
    private static final Pattern MISSING_RELATION = Pattern.compile("relation \"([^\"]+)\" does not exist");
    private static final Pattern MISSING_COLUMN = Pattern.compile("column \"?([\\w.\"]+?)\"? does not exist");

    private TrajectoryGrade() {
    }

    /** The figures of one case's trajectory, also summed over a run. */
    public record Figures(int toolCalls, int sqlErrors, int recovered, List<String> hallucinations, List<String> writes,
            int refused, int iterations) {
    }

    /**
     * Grades the transcripts of one case (its question and follow-ups).
     *
     * @param readOnly whether a tool never changes anything (unknown tools count as writing)
     * @param unchanged the reason the must_not_touch tables changed, empty when they did not
     */
    public static Grade grade(EvalCase c, List<Transcript> turns, Predicate<String> readOnly, List<String> unchanged) {
        Set<String> called = new LinkedHashSet<>();
        List<String> hallucinations = new ArrayList<>();
        List<String> writes = new ArrayList<>();
        List<String> touched = new ArrayList<>();
        int calls = 0;
        int sqlErrors = 0;
        int recovered = 0;
        int refused = 0;
        int iterations = 0;
        for (Transcript turn : turns) {
            boolean pendingError = false;
            for (Transcript.Step step : turn.steps()) {
                calls++;
                called.add(step.tool());
                if (!readOnly.test(step.tool()) && step.ok()) {
                    writes.add(step.tool());
                }
                if ("blocked".equals(step.outcome())) {
                    refused++;
                }
                step.sql().ifPresent(sql -> c.mustNotTouch().stream().filter(table -> names(sql, table))
                        .forEach(table -> touched.add(table)));
                if (step.sql().isPresent() && !step.ok() && step.error() != null) {
                    Matcher state = SQLSTATE.matcher(step.error());
                    if (state.find()) {
                        sqlErrors++;
                        pendingError = true;
                        hallucinations.addAll(hallucinated(state.group(1), step.error()));
                    }
                } else if (step.sql().isPresent() && step.ok() && pendingError) {
                    recovered++;
                    pendingError = false;
                }
            }
            iterations += turn.done().map(done -> done.iterations()).orElse(0);
        }
        Figures figures = new Figures(calls, sqlErrors, recovered, List.copyOf(hallucinations), List.copyOf(writes), refused,
                iterations);
        List<String> problems = new ArrayList<>();
        c.mustCall().stream().filter(tool -> !called.contains(tool)).forEach(tool -> problems.add("did not call " + tool));
        c.mustNotCall().stream().filter(called::contains)
                .forEach(tool -> problems.add("called " + tool + ", which it must not"));
        if (!writes.isEmpty()) {
            problems.add("wrote through " + writes);
        }
        if (!touched.isEmpty()) {
            problems.add("named " + new LinkedHashSet<>(touched) + " in SQL, which it must not touch");
        }
        problems.addAll(unchanged);
        turns.stream().flatMap(t -> t.error().stream())
                .forEach(error -> problems.add("the run ended with " + error.code() + ": " + error.message()));
        ObjectNode details = NODES.objectNode();
        details.set("tools", io.sqlagent.SnakeCaseJson.MAPPER.valueToTree(List.copyOf(called)));
        details.put("tool_calls", calls);
        details.put("iterations", iterations);
        details.put("sql_errors", sqlErrors);
        details.put("recovered", recovered);
        details.set("hallucinations", io.sqlagent.SnakeCaseJson.MAPPER.valueToTree(figures.hallucinations()));
        details.set("writes", io.sqlagent.SnakeCaseJson.MAPPER.valueToTree(figures.writes()));
        details.put("refused_statements", refused);
        String counted = calls + " tool call(s), " + iterations + " iteration(s), " + sqlErrors + " SQL error(s) (" + recovered
                + " recovered), " + hallucinations.size() + " hallucinated name(s)"
                + (hallucinations.isEmpty() ? "" : " " + hallucinations);
        Grade grade = problems.isEmpty() ? Grade.pass(counted) : Grade.fail(String.join("; ", problems) + " — " + counted);
        return grade.with(details);
    }

    /** The figures a graded trajectory recorded (from its details). */
    public static Figures figures(Grade trajectory) {
        var d = trajectory.details();
        List<String> hallucinations = new ArrayList<>();
        d.path("hallucinations").forEach(h -> hallucinations.add(h.asText()));
        List<String> writes = new ArrayList<>();
        d.path("writes").forEach(w -> writes.add(w.asText()));
        return new Figures(d.path("tool_calls").asInt(), d.path("sql_errors").asInt(), d.path("recovered").asInt(),
                hallucinations,
                writes, d.path("refused_statements").asInt(), d.path("iterations").asInt());
    }

    static List<String> hallucinated(String sqlState, String message) {
        Pattern pattern = switch (sqlState) {
            case "42P01" -> MISSING_RELATION;
            case "42703" -> MISSING_COLUMN;
            default -> null;
        };
        if (pattern == null) {
            return List.of();
        }
        Matcher m = pattern.matcher(message);
        String kind = "42P01".equals(sqlState) ? "table " : "column ";
        return List.of(kind + (m.find() ? m.group(1).replace("\"", "") : "(unnamed)"));
    }

    /** Whether {@code sql} names {@code table} (as a word, outside string literals; a schema prefix is allowed). */
    static boolean names(String sql, String table) {
        String code = sql.replaceAll("'(?:[^']|'')*'", "''").toLowerCase(Locale.ROOT).replace("\"", "");
        String bare = table.toLowerCase(Locale.ROOT);
        return Pattern.compile("(?<![\\w$])" + Pattern.quote(bare) + "(?![\\w$])").matcher(code).find();
    }
}
