package io.sqlagent.declarative;

/**
 * One thing wrong in a tool file, located so an operator can go straight to it.
 *
 * @param file the file, as configured (or {@code classpath:...} for the shipped one)
 * @param line 1-based line of the offending field, 0 when the problem is about the whole file
 * @param field where in the file: {@code tools.search_tracks.parameters[0].type}, or {@code (file)}
 * @param message what is wrong, phrased so the operator can fix it
 */
public record ToolFileProblem(String file, int line, String field, String message) {

    @Override
    public String toString() {
        return file + ":" + line + ": " + field + ": " + message;
    }
}
