package io.sqlagent.agent.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.conversation.ConversationStore.Message;

/** A stored conversation as the model's messages, including the runs that were cancelled half way. */
class HistoryReplayTest {

    private static JsonNode calls(String... idAndName) {
        ArrayNode calls = SnakeCaseJson.MAPPER.createArrayNode();
        for (int i = 0; i < idAndName.length; i += 2) {
            calls.addObject().put("id", idAndName[i]).put("name", idAndName[i + 1]).put("arguments", "{\"n\":" + i + "}");
        }
        return calls;
    }

    private static ToolExecutionRequest request(String id, String name, int n) {
        return ToolExecutionRequest.builder().id(id).name(name).arguments("{\"n\":" + n + "}").build();
    }

    @Test
    void aFinishedConversationIsReplayedAsItWasSaid() {
        List<Message> stored = List.of(Message.user("How many?"),
                Message.assistant("Counting.", calls("c1", "run_sql")),
                Message.tool("c1", "run_sql", "{\"rows\":[{\"n\":3}]}", "success", 5),
                Message.assistant("Three.", null));

        List<ChatMessage> messages = HistoryReplay.messages(stored);

        assertEquals(List.of(UserMessage.from("How many?"),
                AiMessage.from("Counting.", List.of(request("c1", "run_sql", 0))),
                ToolExecutionResultMessage.from("c1", "run_sql", "{\"rows\":[{\"n\":3}]}"),
                AiMessage.from("Three.")), messages);
    }

    @Test
    void callsWhoseResultsWereNeverStoredGetOneSayingTheyDidNotComplete() {
        // A run cancelled while its second call ran: the turn and the first result are stored, the second is not.
        List<Message> stored = List.of(Message.user("Compare"),
                Message.assistant(null, calls("c1", "run_sql", "c2", "introspect_schema")),
                Message.tool("c1", "run_sql", "{\"rows\":[]}", "success", 5),
                Message.user("Try again"),
                Message.assistant("Sure.", null));

        List<ChatMessage> messages = HistoryReplay.messages(stored);

        assertEquals(List.of(UserMessage.from("Compare"),
                AiMessage.from(List.of(request("c1", "run_sql", 0), request("c2", "introspect_schema", 2))),
                ToolExecutionResultMessage.from("c1", "run_sql", "{\"rows\":[]}"),
                ToolExecutionResultMessage.from("c2", "introspect_schema",
                        "{\"error\":\"The call did not complete: its run was cancelled.\"}"),
                UserMessage.from("Try again"),
                AiMessage.from("Sure.")), messages);
    }

    @Test
    void aHistoryThatEndsWithUnansweredCallsIsRepairedAtItsEnd() {
        // Cancelled before any result was stored: the last stored message is the assistant's turn.
        List<Message> stored = List.of(Message.user("Count"), Message.assistant(null, calls("c1", "run_sql")));

        List<ChatMessage> messages = HistoryReplay.messages(stored);

        assertEquals(3, messages.size(), messages.toString());
        assertEquals(ToolExecutionResultMessage.from("c1", "run_sql", HistoryReplay.NOT_COMPLETED), messages.get(2));
    }

    @Test
    void missingTextIsEmptyText() {
        List<Message> stored = List.of(Message.user(null), Message.assistant(null, null),
                Message.assistant(null, SnakeCaseJson.MAPPER.createArrayNode()));

        assertEquals(List.of(UserMessage.from(""), AiMessage.from(""), AiMessage.from("")), HistoryReplay.messages(stored));
    }
}
