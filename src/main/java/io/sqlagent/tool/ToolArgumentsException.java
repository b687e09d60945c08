package io.sqlagent.tool;

import java.util.ArrayList;
import java.util.List;

import io.sqlagent.StorableText;
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

    /**
     * Refuses a call of {@code tool} that would store a value PostgreSQL's {@code text} cannot hold (a NUL character, half
     * a surrogate pair): {@code namesAndValues} is each argument's name followed by its text, or by a list of texts
     * ({@code null}s are skipped), in the order the problems are to be named. A tool that saves what it is given (a learning, a
     * validated query) calls this before it writes anything.
     */
    public static void requireStorable(String tool, Object... namesAndValues) {
        List<Violation> violations = new ArrayList<>();
        for (int n = 0; n + 1 < namesAndValues.length; n += 2) {
            String argument = (String) namesAndValues[n];
            Object value = namesAndValues[n + 1];
            if (value instanceof List<?> texts) {
                for (int i = 0; i < texts.size(); i++) {
                    if (texts.get(i) instanceof String text && !StorableText.isStorable(text)) {
                        violations.add(new Violation(argument + "[" + i + "]", StorableText.UNSTORABLE));
                    }
                }
            } else if (value instanceof String text && !StorableText.isStorable(text)) {
                violations.add(new Violation(argument, StorableText.UNSTORABLE));
            }
        }
        if (!violations.isEmpty()) {
            throw new ToolArgumentsException("Invalid arguments for tool '" + tool + "': " + String.join("; ",
                    violations.stream().map(v -> v.argument() + " " + v.problem()).toList()) + "; nothing was saved",
                    violations);
        }
    }
}
