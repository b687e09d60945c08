package io.sqlagent.agent.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.sqlagent.agent.AgentEvent;
import io.sqlagent.agent.conversation.ConversationStore;
import io.sqlagent.agent.loop.RunEnding.StopReason;
import io.sqlagent.agent.model.ModelErrors;

/** Each way a run ends: what its client gets last, and what its metrics and its record say. */
class RunEndingTest {

    private static final RunEnding.Tally TALLY = new RunEnding.Tally(3, Duration.ofMillis(1234), 126, 21);
    private static final UUID RUN = UUID.randomUUID();
    private static final UUID CONVERSATION = UUID.randomUUID();
    private static final Instant STARTED = Instant.parse("2026-01-01T00:00:00Z");

    private static ConversationStore.Run record(RunEnding ending) {
        return ending.record(RUN, CONVERSATION, "How many?", STARTED, TALLY);
    }

    @Test
    void aRunThatAnsweredEndsWithDoneAndIsRecordedByItsStopReason() {
        for (StopReason reason : StopReason.values()) {
            RunEnding ending = new RunEnding.Finished(reason);

            assertEquals(Optional.of(new AgentEvent.Done(3, 1234, new AgentEvent.Usage(126, 21), reason.wireName)),
                    ending.lastEvent(TALLY));
            assertEquals(new ConversationStore.Run(RUN, CONVERSATION, "How many?", STARTED, 1234, 3, 126, 21, reason.wireName,
                    null), record(ending));
        }
        assertEquals("max_iterations", new RunEnding.Finished(StopReason.MAX_ITERATIONS).outcome());
    }

    @Test
    void aFailedRunEndsWithItsErrorAndIsRecordedAsAnErrorWithItsCode() {
        AgentEvent.Error error = new AgentEvent.Error("model_error", "The model server failed with HTTP 500: boom");
        RunEnding ending = new RunEnding.Failed(error);

        assertEquals(Optional.of(error), ending.lastEvent(TALLY));
        assertEquals("error", ending.outcome());
        assertEquals("model_error", record(ending).errorCode());
    }

    @Test
    void aRunOverItsTimeIsRecordedAsATimeout() {
        RunEnding ending = new RunEnding.Failed(new AgentEvent.Error(ModelErrors.RUN_TIMEOUT, "too long"));

        assertEquals("timeout", ending.outcome());
        assertEquals("timeout", record(ending).errorCode());
    }

    @Test
    void aCancelledRunSendsNothingAndIsRecordedAsCancelled() {
        RunEnding ending = new RunEnding.Cancelled();

        assertEquals(Optional.empty(), ending.lastEvent(TALLY));
        assertEquals("cancelled", record(ending).outcome());
        assertNull(record(ending).errorCode());
    }
}
