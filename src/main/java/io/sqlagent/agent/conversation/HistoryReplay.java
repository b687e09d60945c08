package io.sqlagent.agent.conversation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import io.sqlagent.agent.conversation.ConversationStore.Message;

/**
 * A conversation's stored messages as the model's messages, for a follow-up question. Pure.
 * <p>
 * A run cancelled between storing a turn's tool calls and storing their results leaves calls
 * without results; model APIs refuse such a history ("tool_calls must be followed by tool
 * messages"), so each gets a result saying it did not complete, right after the turn that asked.
 */
public final class HistoryReplay {

    /** The result given to a stored call whose own result was never stored. */
    static final String NOT_COMPLETED = "{\"error\":\"The call did not complete: its run was cancelled.\"}";

    private HistoryReplay() {
    }

    public static List<ChatMessage> messages(List<Message> history) {
        List<ChatMessage> messages = new ArrayList<>(history.size());
        for (int index = 0; index < history.size(); index++) {
            Message message = history.get(index);
            switch (message.role()) {
                case "user" -> messages.add(UserMessage.from(text(message)));
                case "tool" -> messages.add(result(message));
                default -> index = assistant(history, index, messages);
            }
        }
        return messages;
    }

    /** Adds the assistant turn at {@code index} and its results; returns the index of the last message used. */
    private static int assistant(List<Message> history, int index, List<ChatMessage> messages) {
        Message message = history.get(index);
        JsonNode calls = message.toolCalls();
        if (calls == null || calls.isEmpty()) {
            messages.add(AiMessage.from(text(message)));
            return index;
        }
        List<ToolExecutionRequest> requests = new ArrayList<>();
        calls.forEach(call -> requests.add(ToolExecutionRequest.builder().id(call.path("id").asText())
                .name(call.path("name").asText()).arguments(call.path("arguments").asText()).build()));
        messages.add(message.content() == null ? AiMessage.from(requests) : AiMessage.from(message.content(), requests));
        Set<String> answered = new HashSet<>();
        int next = index + 1;
        while (next < history.size() && "tool".equals(history.get(next).role())) {
            Message result = history.get(next);
            answered.add(result.toolCallId());
            messages.add(result(result));
            next++;
        }
        for (ToolExecutionRequest request : requests) {
            if (!answered.contains(request.id())) {
                messages.add(ToolExecutionResultMessage.from(request.id(), request.name(), NOT_COMPLETED));
            }
        }
        return next - 1;
    }

    private static ToolExecutionResultMessage result(Message message) {
        return ToolExecutionResultMessage.from(message.toolCallId(), message.toolName(), text(message));
    }

    private static String text(Message message) {
        return message.content() == null ? "" : message.content();
    }
}
