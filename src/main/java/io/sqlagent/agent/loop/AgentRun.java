package io.sqlagent.agent.loop;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.sqlagent.Caller;
import io.sqlagent.CancelSafe;
import io.sqlagent.agent.AgentConfig;
import io.sqlagent.agent.AgentEvent;
import io.sqlagent.agent.AgentMetrics;
import io.sqlagent.agent.RunTimeout;
import io.sqlagent.agent.conversation.ConversationStore;
import io.sqlagent.agent.conversation.ConversationStore.Message;
import io.sqlagent.agent.conversation.HistoryReplay;
import io.sqlagent.agent.loop.RequestedCalls.Ended;
import io.sqlagent.agent.loop.RequestedCalls.Requested;
import io.sqlagent.agent.loop.RunEnding.StopReason;
import io.sqlagent.agent.model.ModelErrors;
import io.sqlagent.agent.model.ModelTurn;
import io.sqlagent.agent.model.TurnSorter;
import io.sqlagent.tool.ExecutorOptions;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolExecutor;
import io.sqlagent.tool.ToolResult;

/**
 * One run of the agent loop: system prompt + history + question → model turn (streamed) → tool
 * calls, run together through the {@link ToolExecutor} → results back to the model → ... until the
 * model answers, a tool stops the run, or the iteration cap (the last call offers no tools, so the
 * model answers with what it has). Every step is an event and is stored in the conversation
 * before the next one starts. Nothing blocks: each step is a {@link Uni} chained on the last, and
 * cancelling the run (client gone, run timeout) cancels the step in flight — a model stream or a
 * statement in the database. This class holds the loop and its state; what it builds on is pure
 * and tested alone: {@link HistoryReplay}, {@link RequestedCalls}, {@link ToolResultViews},
 * {@link TurnSorter}, {@link RunEnding}.
 */
public final class AgentRun {

    static final String CALLER = "agent";

    /**
     * What a run needs. {@code offered}: the names of the tools the model may call when the
     * request chose toolsets; empty when every registered tool may be called.
     */
    public record Setup(StreamingChatModel model, ScheduledExecutorService silenceTimers, List<ToolSpecification> tools,
            Optional<Set<String>> offered, ToolExecutor executor,
            ConversationStore conversations, String systemPrompt, AgentMetrics metrics, AgentConfig config,
            RunTrace.Setup trace) {
    }

    private final Setup setup;
    private final String question;
    private final Optional<UUID> continued;
    private final Caller principal;
    private final MultiEmitter<? super AgentEvent> emitter;
    private final UUID conversationId;
    private final UUID runId;
    private final Instant startedAt = Instant.now();
    private final long startNanos = System.nanoTime();
    private final List<ChatMessage> messages = new ArrayList<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final RunTrace trace;

    private volatile Cancellable subscription;
    private volatile boolean clientGone;
    private int iterations;
    private long inputTokens;
    private long outputTokens;

    public AgentRun(Setup setup, UUID runId, String question, Optional<UUID> continued, Caller principal,
            MultiEmitter<? super AgentEvent> emitter) {
        this.setup = setup;
        this.runId = runId;
        this.question = question;
        this.continued = continued;
        this.principal = principal;
        this.emitter = emitter;
        this.conversationId = continued.orElseGet(UUID::randomUUID);
        this.trace = new RunTrace(setup.trace(), conversationId);
    }

    public void start() {
        trace.start();
        emitter.onTermination(() -> end(new RunEnding.Cancelled()));
        emitter.emit(new AgentEvent.Conversation(conversationId.toString()));
        messages.add(SystemMessage.from(setup.systemPrompt()));
        subscription = trace.within(then(prepare(), this::storeQuestion)
                .ifNoItem().after(setup.config().timeout()).failWith(RunTimeout::new))
                .subscribe().with(
                        reason -> end(new RunEnding.Finished(reason)),
                        failure -> trace.run(() -> end(new RunEnding.Failed(
                                ModelErrors.describe(failure, setup.config().timeout())))));
        if (clientGone) {
            subscription.cancel();
        }
    }

