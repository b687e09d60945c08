package io.sqlagent.http;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response.Status;

import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import io.sqlagent.MessageText;
import io.sqlagent.SnakeCaseJson;

/**
 * The answers to a request body bound to a record ({@link StrictBodies}) that cannot be used, in the house error body
 * and with the codes the resources gave when they read bodies by hand: JSON that does not parse is
 * {@code malformed_json}, a body that is not an object {@code invalid_body}, a field the record does not have
 * {@code unknown_field} (or the record's {@link OnUnknownField}), a value of the wrong type the record component's
 * {@link OnWrongType}, and a Bean
 * Validation violation its constraint's message. Every message of a body record is {@code "<error code>: <message>"},
 * so the record reads as the contract it is. Only the first problem is answered, in the record's order.
 */
public class BindingErrors {

    @ServerExceptionMapper
    RestResponse<ErrorBody> violated(ConstraintViolationException e) {
        Optional<ErrorBody> first = first(e.getConstraintViolations());
        if (first.isEmpty()) {
            // Constraints on what a resource answers are the service's own failure, not the caller's.
            return ErrorMapper.internal(e);
        }
        return refused(first.get());
    }

    /** The answer to the first of {@code violations} in the record's order; empty when all are on a return value. */
    static Optional<ErrorBody> first(Set<? extends ConstraintViolation<?>> violations) {
        return violations.stream()
                .filter(violation -> !returnValue(violation))
                .min(Comparator.<ConstraintViolation<?>> comparingInt(BindingErrors::rank)
                        .thenComparing(v -> v.getPropertyPath().toString()))
                .map(violation -> coded(naming(violation)));
    }

    /** Where a message names what it refused: {@value #INVALID} in a constraint's message, replaced by the value. */
    static final String INVALID = "{invalid}";

