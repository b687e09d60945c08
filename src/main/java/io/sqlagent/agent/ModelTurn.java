package io.sqlagent.agent;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialThinkingContext;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.PartialToolCallContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * One model call, streamed: text and reasoning go out as events while they arrive, the complete
 * response comes back as the {@link Uni}'s item. Cancelling the {@code Uni} cancels the HTTP
 * stream. Text is sorted into {@code thinking} (said before tool calls) and {@code content} (the
 * answer): it is held until a tool call starts (thinking), the turn ends (thinking if it called
 * tools, else content) or {@code lookahead} characters arrived without a tool call (content, sent
 * from then on as it comes). A turn offered no tools can only answer, so it streams at once. A
 * turn that streams more than {@code maxChars} is stopped there: the client of the model keeps the
 * whole answer in memory until it ends, so a model that never stops would otherwise exhaust it.
 */
final class ModelTurn {

    /** The model call failed (HTTP error, timeout, malformed stream). */
    static final class ModelCallException extends RuntimeException {
        ModelCallException(Throwable cause) {
            super(cause.getMessage(), cause);
        }
    }

    /**
     * The model server's stream could not be read: it ended with no text, no tool call and no
     * finish reason. The client reports a chunk it cannot parse only to Vert.x's log and goes on,
     * so an unreadable stream otherwise looks like an empty answer.
     */
    static final class ModelUnreadableException extends RuntimeException {
        ModelUnreadableException() {
            super("The model server sent a stream that could not be read: it ended without an answer, a tool call or a finish"
                    + " reason (the service log has the parser's error)", null, false, false);
        }
    }

    /** The model server sent nothing for longer than the allowed silence. */
    static final class ModelSilentException extends RuntimeException {
        final Duration silence;

        ModelSilentException(Duration silence) {
            super("the model server sent nothing for " + silence.toSeconds() + " s", null, false, false);
            this.silence = silence;
        }
    }

    /** The model streamed more than the allowed characters in one turn. */
    static final class AnswerTooLongException extends RuntimeException {
        final int limit;

        AnswerTooLongException(int limit) {
            super("the model's answer passed " + limit + " characters", null, false, false);
            this.limit = limit;
        }
    }

    private enum Kind {
        UNDECIDED,
        THINKING,
        CONTENT
    }

    private final StreamingChatModel model;
    private final ChatRequest request;
    private final Consumer<AgentEvent> events;
    private final int lookahead;
    private final Duration silence;
    private final int maxChars;
    private volatile long lastHeard = System.nanoTime();
    /** Characters streamed so far (text, reasoning, tool-call arguments); only the model's callbacks add to it. */
    private long streamed;
    /** Ends the turn with {@link AnswerTooLongException}; set when the call starts. */
    private volatile Runnable tooLong = () -> {
    };

    private final StringBuilder held = new StringBuilder();
    private Kind kind;

    ModelTurn(StreamingChatModel model, ChatRequest request, Consumer<AgentEvent> events, int lookahead, Duration silence,
            int maxChars, boolean answerOnly) {
        this.model = model;
        this.silence = silence;
        this.maxChars = maxChars;
        this.request = request;
        this.events = events;
        this.lookahead = lookahead;
        this.kind = answerOnly ? Kind.CONTENT : Kind.UNDECIDED;
    }

    Uni<ChatResponse> stream() {
        return Uni.createFrom().<ChatResponse> emitter(this::call);
    }

