package io.sqlagent.agent.loop;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import io.sqlagent.agent.AgentEvent;
import io.sqlagent.agent.conversation.ConversationStore;
import io.sqlagent.agent.model.ModelErrors;

/**
 * How an agent run ended, and all that follows from it: the outcome its metrics and its
 * {@code conversation_run} record carry, and the last event its client gets. Every run ends
 * exactly one of these ways; {@code AgentRun} has one path for all three. Pure.
 */
public sealed interface RunEnding permits RunEnding.Finished, RunEnding.Failed, RunEnding.Cancelled {

    /** Why a run ended normally, as the {@code done} event's {@code stop_reason} says it. */
    enum StopReason {
        /** The model answered. */
        ANSWER("answer"),
        /** The iteration cap was reached; the model was asked to answer without tools. */
        MAX_ITERATIONS("max_iterations"),
        /** A tool ended the run. */
        STOPPED("stopped");

        final String wireName;

        StopReason(String wireName) {
            this.wireName = wireName;
        }
    }

    /** What a run used: model calls, time, tokens. */
    record Tally(int iterations, Duration duration, long inputTokens, long outputTokens) {
    }

    /** The run ended normally: {@code done}. */
    record Finished(StopReason reason) implements RunEnding {
        @Override
        public String outcome() {
            return reason.wireName;
        }

        @Override
        public Optional<AgentEvent> lastEvent(Tally tally) {
            return Optional.of(new AgentEvent.Done(tally.iterations(), tally.duration().toMillis(),
                    new AgentEvent.Usage(tally.inputTokens(), tally.outputTokens()), reason.wireName));
        }
    }

    /** The run failed: one {@code error} event; its outcome is {@code timeout} for the run's timeout, else {@code error}. */
    record Failed(AgentEvent.Error error) implements RunEnding {
        @Override
        public String outcome() {
            return ModelErrors.RUN_TIMEOUT.equals(error.code()) ? "timeout" : "error";
        }

        @Override
        public String errorCode() {
            return error.code();
        }

        @Override
        public Optional<AgentEvent> lastEvent(Tally tally) {
            return Optional.of(error);
        }
    }

    /** The client went away (or its stream was closed): nobody is left to tell. */
    record Cancelled() implements RunEnding {
        @Override
        public String outcome() {
            return "cancelled";
        }

        @Override
        public Optional<AgentEvent> lastEvent(Tally tally) {
            return Optional.empty();
        }
    }

    /** The outcome, for the metrics' tag and the run's record. */
    String outcome();

    /** The error's code for the run's record; {@code null} unless the run failed. */
    default String errorCode() {
        return null;
    }

    /** The client's last event, or none when no client is left. */
    Optional<AgentEvent> lastEvent(Tally tally);

    /** The run's {@code conversation_run} record. */
    default ConversationStore.Run record(UUID runId, UUID conversationId, String question, Instant startedAt, Tally tally) {
        return new ConversationStore.Run(runId, conversationId, question, startedAt, tally.duration().toMillis(),
                tally.iterations(), tally.inputTokens(), tally.outputTokens(), outcome(), errorCode());
    }
}
