package io.sqlagent.agent.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import io.sqlagent.agent.AgentEvent;
import io.sqlagent.agent.RunTimeout;

/** Failures are told apart by their type, wherever they sit in the cause chain. */
class ModelErrorsTest {

    /** A failure whose name says timeout but which is none (the old check matched class names). */
    private static final class NotATimeoutButNamedLikeOne extends RuntimeException {
    }

    @Test
    void theRunsOwnTimeoutIsTimeoutWhereverItIsWrapped() {
        AgentEvent.Error error = ModelErrors.describe(new CompletionException(new RunTimeout()),
                Duration.ofSeconds(3));

        assertEquals(new AgentEvent.Error("timeout", "The run took longer than 3 s (sqlagent.agent.timeout) and was stopped"),
                error);
    }

    @Test
    void theModelClientsTimeoutIsAModelTimeout() {
        Throwable clientTimeout = new RuntimeException("request failed", new TimeoutException("idle"));

        AgentEvent.Error error = ModelErrors.describe(new ModelTurn.ModelCallException(clientTimeout), Duration.ofSeconds(3));

        assertEquals("model_timeout", error.code());
        assertTrue(error.message().contains("quarkus.langchain4j.openai.timeout"), error.message());
    }

    @Test
    void aSilentModelIsAModelTimeoutNamingItsSetting() {
        AgentEvent.Error error = ModelErrors.describe(new ModelTurn.ModelSilentException(Duration.ofSeconds(60)),
                Duration.ofMinutes(5));

        assertEquals(
                new AgentEvent.Error("model_timeout", "The model server sent nothing for 60 s (sqlagent.agent.model-timeout)"),
                error);
    }

    @Test
    void aNameIsNotAType() {
        assertFalse(ModelErrors.causedBy(new RuntimeException(new NotATimeoutButNamedLikeOne()), TimeoutException.class));
        assertTrue(ModelErrors.causedBy(new RuntimeException(new java.net.SocketTimeoutException()), TimeoutException.class,
                java.net.SocketTimeoutException.class));
    }

    @Test
    void aResetOfTheStoresConnectionIsTheStoreLostButAModelsResetIsTheModels() {
        AgentEvent.Error store = ModelErrors.describe(new CompletionException(new java.net.SocketException("Connection reset")),
                Duration.ofSeconds(3));
        AgentEvent.Error model = ModelErrors.describe(
                new ModelTurn.ModelCallException(new RuntimeException(new java.net.SocketException("Connection reset"))),
                Duration.ofSeconds(3));

        assertEquals("store_unavailable", store.code(), store.toString());
        assertEquals("model_error", model.code(), model.toString());
    }
}
