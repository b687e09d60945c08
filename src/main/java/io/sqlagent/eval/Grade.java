package io.sqlagent.eval;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One grader's verdict on a case, with the reason a person can read and, where it helps, details
 * (the rows that differ, the tools called, the cost).
 *
 * @param passed whether the case passes this grader
 * @param reason why, in one sentence
 * @param details what the grader saw (may be null)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Grade(boolean passed, String reason, JsonNode details) {

    public static Grade pass(String reason) {
        return new Grade(true, reason, null);
    }

    public static Grade fail(String reason) {
        return new Grade(false, reason, null);
    }

    public Grade with(JsonNode newDetails) {
        return new Grade(passed, reason, newDetails);
    }
}
