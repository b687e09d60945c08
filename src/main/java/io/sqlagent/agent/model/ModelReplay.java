package io.sqlagent.agent.model;

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

        /**
         * The model's next turn for a conversation as the model receives it: the last user message is the
         * question, the assistant turns since it the steps taken, the last tool result since it the one read.
         */
        default Step next(List<Message> conversation) {
            int lastUser = -1;
            for (int i = 0; i < conversation.size(); i++) {
                if (conversation.get(i).role() == Role.USER) {
                    lastUser = i;
                }
            }
            String asked = lastUser < 0 ? "" : conversation.get(lastUser).text();
            int step = 0;
            Optional<String> lastTool = Optional.empty();
            for (Message message : conversation.subList(lastUser + 1, conversation.size())) {
                if (message.role() == Role.ASSISTANT) {
                    step++;
                } else if (message.role() == Role.TOOL) {
                    lastTool = Optional.of(message.text());
                }
            }
            return next(asked, step, lastTool);
        }
    }

    /** Who wrote a message of the conversation a replayed model reads. */
    enum Role {
        USER,
        ASSISTANT,
        TOOL,
        OTHER
    }

    /** One message of the conversation a replayed model reads, its text empty where it has none. */
    record Message(Role role, String text) {
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
