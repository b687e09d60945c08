package io.sqlagent.eval;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * A case's place in the report: whether it passed, every grade that applies with its reason, the
 * agent's final SQL and answer, and each turn's trajectory.
 *
 * @param passed every grade that applies passed (cost is reported, never failed)
 * @param sql the last turn's final SQL (null when it ran none)
 * @param answer the last turn's answer
 * @param hallucinations table and column names that did not exist but reached the database
 * @param writes write tools called successfully
 * @param skipped why the case did not run (the run's budget), null when it ran
 * @param turns per question: {@code {question, conversation_id, sql, answer, steps:[…]}}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CaseResult(String id, String category, boolean passed, Grades grades, String sql, String answer,
        List<String> hallucinations, List<String> writes, String skipped, JsonNode turns) {

    /** The grades of a case; a grader that does not apply is absent. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Grades(Grade execution, Grade answer, Grade trajectory, Grade judge, Grade cost) {

        boolean passed() {
            return (execution == null || execution.passed()) && (answer == null || answer.passed())
                    && (trajectory == null || trajectory.passed()) && (judge == null || judge.passed());
        }
    }

    static CaseResult of(EvalCase c, List<Transcript> turns, Grades grades, TrajectoryGrade.Figures figures) {
        ArrayNode details = JsonNodeFactory.instance.arrayNode();
        for (Transcript turn : turns) {
            var node = details.addObject().put("question", turn.question());
            turn.conversationId().ifPresent(id -> node.put("conversation_id", id));
            turn.finalSql().ifPresent(sql -> node.put("sql", sql));
            node.put("answer", turn.answer());
            turn.error().ifPresent(error -> node.put("error", error.code() + ": " + error.message()));
            ArrayNode steps = node.putArray("steps");
            for (Transcript.Step step : turn.steps()) {
                var s = steps.addObject().put("tool", step.tool()).put("ok", step.ok()).put("outcome", step.outcome());
                s.set("arguments", step.arguments());
                if (step.error() != null) {
                    s.put("error", step.error());
                }
                s.put("duration_ms", step.durationMs());
            }
        }
        Transcript last = turns.isEmpty() ? null : turns.get(turns.size() - 1);
        return new CaseResult(c.id(), c.category(), grades.passed(), grades, last == null ? null : last.finalSql().orElse(null),
                last == null ? null : last.answer(), figures.hallucinations(), figures.writes(), null, details);
    }

    /** A case the run's budget left out. */
    static CaseResult skipped(EvalCase c, String reason) {
        return new CaseResult(c.id(), c.category(), false, new Grades(null, null, null, null, null), null, null, List.of(),
                List.of(),
                reason, JsonNodeFactory.instance.arrayNode());
    }
}
