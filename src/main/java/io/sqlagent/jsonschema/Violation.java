package io.sqlagent.jsonschema;

/**
 * One way a tool call's arguments fail their schema, phrased so the model can correct the call.
 *
 * @param argument where the offending value is: {@code limit}, {@code filters.status},
 *        {@code ids[2]}, or {@code (root)} for the arguments object itself
 * @param problem a short sentence such as {@code must be at most 20 (got 50)}
 */
public record Violation(String argument, String problem) {

    @Override
    public String toString() {
        return argument + ": " + problem;
    }
}
