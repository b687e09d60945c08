package io.sqlagent.agent.model;

import java.util.List;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import io.sqlagent.agent.AgentEvent;

/**
 * Sorts what one model turn streams into the events a client sees, and bounds it. Text is sorted
 * into {@code thinking} (said before tool calls) and {@code content} (the answer): it is held until
 * a tool call starts (thinking), the turn ends (thinking if it called tools, else content) or
 * {@code lookahead} characters arrived without a tool call (content, sent from then on as it
 * comes). A turn offered no tools can only answer, so it streams at once. A turn that streams more
 * than {@code maxChars} (text, reasoning and tool-call arguments together) ends with
 * {@link ModelTurn.AnswerTooLongException}. Pure; one per turn, fed one piece at a time (a Mutiny
 * stream delivers its items one after another, never concurrently).
 */
public final class TurnSorter {

    /** One thing the model server streamed. */
    sealed interface Piece permits Text, Reasoning, ToolCallArguments, Completed {
    }

    /** A piece of text (thinking or answer: not yet known). */
    record Text(String text) implements Piece {
    }

    /** A piece of the model's reasoning. */
    record Reasoning(String text) implements Piece {
    }

    /** A piece of a tool call's arguments: a tool call has started. */
    record ToolCallArguments(String partial) implements Piece {
    }

    /** The whole response; always the last piece. */
    record Completed(ChatResponse response) implements Piece {
    }

    private enum Kind {
        UNDECIDED,
        THINKING,
        CONTENT
    }

    private final int lookahead;
    private final int maxChars;
    private final StringBuilder held = new StringBuilder();
    private Kind kind;
    /** Characters streamed so far (text, reasoning, tool-call arguments). */
    private long streamed;

    TurnSorter(int lookahead, int maxChars, boolean answerOnly) {
        this.lookahead = lookahead;
        this.maxChars = maxChars;
        this.kind = answerOnly ? Kind.CONTENT : Kind.UNDECIDED;
    }

    /**
     * The events {@code piece} releases, in order.
     *
     * @throws ModelTurn.AnswerTooLongException when the turn has streamed more than its cap
     * @throws ModelTurn.ModelUnreadableException when the turn completed with nothing a model server sends when it answers
     */
    List<AgentEvent> accept(Piece piece) {
        if (piece instanceof Text text) {
            return text(text.text());
        }
        if (piece instanceof Reasoning reasoning) {
            return reasoning(reasoning.text());
        }
        if (piece instanceof ToolCallArguments arguments) {
            return toolCallStarted(arguments.partial());
        }
        return completed(((Completed) piece).response());
    }

    private List<AgentEvent> text(String text) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        count(text);
        return switch (kind) {
            case CONTENT -> List.of(new AgentEvent.Content(text));
            case THINKING -> List.of(new AgentEvent.Thinking(text));
            case UNDECIDED -> {
                held.append(text);
                yield held.length() >= lookahead ? release(Kind.CONTENT) : List.of();
            }
        };
    }

    private List<AgentEvent> reasoning(String text) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        count(text);
        return List.of(new AgentEvent.Thinking(text));
    }

    private List<AgentEvent> toolCallStarted(String partial) {
        count(partial);
        if (kind == Kind.UNDECIDED) {
            return release(Kind.THINKING);
        }
        kind = Kind.THINKING;
        return List.of();
    }

    private List<AgentEvent> completed(ChatResponse response) {
        if (unreadable(response)) {
            throw new ModelTurn.ModelUnreadableException();
        }
        if (response.finishReason() == null) {
            throw new ModelTurn.StreamEndedEarlyException();
        }
        if (kind != Kind.UNDECIDED) {
            return List.of();
        }
        AiMessage message = response.aiMessage();
        return release(message != null && message.hasToolExecutionRequests() ? Kind.THINKING : Kind.CONTENT);
    }

    /** Nothing came that a model server sends when it answers: every real answer ends with a finish reason. */
    private static boolean unreadable(ChatResponse response) {
        AiMessage message = response.aiMessage();
        boolean empty = message == null
                || (message.text() == null || message.text().isEmpty()) && !message.hasToolExecutionRequests();
        return empty && response.finishReason() == null;
    }

    /** Counts {@code piece} against the turn's cap. */
    private void count(String piece) {
        streamed += piece == null ? 0 : piece.length();
        if (streamed > maxChars) {
            throw new ModelTurn.AnswerTooLongException(maxChars);
        }
    }

    private List<AgentEvent> release(Kind decided) {
        kind = decided;
        if (held.isEmpty()) {
            return List.of();
        }
        String text = held.toString();
        held.setLength(0);
        return List.of(decided == Kind.CONTENT ? new AgentEvent.Content(text) : new AgentEvent.Thinking(text));
    }
}
