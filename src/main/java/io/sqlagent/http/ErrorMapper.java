package io.sqlagent.http;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response.Status;

import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.quarkus.logging.Log;
import io.sqlagent.ClientGone;
import io.sqlagent.ErrorIds;
import io.sqlagent.store.StoreUnavailableException;

/**
 * The error mapper of every REST resource: whatever a resource throws leaves the service as
 * an {@link ErrorBody} with its status (a body that cannot be bound to its record is {@link BindingErrors}'). Refusals carry
 * their own ({@link ApiException}); a store
 * out of reach is 503 {@code store_unavailable} with {@code Retry-After}; Quarkus' own HTTP errors
 * (an unknown path, a method not allowed) keep their status as {@code http_error}; anything else
 * is 500 {@code internal_error} with an error id, the cause logged under that id and never sent, unless it is the
 * client going away ({@link ClientGone}): logged at debug level only.
 */
public class ErrorMapper {

    /** Seconds a client is asked to wait before retrying when the store is out of reach. */
    static final String STORE_RETRY_AFTER_SECONDS = "5";

    @ServerExceptionMapper
    RestResponse<ErrorBody> refused(ApiException e) {
        RestResponse.ResponseBuilder<ErrorBody> response = RestResponse.ResponseBuilder.<ErrorBody> create(e.status())
                .type(MediaType.APPLICATION_JSON_TYPE).entity(e.body());
        e.retryAfter().ifPresent(after -> response.header("Retry-After", Long.toString(Math.max(1, after.toSeconds()))));
        return response.build();
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> storeUnavailable(StoreUnavailableException e) {
        String id = ErrorIds.warned(e, "The store database could not serve a request");
        return RestResponse.ResponseBuilder.<ErrorBody> create(Status.SERVICE_UNAVAILABLE)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .header("Retry-After", STORE_RETRY_AFTER_SECONDS)
                .entity(new ErrorBody("store_unavailable", e.getMessage() + "; try again shortly [error id " + id + "]",
                        java.util.List.of(), id))
                .build();
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> http(WebApplicationException e) {
        if (e.getCause() instanceof JsonProcessingException malformed) {
            // RESTEasy wraps JSON that does not parse, on its way to a body record, in a 400.
            return BindingErrors.malformed(malformed);
        }
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e);
        }
        Log.debugf("HTTP %d: %s", status, e.getMessage());
        return RestResponse.ResponseBuilder.<ErrorBody> create(status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ErrorBody.of("http_error", e.getMessage())).build();
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> unexpected(Throwable e) {
        if (ClientGone.is(e)) {
            // Nobody reads this answer: the connection is gone. 400, not 500, so the service's error rate counts
            // its own failures only.
            Log.debugf("The client closed the connection before its request was read whole: %s", e);
            return RestResponse.ResponseBuilder.<ErrorBody> create(Status.BAD_REQUEST)
                    .type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(ErrorBody.of("client_closed", "The connection closed before the request was read whole"))
                    .build();
        }
        return internal(e);
    }

    /** 500 {@code internal_error}: the cause is logged under the error id the answer names, and never sent. */
    static RestResponse<ErrorBody> internal(Throwable e) {
        String id = ErrorIds.logged(e, "A request failed inside the service");
        return RestResponse.ResponseBuilder.<ErrorBody> create(Status.INTERNAL_SERVER_ERROR)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ErrorBody.internal("The request failed inside the service", id)).build();
    }
}