    private void call(UniEmitter<? super ChatResponse> emitter) {
        AtomicBoolean over = new AtomicBoolean();
        AtomicReference<StreamingHandle> handle = new AtomicReference<>();
        Runnable stop = () -> {
            StreamingHandle current = handle.get();
            if (current != null) {
                current.cancel();
            }
        };
        long checkEvery = Math.max(10, silence.toMillis() / 4);
        ScheduledFuture<?> watchdog = Infrastructure.getDefaultWorkerPool().scheduleAtFixedRate(() -> {
            if (System.nanoTime() - lastHeard > silence.toNanos() && over.compareAndSet(false, true)) {
                stop.run();
                emitter.fail(new ModelSilentException(silence));
            }
        }, checkEvery, checkEvery, TimeUnit.MILLISECONDS);
        tooLong = () -> {
            if (over.compareAndSet(false, true)) {
                // Stop reading: langchain4j would otherwise gather the whole answer in memory.
                stop.run();
                emitter.fail(new AnswerTooLongException(maxChars));
            }
        };
        emitter.onTermination(() -> {
            watchdog.cancel(false);
            if (over.compareAndSet(false, true)) {
                // Cancelled from downstream (client gone, run timeout): stop reading the model.
                stop.run();
            }
        });
        try {
            model.chat(request, new StreamingChatResponseHandler() {
                @Override
                public void onPartialResponse(String text) {
                    if (!over.get()) {
                        text(text);
                    }
                }

                @Override
                public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
                    if (remember(context.streamingHandle())) {
                        text(partial.text());
                    }
                }

                @Override
                public void onPartialThinking(PartialThinking thinking) {
                    if (!over.get()) {
                        reasoning(thinking.text());
                    }
                }

                @Override
                public void onPartialThinking(PartialThinking thinking, PartialThinkingContext context) {
                    if (remember(context.streamingHandle())) {
                        reasoning(thinking.text());
                    }
                }

                @Override
                public void onPartialToolCall(PartialToolCall call) {
                    if (!over.get() && within(call.partialArguments())) {
                        toolCallStarted();
                    }
                }

                @Override
                public void onPartialToolCall(PartialToolCall call, PartialToolCallContext context) {
                    if (remember(context.streamingHandle()) && within(call.partialArguments())) {
                        toolCallStarted();
                    }
                }

                @Override
                public void onCompleteResponse(ChatResponse response) {
                    if (over.compareAndSet(false, true)) {
                        if (unreadable(response)) {
                            emitter.fail(new ModelUnreadableException());
                            return;
                        }
                        complete(response);
                        emitter.complete(response);
                    }
                }

                @Override
                public void onError(Throwable error) {
                    if (over.compareAndSet(false, true)) {
                        emitter.fail(new ModelCallException(error));
                    }
                }

                /** Keeps the handle for cancelling; false (and cancels) when the turn is already over. */
                private boolean remember(StreamingHandle streamingHandle) {
                    handle.compareAndSet(null, streamingHandle);
                    if (over.get()) {
                        streamingHandle.cancel();
                        return false;
                    }
                    return true;
                }
            });
        } catch (RuntimeException e) {
            if (over.compareAndSet(false, true)) {
                emitter.fail(new ModelCallException(e));
            }
        }
    }

    /** Nothing came that a model server sends when it answers: every real answer ends with a finish reason. */
    private static boolean unreadable(ChatResponse response) {
        AiMessage message = response.aiMessage();
        boolean empty = message == null
                || (message.text() == null || message.text().isEmpty()) && !message.hasToolExecutionRequests();
        return empty && response.finishReason() == null;
    }

    /** Counts {@code piece} against the turn's cap; false (and the turn ended) once it is passed. */
    private synchronized boolean within(String piece) {
        streamed += piece == null ? 0 : piece.length();
        if (streamed > maxChars) {
            tooLong.run();
            return false;
        }
        return true;
    }

    private synchronized void text(String text) {
        lastHeard = System.nanoTime();
        if (text == null || text.isEmpty() || !within(text)) {
            return;
        }
        switch (kind) {
            case CONTENT -> events.accept(new AgentEvent.Content(text));
            case THINKING -> events.accept(new AgentEvent.Thinking(text));
            default -> {
                held.append(text);
                if (held.length() >= lookahead) {
                    release(Kind.CONTENT);
                }
            }
        }
    }

    private void reasoning(String text) {
        lastHeard = System.nanoTime();
        if (text != null && !text.isEmpty() && within(text)) {
            events.accept(new AgentEvent.Thinking(text));
        }
    }

    private synchronized void toolCallStarted() {
        lastHeard = System.nanoTime();
        if (kind == Kind.UNDECIDED) {
            release(Kind.THINKING);
        } else if (kind == Kind.CONTENT) {
            kind = Kind.THINKING;
        }
    }

    private synchronized void complete(ChatResponse response) {
        if (kind == Kind.UNDECIDED) {
            release(response.aiMessage() != null && response.aiMessage().hasToolExecutionRequests() ? Kind.THINKING
                    : Kind.CONTENT);
        }
    }

    private void release(Kind decided) {
        kind = decided;
        if (held.length() > 0) {
            String text = held.toString();
            held.setLength(0);
            events.accept(decided == Kind.CONTENT ? new AgentEvent.Content(text) : new AgentEvent.Thinking(text));
        }
    }
}
