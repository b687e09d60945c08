package io.sqlagent.eval;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.sqlagent.agent.model.ModelFaultsConfig;
import io.sqlagent.agent.model.ModelReplay;

/**
 * The replay file ({@code sqlagent.model.replay-file}) read as a {@link ReplayScript} and offered to the
 * agent through {@link ModelReplay}; the agent's ReplayChatModel plays it as the model, so langchain4j
 * stays in the agent package.
 */
@ApplicationScoped
public class ReplayFile implements ModelReplay {

    private final Optional<Replay> replay;

    ReplayFile(ModelFaultsConfig config) {
        this.replay = config.replayFile().filter(file -> !file.isBlank())
                .map(file -> new Replay(ReplayScript.read(file.strip()), "replay (" + file.strip() + ")"));
    }

    @Override
    public Optional<Replay> replay() {
        return replay;
    }
}
