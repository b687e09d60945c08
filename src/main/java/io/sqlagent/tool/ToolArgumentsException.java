package io.sqlagent.tool;

import java.util.List;

import io.sqlagent.jsonschema.Violation;

/**
 * Arguments the schema lets through but the tool cannot take (a bound the schema cannot state, such as metadata keys
 * per collection): the call ends as {@link Outcome#INVALID_ARGUMENTS} naming each problem, like a schema violation,
 * so callers see a 400 {@code invalid_arguments}.
 */
public class ToolArgumentsException extends ToolException {

    private final transient List<Violation> violations;

    public ToolArgumentsException(String message, List<Violation> violations) {
        super(message);
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}
