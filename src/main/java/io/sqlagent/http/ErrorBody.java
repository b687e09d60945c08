package io.sqlagent.http;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Violation;
import io.sqlagent.tool.ToolResult;

/**
 * The one JSON shape of every error the service gives: REST answers, a failed tool call's result
 * over MCP and the tool result the model reads all carry
 * {@code {"error": <stable code>, "message": <what went wrong and what to do>, "details"?: [...],
 * "error_id"?: <id in the service log>}}.
 *
 * @param error stable machine-readable code
 * @param message what went wrong and what to do
 * @param details per-argument problems, for {@code invalid_arguments}
 * @param errorId the id under which a failure inside the service was logged, for {@code internal_error}
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ErrorBody(String error, String message, List<Detail> details, @JsonProperty("error_id") String errorId) {

    /** One invalid argument. */
    public record Detail(String argument, String problem) {
    }

    public static ErrorBody of(String error, String message) {
        return new ErrorBody(error, message, List.of(), null);
    }

    /** A failure inside the service, logged under {@code errorId}; the message names the id too. */
    public static ErrorBody internal(String message, String errorId) {
        return new ErrorBody("internal_error", message + " [error id " + errorId + "]", List.of(), errorId);
    }

    public static ErrorBody invalidArguments(String message, List<Violation> violations) {
        return new ErrorBody("invalid_arguments", message,
                violations.stream().map(v -> new Detail(v.argument(), v.problem())).toList(), null);
    }

    /**
     * A failed tool call, the same for REST, MCP and the model: the code says how it failed
     * ({@link #toolFailureCode}), the message why.
     */
    public static ErrorBody toolFailure(ToolResult.Failure failure) {
        return switch (failure.outcome()) {
            case INVALID_ARGUMENTS -> invalidArguments(failure.message(), failure.details());
            default -> of(toolFailureCode(failure), failure.message());
        };
    }

    /**
     * The error code of a failed tool call: {@code invalid_arguments}, {@code blocked},
     * {@code forbidden} (the caller lacks the tool's scope), {@code unknown_tool}, {@code skipped}, {@code busy} (a source at
     * capacity or its server out of reach: retry shortly) or
     * {@code tool_failed} (the tool ran and failed).
     */
    public static String toolFailureCode(ToolResult.Failure failure) {
        return switch (failure.outcome()) {
            case INVALID_ARGUMENTS -> "invalid_arguments";
            case BLOCKED -> "blocked";
            case FORBIDDEN -> "forbidden";
            case UNKNOWN_TOOL -> "unknown_tool";
            case SKIPPED -> "skipped";
            case UNAVAILABLE -> "busy";
            default -> "tool_failed";
        };
    }

    /** This body as a JSON tree. */
    public ObjectNode toJson() {
        return SnakeCaseJson.MAPPER.valueToTree(this);
    }
}
