package io.sqlagent.tool.rest;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.sqlagent.tool.schema.Violation;

/**
 * The JSON body of every error answer: a stable code, a message a person can act on, and for
 * invalid arguments one detail per argument.
 *
 * @param error stable machine-readable code
 * @param message what went wrong and what to do
 * @param details per-argument problems, for {@code invalid_arguments}
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ErrorBody(String error, String message, List<Detail> details) {

    /** One invalid argument. */
    public record Detail(String argument, String problem) {
    }

    public static ErrorBody of(String error, String message) {
        return new ErrorBody(error, message, List.of());
    }

    static ErrorBody invalidArguments(String message, List<Violation> violations) {
        return new ErrorBody("invalid_arguments", message,
                violations.stream().map(v -> new Detail(v.argument(), v.problem())).toList());
    }
}
