package io.sqlagent.tool;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.tool.schema.Violation;

/** What a tool call produced: a value, a failure the model can act on, or a stop of the whole run. */
public sealed interface ToolResult permits ToolResult.Success, ToolResult.Failure, ToolResult.Stopped {

    /** How the call ended. */
    Outcome outcome();

    static ToolResult success(JsonNode value) {
        return new Success(value);
    }

    static ToolResult failure(String message) {
        return new Failure(Outcome.FAILURE, message, List.of());
    }

    static ToolResult invalidArguments(String message, List<Violation> details) {
        return new Failure(Outcome.INVALID_ARGUMENTS, message, details);
    }

    static ToolResult blocked(String reason) {
        return new Failure(Outcome.BLOCKED, reason, List.of());
    }

    /** The tool ran and returned {@code value}. */
    record Success(JsonNode value) implements ToolResult {
        @Override
        public Outcome outcome() {
            return Outcome.SUCCESS;
        }
    }

    /**
     * The call did not produce a value.
     *
     * @param outcome why: failure, invalid arguments, blocked, unknown tool or skipped
     * @param message what went wrong, phrased for the model (never a stack trace)
     * @param details one entry per invalid argument, for invalid arguments
     */
    record Failure(Outcome outcome, String message, List<Violation> details) implements ToolResult {
        public Failure {
            if (outcome == Outcome.SUCCESS || outcome == Outcome.STOPPED) {
                throw new IllegalArgumentException("a failure cannot have outcome " + outcome);
            }
            details = List.copyOf(details);
        }
    }

    /** The tool asked to end the whole agent run, for {@code reason}. */
    record Stopped(String reason) implements ToolResult {
        @Override
        public Outcome outcome() {
            return Outcome.STOPPED;
        }
    }
}
