package io.sqlagent.declarative;

import java.util.List;
import java.util.stream.Collectors;

/** The tool files have problems, so the service does not start; the message lists every one, by file and line. */
public class DeclaredToolsException extends RuntimeException {

    private final List<ToolFileProblem> problems;

    public DeclaredToolsException(List<ToolFileProblem> problems) {
        super("The tool files have " + problems.size() + " problem(s):" + System.lineSeparator() + "  "
                + problems.stream().map(ToolFileProblem::toString).collect(Collectors.joining(System.lineSeparator() + "  ")),
                null, false, false);
        this.problems = List.copyOf(problems);
    }

    /** Every problem, in file order. */
    public List<ToolFileProblem> problems() {
        return problems;
    }
}