    /**
     * The violation's message with {@value #INVALID} replaced by the refused value as JSON, at most 64 characters of
     * it. Done here rather than with Hibernate Validator's {@code ${validatedValue}}: that is an expression-language
     * interpolation of the caller's text, which the validator's own documentation warns against.
     */
    private static String naming(ConstraintViolation<?> violation) {
        String message = violation.getMessage();
        if (!message.contains(INVALID)) {
            return message;
        }
        String value;
        try {
            value = violation.getInvalidValue() == null ? "null"
                    : SnakeCaseJson.MAPPER
                            .writeValueAsString(MessageText.shorten(String.valueOf(violation.getInvalidValue()), 64));
        } catch (JsonProcessingException e) {
            value = "(unprintable)";
        }
        return message.replace(INVALID, value);
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> mismatched(MismatchedInputException e) {
        return refused(ofBinding(e));
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> unbound(JsonMappingException e) {
        if (unparsable(e.getCause()) || !e.getPath().isEmpty()) {
            return refused(ofBinding(e));
        }
        return ErrorMapper.internal(e);
    }

    /** A body past Jackson's limits (nesting depth, number or string length): not valid JSON for the service. */
    @ServerExceptionMapper
    RestResponse<ErrorBody> tooLarge(StreamConstraintsException e) {
        return malformed(e);
    }

    /** JSON that does not parse (RESTEasy hands it over wrapped in a 400 {@code WebApplicationException}). */
    static RestResponse<ErrorBody> malformed(JsonProcessingException e) {
        return refused(JsonBodies.malformed(e));
    }

    /**
     * Whether Jackson gave up on the text itself rather than on a value: a parse error or a limit, not a number out of
     * its field's range (that is the field's wrong type).
     */
    static boolean unparsable(Throwable cause) {
        return cause instanceof JsonProcessingException && !(cause instanceof InputCoercionException)
                && !(cause instanceof JsonMappingException);
    }

    /** The answer to a body Jackson could not bind to its record. */
    static ErrorBody ofBinding(JsonMappingException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            OnUnknownField own = unknown.getReferringClass() == null ? null
                    : unknown.getReferringClass().getAnnotation(OnUnknownField.class);
            if (own != null) {
                return coded(own.value().replace("{field}", MessageText.shorten(unknown.getPropertyName(), own.quoteAtMost())));
            }
            return ErrorBody.of("unknown_field", "Unknown field '" + MessageText.shorten(unknown.getPropertyName(), 64)
                    + "'; the body takes " + String.join(", ", known(unknown)));
        }
        if (unparsable(e.getCause())) {
            return JsonBodies.malformed((JsonProcessingException) e.getCause());
        }
        if (e.getPath().isEmpty()) {
            if (e.getMessage() != null && e.getMessage().startsWith("Trailing token")) {
                return JsonBodies.moreAfterTheValue(e.getLocation());
            }
            return notAnObject(e instanceof MismatchedInputException mismatched ? mismatched.getTargetType() : null, token(e));
        }
        JsonMappingException.Reference field = e.getPath().get(0);
        return component(field).map(c -> c.getAnnotation(OnWrongType.class)).map(wrong -> coded(wrong.value()))
                .orElseGet(() -> ErrorBody.of("invalid_" + field.getFieldName(), field.getFieldName() + " has the wrong type"));
    }

    /** A body of JSON type {@code token} ("array", "null", ...) where {@code target}, a record, was expected. */
    static ErrorBody notAnObject(Class<?> target, String token) {
        OnWrongType wrong = target == null ? null : target.getAnnotation(OnWrongType.class);
        ErrorBody expected = coded(wrong == null ? "invalid_body: The body must be a JSON object" : wrong.value());
        return ErrorBody.of(expected.error(), expected.message() + ", not " + JsonBodies.article(token));
    }

    private static List<String> known(UnrecognizedPropertyException unknown) {
        return unknown.getKnownPropertyIds() == null ? List.of()
                : unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
    }

    /**
     * The JSON type of the value that came instead of an object: "array", "string", "number", "boolean" or "null".
     * Jackson names it in its message ("from Array value (token `JsonToken.START_ARRAY`)"); its parser has moved on by
     * the time the exception arrives.
     */
    private static String token(JsonMappingException e) {
        String message = String.valueOf(e.getOriginalMessage());
        for (String[] kind : KINDS) {
            for (int i = 1; i < kind.length; i++) {
                if (message.contains(kind[i])) {
                    return kind[0];
                }
            }
        }
        return "value";
    }

    /** A JSON type, then how Jackson's messages name it. */
    private static final String[][] KINDS = {
            { "array", "START_ARRAY", "from Array value" },
            { "string", "VALUE_STRING", "from String value" },
            { "number", "VALUE_NUMBER", "from Number value", "from Integer value", "from Floating-point value" },
            { "boolean", "VALUE_TRUE", "VALUE_FALSE", "from Boolean value", "from boolean value" },
            { "null", "VALUE_NULL", "from Null value" } };

    /**
     * The record component a JSON field was bound to (snake_case in JSON, as {@link StrictBodies} maps it; camelCase in Java).
     */
    private static Optional<RecordComponent> component(JsonMappingException.Reference field) {
        Object from = field.getFrom();
        Class<?> type = from instanceof Class<?> c ? c : from == null ? null : from.getClass();
        if (type == null || !type.isRecord() || field.getFieldName() == null) {
            return Optional.empty();
        }
        return Arrays.stream(type.getRecordComponents())
                .filter(c -> jsonName(c).equals(field.getFieldName()))
                .findFirst();
    }

    private static String jsonName(RecordComponent component) {
        return PropertyNamingStrategies.SnakeCaseStrategy.INSTANCE.translate(component.getName());
    }

    /**
     * Where a violation stands in its record: a check of the whole body first, then its fields in the record's
     * order, so the problem answered is the one a reader of the record would find first.
     */
    private static int rank(ConstraintViolation<?> violation) {
        // Validated as a resource method's parameter, the body is the leaf bean; validated by itself (StrictBodies.bind),
        // it is the root bean.
        Class<?> body = violation.getRootBeanClass() != null && violation.getRootBeanClass().isRecord()
                ? violation.getRootBeanClass()
                : null;
        String field = null;
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getKind() == ElementKind.PARAMETER) {
                body = violation.getLeafBean() == null ? null : violation.getLeafBean().getClass();
            } else if (node.getKind() == ElementKind.PROPERTY && field == null) {
                field = node.getName();
            }
        }
        if (field == null || body == null || !body.isRecord()) {
            return -1;
        }
        RecordComponent[] components = body.getRecordComponents();
        for (int i = 0; i < components.length; i++) {
            if (components[i].getName().equals(field)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean returnValue(ConstraintViolation<?> violation) {
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getKind() == ElementKind.RETURN_VALUE) {
                return true;
            }
        }
        return false;
    }

    /** {@code "<code>: <message>"} as an error body; a message without a code is {@code invalid_body}. */
    static ErrorBody coded(String message) {
        int colon = message.indexOf(": ");
        if (colon > 0 && message.substring(0, colon).matches("[a-z_]+")) {
            return ErrorBody.of(message.substring(0, colon), message.substring(colon + 2));
        }
        return ErrorBody.of("invalid_body", message);
    }

    private static RestResponse<ErrorBody> refused(ErrorBody body) {
        return RestResponse.ResponseBuilder.<ErrorBody> create(Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(body).build();
    }
}