    /**
     * {@code step}, then {@code next} with its item. Every step may end on another thread than the
     * one a cancel comes from (the model's stream, the database, a worker running a blocking tool),
     * and Mutiny's {@code flatMap} loses a cancel that races the item: {@link CancelSafe} does not.
     */
    private static <T, R> Uni<R> then(Uni<T> step, Function<? super T, Uni<? extends R>> next) {
        return CancelSafe.then(step, next);
    }

    // ---------------------------------------------------------------------------------------------
    // The loop
    // ---------------------------------------------------------------------------------------------

    /**
     * A new conversation with its question, or the history of the one continued as the model's messages; true
     * when the question is stored already.
     */
    private Uni<Boolean> prepare() {
        ConversationStore store = setup.conversations();
        if (continued.isEmpty()) {
            return store.create(conversationId, runId, question, principal.name()).replaceWith(true);
        }
        return store.history(conversationId, setup.config().historyMessages())
                .invoke(history -> messages.addAll(HistoryReplay.messages(history)))
                .replaceWith(false);
    }

    private Uni<StopReason> storeQuestion(boolean stored) {
        messages.add(UserMessage.from(question));
        if (stored) {
            return callModel();
        }
        return then(setup.conversations().append(conversationId, runId, List.of(Message.user(question))), ok -> callModel());
    }

    /** One model call and what follows from it; the item is why the run stopped. */
    private Uni<StopReason> callModel() {
        iterations++;
        boolean last = iterations >= setup.config().maxIterations();
        ChatRequest request = ChatRequest.builder()
                .messages(List.copyOf(messages))
                .toolSpecifications(last ? List.of() : setup.tools())
                .build();
        AgentConfig config = setup.config();
        ModelTurn model = new ModelTurn(setup.model(), setup.silenceTimers(), request, emitter::emit,
                config.thinkingLookahead(),
                config.modelTimeout(), config.maxAnswerChars(), last);
        return then(trace.modelCall(model.stream()), response -> handleResponse(response, last));
    }

    private Uni<StopReason> handleResponse(ChatResponse response, boolean last) {
        countTokens(response.tokenUsage());
        AiMessage message = response.aiMessage();
        String text = message.text() == null ? "" : message.text();
        if (!message.hasToolExecutionRequests() || last) {
            messages.add(AiMessage.from(text));
            return setup.conversations().append(conversationId, runId, List.of(Message.assistant(text, null)))
                    .replaceWith(last ? StopReason.MAX_ITERATIONS : StopReason.ANSWER);
        }
        List<Requested> requested = RequestedCalls.normalized(message.toolExecutionRequests());
        List<ToolExecutionRequest> requests = requested.stream().map(Requested::request).toList();
        messages.add(text.isEmpty() ? AiMessage.from(requests) : AiMessage.from(text, requests));
        requested.forEach(call -> emitter.emit(new AgentEvent.ToolCallEvent(call.id(), call.name(), call.eventArguments())));
        // Stored with the results, in one round trip: a call and its results are one step of the conversation.
        Message asked = Message.assistant(text.isEmpty() ? null : text, RequestedCalls.stored(requested));
        return then(execute(requested), ended -> sendResults(asked, ended));
    }

    /** Runs the well-formed, offered calls together (read-only ones concurrently) and answers the others. */
    private Uni<List<Ended>> execute(List<Requested> requested) {
        List<ToolCall> runnable = RequestedCalls.runnable(requested, this::offered);
        ToolCallContext context = new ToolCallContext(CALLER, Optional.of(conversationId.toString()), principal);
        ExecutorOptions options = setup.executor().defaults().withConcurrent(true);
        Uni<List<ToolExecution>> executions = runnable.isEmpty() ? Uni.createFrom().item(List.of())
                : trace.call(() -> setup.executor().executeAll(runnable, context, options));
        List<String> toolNames = setup.tools().stream().map(ToolSpecification::name).toList();
        return executions.map(done -> RequestedCalls.ended(requested, this::offered, done, toolNames));
    }

