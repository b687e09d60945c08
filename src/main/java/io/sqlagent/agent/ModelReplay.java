package io.sqlagent.agent;

import java.util.Optional;

import dev.langchain4j.model.chat.StreamingChatModel;

/**
 * The model {@link ChatModels} falls back to when none is configured: recorded model turns played back
 * ({@code sqlagent.model.replay-file}). An interface here because the replay reads evaluation suites,
 * and the evaluations sit above the agent.
 */
public interface ModelReplay {

    /** The replay model and the name the page shows for it, or empty when no replay file is set. */
    Optional<Replay> replay();

    /** A replay model and its name. */
    record Replay(StreamingChatModel model, String name) {
    }
}
