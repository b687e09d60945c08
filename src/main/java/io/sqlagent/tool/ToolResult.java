package io.sqlagent.tool;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Violation;

/** What a tool call produced: a value, a failure the model can act on, or a stop of the whole run. */
public sealed interface ToolResult permits ToolResult.Success, ToolResult.Failure, ToolResult.Stopped {

    /** How the call ended. */
    Outcome outcome();

    static ToolResult success(JsonNode value) {
        return new Success(value);
    }

    /** A success whose JSON is already written: its bytes are the answer, its tree is read only when asked for. */
    static ToolResult written(WrittenJson value) {
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

    /**
     * The tool ran and returned {@code value}. Its JSON text is written once, when first asked for
     * ({@link #json()}), and shared by every reader: the REST answer, the MCP answer and the size the
     * audit log records. A value whose JSON is already written ({@link WrittenJson}) keeps those bytes and
     * builds its tree only when asked for ({@link #value()}). (A class, not a record, to hold that text;
     * equal by value alone.)
     */
    final class Success implements ToolResult {

        private volatile JsonNode value;
        private final WrittenJson written;
        private volatile byte[] json;

        public Success(JsonNode value) {
            this.value = value;
            this.written = null;
        }

        public Success(WrittenJson written) {
            this.written = Objects.requireNonNull(written);
            this.json = written.json();
        }

        /** Whether the value came written ({@link WrittenJson}): {@link #json()} is then its text, with no tree built. */
        public boolean isWritten() {
            return written != null;
        }

        /** The value as a tree (for a written value, read from its JSON on the first call and kept). */
        public JsonNode value() {
            JsonNode tree = value;
            if (tree == null && written != null) {
                tree = written.tree();
                value = tree;
            }
            return tree;
        }

        /**
         * The value as UTF-8 JSON ({@link SnakeCaseJson#MAPPER}: exact decimals without exponent), written on
         * the first call and kept. Callers must not change the array.
         */
        public byte[] json() {
            byte[] bytes = json;
            if (bytes == null) {
                try {
                    bytes = SnakeCaseJson.MAPPER.writeValueAsBytes(value);
                } catch (IOException e) {
                    throw new IllegalStateException("A tool result could not be written as JSON", e);
                }
                json = bytes;
            }
            return bytes;
        }

        @Override
        public Outcome outcome() {
            return Outcome.SUCCESS;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Success success && Objects.equals(value(), success.value());
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(value());
        }

        @Override
        public String toString() {
            return "Success[value=" + value() + "]";
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