    private boolean offered(String toolName) {
        return setup.offered().map(names -> names.contains(toolName)).orElse(true);
    }

    /**
     * Sends each result, stores the model's calls ({@code asked}) and the results, gives them to the model, and goes on
     * with the next turn unless a tool stopped the run.
     */
    private Uni<StopReason> sendResults(Message asked, List<Ended> ended) {
        List<Message> stored = new ArrayList<>(ended.size() + 1);
        stored.add(asked);
        boolean stopped = false;
        int max = setup.config().eventResultMaxChars();
        for (Ended call : ended) {
            String id = call.requested().id();
            String name = call.requested().name();
            String forModel = ToolResultViews.forModel(call.result());
            emitter.emit(ToolResultViews.event(id, name, call.result(), forModel, call.durationMs(), max));
            messages.add(ToolExecutionResultMessage.from(id, name, forModel));
            stored.add(Message.tool(id, name, forModel, ToolResultViews.outcomeName(call.result()), call.durationMs()));
            stopped |= call.result() instanceof ToolResult.Stopped;
        }
        Uni<Void> saved = setup.conversations().append(conversationId, runId, stored);
        return stopped ? saved.replaceWith(StopReason.STOPPED) : then(saved, ok -> callModel());
    }

    private void countTokens(TokenUsage usage) {
        if (usage != null) {
            inputTokens += usage.inputTokenCount() == null ? 0 : usage.inputTokenCount();
            outputTokens += usage.outputTokenCount() == null ? 0 : usage.outputTokenCount();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The end
    // ---------------------------------------------------------------------------------------------

    /**
     * Ends the run, once, however it ended: a cancelled run stops the step in flight; the run is
     * measured and recorded, and then its last event (if anyone is left to read it) is sent, so a
     * client that reads the conversation after {@code done} sees all of it.
     */
    private void end(RunEnding ending) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        if (ending instanceof RunEnding.Cancelled) {
            cancelStepInFlight();
        }
        RunEnding.Tally tally = new RunEnding.Tally(iterations, Duration.ofNanos(System.nanoTime() - startNanos),
                inputTokens, outputTokens);
        trace.end(ending, tally);
        setup.metrics().run(ending.outcome(), tally.iterations(), tally.duration(), tally.inputTokens(),
                tally.outputTokens());
        Optional<AgentEvent> last = ending.lastEvent(tally).map(trace::named);
        setup.conversations().finish(ending.record(runId, conversationId, question, startedAt, tally)).subscribe().with(
                ok -> sendLast(last),
                failure -> trace.run(() -> {
                    // A failed or cancelled run often failed for the same reason (the store): the run's own ending says it.
                    if (ending instanceof RunEnding.Finished) {
                        Log.warnf("Run %s of conversation %s could not be recorded: %s", runId, conversationId,
                                failure.getMessage());
                    } else {
                        Log.debugf("Run %s of conversation %s (%s) could not be recorded: %s", runId, conversationId,
                                ending.outcome(), failure.getMessage());
                    }
                    sendLast(last);
                }));
    }

    /**
     * Ends the run from outside (the service is shutting down): the step in flight is cancelled,
     * the run is recorded as failed with {@code error}, and {@code error} is its last event.
     */
    public void stop(AgentEvent.Error error) {
        if (ended.get()) {
            return;
        }
        Cancellable current = subscription;
        if (current != null) {
            current.cancel();
        }
        end(new RunEnding.Failed(error));
    }

    /** The client went away (or its stream was closed): stop what is in flight. */
    private void cancelStepInFlight() {
        clientGone = true;
        Cancellable current = subscription;
        if (current != null) {
            current.cancel();
        }
        trace.run(() -> Log.debugf("Run %s of conversation %s cancelled by its client after %d model call(s)", runId,
                conversationId, iterations));
    }

    private void sendLast(Optional<AgentEvent> last) {
        if (last.isPresent()) {
            emitter.emit(last.get());
            emitter.complete();
        }
    }
}
