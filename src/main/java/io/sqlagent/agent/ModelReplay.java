package io.sqlagent.agent;

import java.util.List;
import java.util.Optional;

/**
 * The model {@link ChatModels} falls back to when none is configured: recorded model turns played back
 * ({@code sqlagent.model.replay-file}). An interface here because the replay reads evaluation suites,
 * and the evaluations sit above the agent; the evaluations give the script, {@link ReplayChatModel}
 * (here, the one package that knows langchain4j) plays it as the model.
 */
public interface ModelReplay {

    /** The replay script and the name the page shows for it, or empty when no replay file is set. */
    Optional<Replay> replay();

    /** A replay script and its name. */
    record Replay(Script script, String name) {
    }

    /** The recorded turns: which one the model takes next. */
    @FunctionalInterface
    interface Script {

        /**
         * The model's next turn for {@code asked} after {@code step} model turns since it,
         * {@code lastToolResult} the text of the last tool result since the question.
         */
        Step next(String asked, int step, Optional<String> lastToolResult);
    }

    /** A model turn: tool calls or the answer. */
    sealed interface Step permits Answer, Calls {
    }

    /** The answer text. */
    record Answer(String text) implements Step {
    }

    /** One tool call: the tool's name and its JSON arguments. */
    record Call(String tool, String arguments) {
    }

    /** Tool calls, all in one turn. */
    record Calls(List<Call> calls) implements Step {
    }
}
