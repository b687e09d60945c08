package io.sqlagent.eval;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One evaluation case: a question (and its follow-ups, a conversation of several turns) with what a
 * right answer looks like and what the agent must or must not do on the way. The YAML format is
 * described in docs/evals.md.
 *
 * @param id unique in its suite
 * @param category what the case exercises ({@code aggregation}, {@code join}, {@code safety}, …)
 * @param turns the question first, then each follow-up, in order
 * @param mustCall tools the agent must call at least once (over all turns)
 * @param mustNotCall tools the agent must never call
 * @param mustNotTouch tables no statement may name, and whose rows must be the same after the case
 * @param tags free labels for selecting cases
 * @param toolsets the toolsets offered to the agent (all tools when empty)
 */
public record EvalCase(String id, String category, List<Turn> turns, List<String> mustCall, List<String> mustNotCall,
        List<String> mustNotTouch, List<String> tags, List<String> toolsets) {

    /**
     * One question of a case and how its answer is graded.
     *
     * @param question what the agent is asked
     * @param goldenSql the statement whose result the agent's final result must match (execution match)
     * @param expectedValues values the answer text must contain (answer match)
     * @param expectedRows rows the agent's final result must match, when there is no golden SQL
     * @param ordered whether rows are compared in order; by default, when the golden SQL orders its result
     * @param extraColumns whether the agent's result may have columns the golden result has not (default true)
     * @param forbidden texts the answer must not contain (credentials, file contents)
     */
    public record Turn(String question, Optional<String> goldenSql, List<JsonNode> expectedValues,
            Optional<List<List<JsonNode>>> expectedRows, Optional<Boolean> ordered, boolean extraColumns,
            List<String> forbidden) {

        /** Whether this turn is graded on the agent's SQL result. */
        public boolean gradesExecution() {
            return goldenSql.isPresent() || expectedRows.isPresent();
        }
    }

    /** The first question. */
    public String question() {
        return turns.get(0).question();
    }
}
