package io.sqlagent.declarative;

import java.util.List;
import java.util.stream.Collectors;

import io.sqlagent.yaml.YamlProblem;

/** The tool files have problems, so the service does not start; the message lists every one, by file and line. */
public class DeclaredToolsException extends RuntimeException {

    private final List<YamlProblem> problems;

    public DeclaredToolsException(List<YamlProblem> problems) {
        this(problems, null);
    }

    /** The problems, then {@code advice} (what to do about them, on a line of its own) unless it is {@code null}. */
    public DeclaredToolsException(List<YamlProblem> problems, String advice) {
        super("The tool files have " + problems.size() + " problem(s):" + System.lineSeparator() + "  "
                + problems.stream().map(YamlProblem::toString).collect(Collectors.joining(System.lineSeparator() + "  "))
                + (advice == null ? "" : System.lineSeparator() + advice), null, false, false);
        this.problems = List.copyOf(problems);
    }

    /** Every problem, in file order. */
    public List<YamlProblem> problems() {
        return problems;
    }
}
