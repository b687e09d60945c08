package io.sqlagent.agent.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import io.sqlagent.agent.AgentEvent;

/** How one turn's stream becomes {@code thinking} and {@code content} events, and where it is cut off. */
class TurnSorterTest {

    private static final int LOOKAHEAD = 10;

    private static TurnSorter.Text text(String text) {
        return new TurnSorter.Text(text);
    }

    private static TurnSorter.Completed answered(String text) {
        return new TurnSorter.Completed(ChatResponse.builder().aiMessage(AiMessage.from(text)).finishReason(FinishReason.STOP)
                .build());
    }

    private static TurnSorter.Completed calledTools() {
        return new TurnSorter.Completed(ChatResponse.builder()
                .aiMessage(AiMessage.from(List.of(ToolExecutionRequest.builder().id("c1").name("run_sql").arguments("{}")
                        .build())))
                .finishReason(FinishReason.TOOL_EXECUTION).build());
    }

    private static List<AgentEvent> feed(TurnSorter turn, TurnSorter.Piece... pieces) {
        List<AgentEvent> events = new ArrayList<>();
        for (TurnSorter.Piece piece : pieces) {
            events.addAll(turn.accept(piece));
        }
        return events;
    }

    @Test
    void shortTextIsHeldUntilTheTurnEndsThenSentAsTheAnswer() {
        TurnSorter turn = new TurnSorter(LOOKAHEAD, 1000, false);

        assertEquals(List.of(), feed(turn, text("Hi"), text(" there")));
        assertEquals(List.of(new AgentEvent.Content("Hi there")), turn.accept(answered("Hi there")));
    }

    @Test
    void textBeforeAToolCallIsThinking() {
        TurnSorter turn = new TurnSorter(LOOKAHEAD, 1000, false);

        List<AgentEvent> events = feed(turn, text("Let me"), new TurnSorter.ToolCallArguments("{\"sql\""),
                new TurnSorter.ToolCallArguments(":\"SELECT 1\"}"), text(" and then"), calledTools());

        assertEquals(List.of(new AgentEvent.Thinking("Let me"), new AgentEvent.Thinking(" and then")), events);
    }

    @Test
    void textPastTheLookaheadIsTheAnswerAndStreamsFromThenOn() {
        TurnSorter turn = new TurnSorter(LOOKAHEAD, 1000, false);

        List<AgentEvent> events = feed(turn, text("0123456"), text("789ab"), text("c"), answered("0123456789abc"));

        assertEquals(List.of(new AgentEvent.Content("0123456789ab"), new AgentEvent.Content("c")), events);
    }

    @Test
    void aToolCallAfterAnswerTextTurnsWhatFollowsIntoThinking() {
        TurnSorter turn = new TurnSorter(LOOKAHEAD, 1000, false);

        List<AgentEvent> events = feed(turn, text("0123456789"), new TurnSorter.ToolCallArguments("{}"), text("more"));

        assertEquals(List.of(new AgentEvent.Content("0123456789"), new AgentEvent.Thinking("more")), events);
    }

    @Test
    void aTurnOfferedNoToolsStreamsAtOnce() {
        TurnSorter turn = new TurnSorter(LOOKAHEAD, 1000, true);

        assertEquals(List.of(new AgentEvent.Content("Hi")), turn.accept(text("Hi")));
        assertEquals(List.of(), turn.accept(answered("Hi")));
    }

    @Test
    void reasoningIsThinkingAsItComesAndEmptyPiecesAreNothing() {
        TurnSorter turn = new TurnSorter(LOOKAHEAD, 1000, false);

        assertEquals(List.of(new AgentEvent.Thinking("hmm")), turn.accept(new TurnSorter.Reasoning("hmm")));
        assertEquals(List.of(), feed(turn, text(""), text(null), new TurnSorter.Reasoning("")));
    }

    @Test
    void textReasoningAndToolArgumentsTogetherPastTheCapEndTheTurn() {
        TurnSorter turn = new TurnSorter(LOOKAHEAD, 20, false);
        feed(turn, text("12345"), new TurnSorter.Reasoning("12345"), new TurnSorter.ToolCallArguments("12345"));

        ModelTurn.AnswerTooLongException tooLong = assertThrows(ModelTurn.AnswerTooLongException.class,
                () -> turn.accept(text("123456")));
        assertEquals(20, tooLong.limit);
    }

    @Test
    void aStreamThatEndsWithNothingAndNoFinishReasonIsUnreadable() {
        TurnSorter turn = new TurnSorter(LOOKAHEAD, 1000, false);

        assertThrows(ModelTurn.ModelUnreadableException.class,
                () -> turn.accept(new TurnSorter.Completed(ChatResponse.builder().aiMessage(AiMessage.from("")).build())));
    }

    @Test
    void anEmptyAnswerWithAFinishReasonIsAnEmptyAnswer() {
        TurnSorter turn = new TurnSorter(LOOKAHEAD, 1000, false);

        assertEquals(List.of(), turn.accept(answered("")));
    }
}
