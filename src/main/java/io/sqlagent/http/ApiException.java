package io.sqlagent.http;

import java.time.Duration;
import java.util.Optional;

/**
 * A request the service refuses or cannot serve, with the status and error body to answer;
 * resources throw it and {@link ErrorMapper} writes it, so every resource answers errors alike.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final transient ErrorBody body;
    private final transient Optional<Duration> retryAfter;

    public ApiException(int status, ErrorBody body) {
        this(status, body, Optional.empty());
    }

    public ApiException(int status, ErrorBody body, Optional<Duration> retryAfter) {
        super(body.message(), null, false, false);
        this.status = status;
        this.body = body;
        this.retryAfter = retryAfter;
    }

    public static ApiException badRequest(String code, String message) {
        return new ApiException(400, ErrorBody.of(code, message));
    }

    public static ApiException notFound(String code, String message) {
        return new ApiException(404, ErrorBody.of(code, message));
    }

    public int status() {
        return status;
    }

    public ErrorBody body() {
        return body;
    }

    public Optional<Duration> retryAfter() {
        return retryAfter;
    }
}
