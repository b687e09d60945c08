package io.sqlagent.agent.model;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import io.quarkus.logging.Log;
import io.sqlagent.ErrorIds;
import io.sqlagent.MessageText;
import io.sqlagent.Redaction;
import io.sqlagent.agent.AgentEvent;
import io.sqlagent.agent.RunTimeout;

/**
 * Turns what ended a run early into the {@code error} event the client gets: a stable code and a
 * message that says what happened without stack traces, keys or internals.
 * <ul>
 * <li>{@code timeout}: the run exceeded {@code sqlagent.agent.timeout};</li>
 * <li>{@code model_timeout}: the model server did not answer within
 * {@code quarkus.langchain4j.openai.timeout}, or went silent mid-answer for longer than
 * {@code sqlagent.agent.model-timeout};</li>
 * <li>{@code model_error}: the model server answered with an HTTP error (status and its message,
 * credentials hidden: servers echo the request's Authorization header) or a stream the client
 * could not read;</li>
 * <li>{@code model_unavailable}: the model server kept failing with HTTP 5xx or could not be
 * reached, through every retry ({@code sqlagent.model.retry.*}), or its circuit breaker is open;</li>
 * <li>{@code model_rate_limited}: the model server kept answering HTTP 429 through every retry, or
 * asked to wait longer than {@code sqlagent.model.retry.max-delay};</li>
 * <li>{@code model_interrupted}: the model's stream broke or ended after its answer began (never
 * retried: a partial answer is not sent twice);</li>
 * <li>{@code answer_too_long}: one model turn streamed more than {@code sqlagent.agent.max-answer-chars};</li>
 * <li>{@code store_unavailable}: the store database's connection was lost while the run wrote its
 * steps (closed, or the server restarting);</li>
 * <li>{@code internal_error}: anything else, with an id to find the stack trace in the log.</li>
 * </ul>
 */
public final class ModelErrors {

    /** The code of the run's own timeout. */
    public static final String RUN_TIMEOUT = "timeout";

    private static final int MAX_MESSAGE = 500;

    private ModelErrors() {
    }

    public static AgentEvent.Error describe(Throwable failure, Duration runTimeout) {
        if (causedBy(failure, RunTimeout.class)) {
            return new AgentEvent.Error(RUN_TIMEOUT, "The run took longer than " + runTimeout.toSeconds()
                    + " s (sqlagent.agent.timeout) and was stopped");
        }
        if (failure instanceof ModelTurn.ModelSilentException silent) {
            return new AgentEvent.Error("model_timeout", "The model server sent nothing for " + silent.silence.toSeconds()
                    + " s (sqlagent.agent.model-timeout)");
        }
        if (failure instanceof ModelTurn.ModelUnreadableException unreadable) {
            Log.warn(unreadable.getMessage());
            return new AgentEvent.Error("model_error", unreadable.getMessage());
        }
        if (failure instanceof ModelTurn.AnswerTooLongException tooLong) {
            return new AgentEvent.Error("answer_too_long", "The model's answer passed " + tooLong.limit
                    + " characters (sqlagent.agent.max-answer-chars); its stream was stopped there");
        }
        if (failure instanceof ModelResilience.ModelUnavailableException unavailable) {
            Log.warn(unavailable.getMessage());
            return new AgentEvent.Error(unavailable.code, unavailable.getMessage());
        }
        if (failure instanceof ModelResilience.ModelInterruptedException interrupted) {
            Log.warn(interrupted.getMessage());
            return new AgentEvent.Error("model_interrupted", interrupted.getMessage());
        }
        if (failure instanceof ModelTurn.ModelCallException) {
            Throwable cause = failure.getCause();
            if (causedBy(cause, TimeoutException.class, SocketTimeoutException.class,
                    dev.langchain4j.exception.TimeoutException.class)) {
                return new AgentEvent.Error("model_timeout",
                        "The model server did not answer in time (quarkus.langchain4j.openai.timeout)");
            }
            Integer status = status(cause);
            String message = message(cause);
            Log.warnf("The model call failed: %s%s", status == null ? "" : "HTTP " + status + ": ", message);
            return new AgentEvent.Error("model_error", "The model server failed"
                    + (status == null ? "" : " with HTTP " + status) + ": " + message);
        }
        if (storeLost(failure)) {
            String errorId = ErrorIds.logged(failure, "Agent run lost the store");
            return new AgentEvent.Error("store_unavailable", "The store database was lost during the run (its connection"
                    + " closed or the server restarted); the steps stored before it are kept; ask again shortly [error id "
                    + errorId + "]");
        }
        String errorId = ErrorIds.logged(failure, "Agent run failed");
        return new AgentEvent.Error("internal_error", "The run failed inside the service [error id " + errorId + "]");
    }

    /**
     * The store's connection went while the run wrote its steps: closed under it, or PostgreSQL
     * ending it (SQLSTATE class 57P: shutdown, restart; 08: connection exception), or its socket reset
     * (a write that reached a connection PostgreSQL had just ended, before its goodbye was read). Model
     * calls' own socket failures are {@link ModelTurn.ModelCallException}s, told apart before this.
     */
    private static boolean storeLost(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof io.sqlagent.store.StoreUnavailableException
                    || cause instanceof io.vertx.sqlclient.ClosedConnectionException
                    || cause instanceof java.net.SocketException) {
                return true;
            }
            if (cause instanceof io.vertx.pgclient.PgException pg && pg.getSqlState() != null
                    && (pg.getSqlState().startsWith("57P") || pg.getSqlState().startsWith("08"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the cause chain holds one of {@code types}: failures are told apart by type, never by
     * name. The model's HTTP client reports its own timeout (quarkus.langchain4j.openai.timeout) as
     * Vert.x's {@code NoStackTraceTimeoutException}, a {@link TimeoutException}, inside langchain4j's
     * {@code LangChain4jException}; langchain4j's own {@code TimeoutException} and a socket's
     * {@link SocketTimeoutException} are the other shapes a model client's timeout takes.
     */
    @SafeVarargs
    static boolean causedBy(Throwable failure, Class<? extends Throwable>... types) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            for (Class<? extends Throwable> type : types) {
                if (type.isInstance(cause)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The HTTP status in the cause chain, from langchain4j's or JAX-RS's exception. */
    static Integer status(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof dev.langchain4j.exception.HttpException http) {
                return http.statusCode();
            }
            if (cause instanceof jakarta.ws.rs.WebApplicationException web && web.getResponse() != null) {
                return web.getResponse().getStatus();
            }
        }
        return null;
    }

    /** The failure's first message in its cause chain, on one line, keys hidden, shortened. */
    static String message(Throwable failure) {
        Throwable deepest = failure;
        String message = null;
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
                message = cause.getMessage();
                break;
            }
            deepest = cause;
        }
        if (message == null) {
            message = deepest.getClass().getSimpleName();
        }
        // Model servers echo requests in errors, Authorization header included: hide keys before anyone sees them.
        message = Redaction.redact(message.replaceAll("\\s+", " ").strip());
        return MessageText.shorten(message, MAX_MESSAGE);
    }
}
