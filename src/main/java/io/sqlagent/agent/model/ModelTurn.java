package io.sqlagent.agent.model;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

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
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.sqlagent.agent.AgentEvent;

/**
 * One model call, streamed: what the model server sends is a {@link Multi} of pieces, sorted into
 * events by {@link TurnSorter} as they arrive; the complete response comes back as the
 * {@link Uni}'s item. The stream fails with {@link ModelSilentException} when no piece arrives for
 * {@code silence} (Mutiny's own no-item timeout, restarted by every piece). Whatever ends it early —
 * that timeout, the answer cap, the caller cancelling — cancels the HTTP stream through langchain4j's
 * {@link StreamingHandle}: the client of the model keeps the whole answer in memory until it ends,
 * so a model that never stops would otherwise exhaust it.
 */
public final class ModelTurn {

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

    /**
     * The model server's stream ended cleanly in the middle of the answer: text came, but no
     * finish reason (every complete answer ends with one).
     */
    static final class StreamEndedEarlyException extends RuntimeException {
        StreamEndedEarlyException() {
            super("the stream ended before the answer was finished (no finish reason)", null, false, false);
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

    /**
     * The timers of the model's silence, one thread for the service. Every piece a model streams
     * cancels its turn's timeout and schedules the next; Quarkus's default scheduler (jboss-threads'
     * {@code EnhancedQueueExecutor}) keeps a cancelled task queued until it would have run, which
     * for {@code model-timeout} (a minute by default) is one queued task for every piece streamed in
     * the last minute, by every run. These are removed when cancelled. A task only fails a stream,
     * which never blocks.
     */
    public static ScheduledThreadPoolExecutor newSilenceTimers() {
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "sqlagent-model-silence");
            thread.setDaemon(true);
            return thread;
        });
        timers.setRemoveOnCancelPolicy(true);
        return timers;
    }

    private final StreamingChatModel model;
    private final ScheduledExecutorService timers;
    private final ChatRequest request;
    private final Consumer<AgentEvent> events;
    private final int lookahead;
    private final Duration silence;
    private final int maxChars;
    private final boolean answerOnly;

    public ModelTurn(StreamingChatModel model, ScheduledExecutorService timers, ChatRequest request,
            Consumer<AgentEvent> events,
            int lookahead, Duration silence, int maxChars, boolean answerOnly) {
        this.model = model;
        this.timers = timers;
        this.request = request;
        this.events = events;
        this.lookahead = lookahead;
        this.silence = silence;
        this.maxChars = maxChars;
        this.answerOnly = answerOnly;
    }

    /** The model's response, its text sent as events on the way; cancelling it stops the model's stream. */
    public Uni<ChatResponse> stream() {
        TurnSorter sorter = new TurnSorter(lookahead, maxChars, answerOnly);
        Multi<TurnSorter.Piece> attempt = pieces()
                .ifNoItem().after(silence).on(timers).failWith(() -> new ModelSilentException(silence));
        return guarded(attempt)
                .onItem().invoke(piece -> sorter.accept(piece).forEach(events))
                .onFailure(StreamEndedEarlyException.class).transform(ended -> new ModelResilience.ModelInterruptedException(
                        model instanceof ChatModels.ResilientModel resilient ? resilient.name() : "server", ended))
                .collect().last()
                .map(ModelTurn::response)
                .invoke(this::answered);
    }

    /** Tells {@link ChatModels} which model the server says answered (the chat page's header shows it). */
    private void answered(ChatResponse response) {
        if (model instanceof ChatModels.ResilientModel resilient) {
            resilient.answered(response);
        }
    }

    /** Retries and the circuit breaker of {@link ModelResilience}, when the model has them ({@link ChatModels}). */
    private Multi<TurnSorter.Piece> guarded(Multi<TurnSorter.Piece> attempt) {
        if (!(model instanceof ChatModels.ResilientModel resilient)) {
            return attempt;
        }
        return resilient.resilience().protect(resilient.name(), attempt);
    }

    private static ChatResponse response(TurnSorter.Piece last) {
        if (last instanceof TurnSorter.Completed completed) {
            return completed.response();
        }
        throw new IllegalStateException("the model's stream ended without its response");
    }

    /** The model server's stream as pieces, ending with the whole response; cancelling it cancels the call. */
    private Multi<TurnSorter.Piece> pieces() {
        return Multi.createFrom().<TurnSorter.Piece> emitter(this::call, BackPressureStrategy.BUFFER);
    }

    private void call(MultiEmitter<? super TurnSorter.Piece> emitter) {
        AtomicBoolean over = new AtomicBoolean();
        AtomicReference<StreamingHandle> handle = new AtomicReference<>();
        emitter.onTermination(() -> {
            if (over.compareAndSet(false, true)) {
                // Ended from downstream (silence, the answer cap, the run cancelled): stop reading the model.
                StreamingHandle current = handle.get();
                if (current != null) {
                    current.cancel();
                }
            }
        });
        try {
            model.chat(request, new StreamingChatResponseHandler() {
                @Override
                public void onPartialResponse(String text) {
                    if (!over.get()) {
                        emitter.emit(new TurnSorter.Text(text));
                    }
                }

                @Override
                public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
                    if (remember(context.streamingHandle())) {
                        emitter.emit(new TurnSorter.Text(partial.text()));
                    }
                }

                @Override
                public void onPartialThinking(PartialThinking thinking) {
                    if (!over.get()) {
                        emitter.emit(new TurnSorter.Reasoning(thinking.text()));
                    }
                }

                @Override
                public void onPartialThinking(PartialThinking thinking, PartialThinkingContext context) {
                    if (remember(context.streamingHandle())) {
                        emitter.emit(new TurnSorter.Reasoning(thinking.text()));
                    }
                }

                @Override
                public void onPartialToolCall(PartialToolCall call) {
                    if (!over.get()) {
                        emitter.emit(new TurnSorter.ToolCallArguments(call.partialArguments()));
                    }
                }

                @Override
                public void onPartialToolCall(PartialToolCall call, PartialToolCallContext context) {
                    if (remember(context.streamingHandle())) {
                        emitter.emit(new TurnSorter.ToolCallArguments(call.partialArguments()));
                    }
                }

                @Override
                public void onCompleteResponse(ChatResponse response) {
                    if (over.compareAndSet(false, true)) {
                        emitter.emit(new TurnSorter.Completed(response));
                        emitter.complete();
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
}
