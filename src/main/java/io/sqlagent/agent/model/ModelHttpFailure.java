package io.sqlagent.agent.model;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.rest.client.ext.ResponseExceptionMapper;

import dev.langchain4j.exception.HttpException;

/**
 * An HTTP error of the model server with the wait it asked for ({@code Retry-After}), which
 * quarkus-langchain4j's own mapper drops (it keeps the status and the body only).
 * {@link Mapper} is registered on the model's REST client by {@link ModelClientSettings}, ahead of
 * that mapper; {@link ModelResilience} reads the wait.
 */
public final class ModelHttpFailure extends HttpException {

    private final transient Optional<Duration> retryAfter;

    ModelHttpFailure(int status, String body, Optional<Duration> retryAfter) {
        super(status, body);
        this.retryAfter = retryAfter;
    }

    /** The wait the server asked for, if it named one. */
    Optional<Duration> retryAfter() {
        return retryAfter;
    }

    /**
     * {@code Retry-After}: seconds, or an HTTP date (RFC 9110); empty when absent or unreadable,
     * never negative.
     */
    static Optional<Duration> parseRetryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String trimmed = value.trim();
        try {
            long seconds = Long.parseLong(trimmed);
            return seconds < 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                Duration wait = Duration.between(now, at);
                return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
            } catch (DateTimeParseException notADate) {
                return Optional.empty();
            }
        }
    }

    /** Maps every non-2xx answer of the model server to a {@link ModelHttpFailure}. */
    @Priority(Priorities.USER - 100)
    public static final class Mapper implements ResponseExceptionMapper<ModelHttpFailure> {

        @Override
        public ModelHttpFailure toThrowable(Response response) {
            String body = response.hasEntity() ? response.readEntity(String.class) : "";
            return new ModelHttpFailure(response.getStatus(), body,
                    parseRetryAfter(response.getHeaderString(HttpHeaders.RETRY_AFTER), Instant.now()));
        }

        @Override
        public boolean handles(int status, jakarta.ws.rs.core.MultivaluedMap<String, Object> headers) {
            return status >= 400;
        }

        @Override
        public int getPriority() {
            return Priorities.USER - 100;
        }
    }
}
