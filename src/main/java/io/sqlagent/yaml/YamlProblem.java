package io.sqlagent.yaml;

/**
 * One thing wrong in a YAML file the service reads (a tool file, the workspace policy), located so
 * an operator can go straight to it. Every such file reports its problems as these, and they print
 * as {@code file:line: field: message}.
 *
 * @param file the file, as configured (or {@code classpath:...} for a shipped one)
 * @param line 1-based line of the offending field, 0 when the problem is about the whole file
 * @param field where in the file: {@code tools.search_tracks.parameters[0].type}, or {@code (file)}
 * @param message what is wrong, phrased so the operator can fix it
 */
public record YamlProblem(String file, int line, String field, String message) {

    @Override
    public String toString() {
        return file + ":" + line + ": " + field + ": " + message;
    }
}
