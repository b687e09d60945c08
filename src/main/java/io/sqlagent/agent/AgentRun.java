package io.sqlagent.agent;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

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
import io.sqlagent.StoredText;
import io.sqlagent.agent.ConversationStore.Message;
import io.sqlagent.security.Caller;
import io.sqlagent.tool.ExecutorOptions;
import io.sqlagent.tool.Outcome;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolExecutor;
import io.sqlagent.tool.ToolJson;
import io.sqlagent.tool.ToolResult;

/**
 * One run of the agent loop: system prompt + history + question → model turn (streamed) → tool
 * calls, run together through the {@link ToolExecutor} → results back to the model → ... until the
 * model answers, a tool stops the run, or the iteration cap (the last call offers no tools, so the
 * model answers with what it has). Every step is an event and is stored in the conversation
 * before the next one starts. Nothing blocks: each step is a {@link Uni} chained on the last, and
 * cancelling the run (client gone, run timeout) cancels the step in flight — a model stream or a
 * statement in the database.
 */
final class AgentRun {

    static final String CALLER = "agent";

    /**
     * What a run needs. {@code offered}: the names of the tools the model may call when the
     * request chose toolsets; empty when every registered tool may be called.
     */
    record Setup(StreamingChatModel model, List<ToolSpecification> tools, Optional<Set<String>> offered, ToolExecutor executor,
            ConversationStore conversations, String systemPrompt, AgentMetrics metrics, AgentConfig config) {
    }

    /** The run took longer than {@code sqlagent.agent.timeout}. */
    private static final class RunTimeout extends RuntimeException {
        RunTimeout() {
            super("run timeout", null, false, false);
        }
    }

    /** A tool call the model asked for: runnable, or with arguments that are not a JSON object. */
    private record Requested(ToolExecutionRequest request, ToolCall call, String malformed) {
    }

    /** A tool call as it ended. */
    private record Ended(Requested requested, ToolResult result, long durationMs) {
    }

    private final Setup setup;
    private final String question;
    private final Optional<UUID> continued;
    private final Caller principal;
    private final MultiEmitter<? super AgentEvent> emitter;
    private final UUID conversationId;
    private final UUID runId = UUID.randomUUID();
    private final Instant startedAt = Instant.now();
    private final long startNanos = System.nanoTime();
    private final List<ChatMessage> messages = new ArrayList<>();
    private final AtomicBoolean ended = new AtomicBoolean();

    private volatile Cancellable subscription;
    private volatile boolean clientGone;
    private int iterations;
    private long inputTokens;
    private long outputTokens;

    AgentRun(Setup setup, String question, Optional<UUID> continued, Caller principal,
            MultiEmitter<? super AgentEvent> emitter) {
        this.setup = setup;
        this.question = question;
        this.continued = continued;
        this.principal = principal;
        this.emitter = emitter;
        this.conversationId = continued.orElseGet(UUID::randomUUID);
    }

    void start() {
        emitter.onTermination(this::terminated);
        emit(new AgentEvent.Conversation(conversationId.toString()));
        messages.add(SystemMessage.from(setup.systemPrompt()));
        ConversationStore store = setup.conversations();
        Uni<Void> prepared = continued.isPresent()
                ? store.history(conversationId, setup.config().historyMessages()).invoke(this::addHistory).replaceWithVoid()
                : store.create(conversationId, question, principal.name());
        subscription = prepared
                .invoke(() -> messages.add(UserMessage.from(question)))
                .flatMap(ok -> store.append(conversationId, runId, List.of(Message.user(question))))
                .flatMap(ok -> turn())
                .ifNoItem().after(setup.config().timeout()).failWith(RunTimeout::new)
                .subscribe().with(this::finished, this::failed);
        if (clientGone) {
            subscription.cancel();
        }
    }

    private void emit(AgentEvent event) {
        emitter.emit(event);
    }

    // ---------------------------------------------------------------------------------------------
    // The loop
    // ---------------------------------------------------------------------------------------------

    /** One model call and what follows from it; the item is the stop reason. */
    private Uni<String> turn() {
        iterations++;
        boolean last = iterations >= setup.config().maxIterations();
        ChatRequest request = ChatRequest.builder()
                .messages(List.copyOf(messages))
                .toolSpecifications(last ? List.of() : setup.tools())
                .build();
        return new ModelTurn(setup.model(), request, this::emit, setup.config().thinkingLookahead(),
                setup.config().modelTimeout(), setup.config().maxAnswerChars(), last).stream()
                .flatMap(response -> answered(response, last));
    }

    private Uni<String> answered(ChatResponse response, boolean last) {
        count(response.tokenUsage());
        AiMessage message = response.aiMessage();
        String text = message.text() == null ? "" : message.text();
        if (!message.hasToolExecutionRequests() || last) {
            messages.add(AiMessage.from(text));
            return setup.conversations().append(conversationId, runId, List.of(Message.assistant(text, null)))
                    .replaceWith(last ? "max_iterations" : "answer");
        }
        List<Requested> requested = requested(message.toolExecutionRequests());
        List<ToolExecutionRequest> requests = requested.stream().map(Requested::request).toList();
        messages.add(text.isEmpty() ? AiMessage.from(requests) : AiMessage.from(text, requests));
        ArrayNode calls = ToolJson.MAPPER.createArrayNode();
        for (Requested call : requested) {
            JsonNode arguments = call.call() != null ? call.call().arguments() : TextNode.valueOf(call.request().arguments());
            emit(new AgentEvent.ToolCallEvent(call.request().id(), call.request().name(), arguments));
            calls.addObject().put("id", call.request().id()).put("name", call.request().name())
                    .put("arguments", call.request().arguments());
        }
        return setup.conversations()
                .append(conversationId, runId, List.of(Message.assistant(text.isEmpty() ? null : text, calls)))
                .flatMap(ok -> execute(requested))
                .flatMap(this::results);
    }

    /** The model's calls with ids made unique and arguments parsed; malformed ones are kept to be answered with an error. */
    private static List<Requested> requested(List<ToolExecutionRequest> requests) {
        List<Requested> result = new ArrayList<>(requests.size());
        Set<String> ids = new HashSet<>();
        for (int index = 0; index < requests.size(); index++) {
            ToolExecutionRequest request = requests.get(index);
            String id = request.id();
            if (id == null || id.isBlank() || !ids.add(id)) {
                // Some OpenAI-compatible servers leave ids out; the model needs them to match results.
                id = "call_" + (index + 1) + "_" + UUID.randomUUID().toString().substring(0, 8);
                ids.add(id);
            }
            // A NUL in a name can name no tool, and PostgreSQL cannot store it: shown as U+FFFD, answered as unknown.
            String name = request.name() == null ? "" : StoredText.clean(request.name());
            String raw = request.arguments() == null ? "" : request.arguments();
            ToolExecutionRequest normalized = ToolExecutionRequest.builder().id(id).name(name).arguments(raw).build();
            try {
                JsonNode parsed = raw.isBlank() ? ToolJson.MAPPER.createObjectNode() : ToolJson.MAPPER.readTree(raw);
                if (parsed == null || parsed.isMissingNode()) {
                    parsed = ToolJson.MAPPER.createObjectNode();
                }
                if (parsed.isObject()) {
                    result.add(new Requested(normalized, new ToolCall(id, name, (ObjectNode) parsed), null));
                } else {
                    result.add(new Requested(normalized, null, "The arguments must be a JSON object, not "
                            + parsed.getNodeType().name().toLowerCase(Locale.ROOT) + "; call " + name
                            + " again with an object"));
                }
            } catch (JsonProcessingException e) {
                result.add(new Requested(normalized, null, "The arguments are not valid JSON (" + e.getOriginalMessage()
                        + "); call " + name + " again with a JSON object"));
            }
        }
        return result;
    }

    /** Runs the well-formed calls together (read-only ones concurrently) and answers the malformed ones. */
    private Uni<List<Ended>> execute(List<Requested> requested) {
        List<ToolCall> runnable = requested.stream().filter(this::runnable).map(Requested::call).toList();
        ToolCallContext context = new ToolCallContext(CALLER, Optional.of(conversationId.toString()), principal);
        ExecutorOptions options = setup.executor().defaults().withConcurrent(true);
        Uni<List<ToolExecution>> executions = runnable.isEmpty() ? Uni.createFrom().item(List.of())
                : setup.executor().executeAll(runnable, context, options);
        return executions.map(done -> {
            List<Ended> ended = new ArrayList<>(requested.size());
            int next = 0;
            for (Requested call : requested) {
                if (call.call() == null) {
                    ended.add(new Ended(call, ToolResult.invalidArguments(call.malformed(), List.of()), 0));
                } else if (!runnable(call)) {
                    ended.add(new Ended(call, notOffered(call.call().name()), 0));
                } else {
                    ToolExecution execution = done.get(next++);
                    ended.add(new Ended(call, execution.result(), execution.duration().toMillis()));
                }
            }
            return ended;
        });
    }

    /** Well-formed, and one of the tools this run offers. */
    private boolean runnable(Requested requested) {
        return requested.call() != null && setup.offered().map(names -> names.contains(requested.call().name())).orElse(true);
    }

    private ToolResult notOffered(String name) {
        String shown = name.length() > 64 ? name.substring(0, 64) + "…" : name;
        return new ToolResult.Failure(Outcome.UNKNOWN_TOOL,
                "No tool named '" + shown + "' is offered in this chat. Available tools: "
                        + String.join(", ", setup.tools().stream().map(ToolSpecification::name).toList()),
                List.of());
    }

    private Uni<String> results(List<Ended> ended) {
        List<Message> stored = new ArrayList<>(ended.size());
        boolean stopped = false;
        for (Ended call : ended) {
            String id = call.requested().request().id();
            String name = call.requested().request().name();
            String forModel = forModel(call.result());
            emit(event(id, name, call));
            messages.add(ToolExecutionResultMessage.from(id, name, forModel));
            stored.add(Message.tool(id, name, forModel, call.result().outcome().name().toLowerCase(Locale.ROOT),
                    call.durationMs()));
            stopped |= call.result() instanceof ToolResult.Stopped;
        }
        boolean stop = stopped;
        return setup.conversations().append(conversationId, runId, stored)
                .flatMap(ok -> stop ? Uni.createFrom().item("stopped") : turn());
    }

    /** What the model reads: the result's JSON, or an error object it can act on. */
    private static String forModel(ToolResult result) {
        if (result instanceof ToolResult.Success success) {
            return success.value() == null ? "null" : success.value().toString();
        }
        ObjectNode error = ToolJson.MAPPER.createObjectNode();
        if (result instanceof ToolResult.Stopped stopped) {
            error.put("stopped", stopped.reason());
            return error.toString();
        }
        ToolResult.Failure failure = (ToolResult.Failure) result;
        error.put("error", failure.message());
        error.put("outcome", failure.outcome().name().toLowerCase(Locale.ROOT));
        if (!failure.details().isEmpty()) {
            ArrayNode details = error.putArray("details");
            failure.details().forEach(v -> details.addObject().put("argument", v.argument()).put("problem", v.problem()));
        }
        return error.toString();
    }

    private AgentEvent.ToolResultEvent event(String id, String name, Ended call) {
        int max = setup.config().eventResultMaxChars();
        ToolResult result = call.result();
        String outcome = result.outcome().name().toLowerCase(Locale.ROOT);
        if (result instanceof ToolResult.Success success) {
            JsonNode value = success.value();
            String text = value == null ? "null" : value.toString();
            if (text.length() <= max) {
                return new AgentEvent.ToolResultEvent(id, name, true, call.durationMs(), value, null, outcome, null);
            }
            return new AgentEvent.ToolResultEvent(id, name, true, call.durationMs(),
                    TextNode.valueOf(cut(text, max)), null, outcome, true);
        }
        String message = result instanceof ToolResult.Stopped stopped ? stopped.reason()
                : ((ToolResult.Failure) result).message();
        boolean truncated = message.length() > max;
        return new AgentEvent.ToolResultEvent(id, name, false, call.durationMs(), null, cut(message, max), outcome,
                truncated ? Boolean.TRUE : null);
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "…[" + (text.length() - max) + " more characters]";
    }

    private void count(TokenUsage usage) {
        if (usage != null) {
            inputTokens += usage.inputTokenCount() == null ? 0 : usage.inputTokenCount();
            outputTokens += usage.outputTokenCount() == null ? 0 : usage.outputTokenCount();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // History
    // ---------------------------------------------------------------------------------------------

    /**
     * The stored messages as the model's messages. A call whose result was never stored (its run
     * was cancelled) gets a result saying so: the model API refuses a call without one.
     */
    private void addHistory(List<Message> history) {
        for (int index = 0; index < history.size(); index++) {
            Message message = history.get(index);
            switch (message.role()) {
                case "user" -> messages.add(UserMessage.from(message.content() == null ? "" : message.content()));
                case "tool" -> messages.add(ToolExecutionResultMessage.from(message.toolCallId(), message.toolName(),
                        message.content() == null ? "" : message.content()));
                default -> index = assistant(history, index);
            }
        }
    }

    private int assistant(List<Message> history, int index) {
        Message message = history.get(index);
        JsonNode calls = message.toolCalls();
        if (calls == null || calls.isEmpty()) {
            messages.add(AiMessage.from(message.content() == null ? "" : message.content()));
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
            messages.add(ToolExecutionResultMessage.from(result.toolCallId(), result.toolName(),
                    result.content() == null ? "" : result.content()));
            next++;
        }
        for (ToolExecutionRequest request : requests) {
            if (!answered.contains(request.id())) {
                messages.add(ToolExecutionResultMessage.from(request.id(), request.name(),
                        "{\"error\":\"The call did not complete: its run was cancelled.\"}"));
            }
        }
        return next - 1;
    }

    // ---------------------------------------------------------------------------------------------
    // Endings: done, error, cancelled
    // ---------------------------------------------------------------------------------------------

    private Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private ConversationStore.Run record(String outcome, String errorCode) {
        return new ConversationStore.Run(runId, conversationId, question, startedAt, elapsed().toMillis(), iterations,
                inputTokens, outputTokens, outcome, errorCode);
    }

    private void finished(String stopReason) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        Duration took = elapsed();
        setup.metrics().run(stopReason, iterations, took, inputTokens, outputTokens);
        AgentEvent done = new AgentEvent.Done(iterations, took.toMillis(), new AgentEvent.Usage(inputTokens, outputTokens),
                stopReason);
        setup.conversations().finish(record(stopReason, null)).subscribe().with(
                ok -> {
                    emit(done);
                    emitter.complete();
                },
                failure -> {
                    Log.warnf("Run %s of conversation %s could not be recorded: %s", runId, conversationId,
                            failure.getMessage());
                    emit(done);
                    emitter.complete();
                });
    }

    private void failed(Throwable failure) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        AgentEvent.Error error = ModelErrors.describe(failure, setup.config().timeout());
        String outcome = "timeout".equals(error.code()) ? "timeout" : "error";
        setup.metrics().run(outcome, iterations, elapsed(), inputTokens, outputTokens);
        setup.conversations().finish(record(outcome, error.code())).subscribe().with(
                ok -> {
                    emit(error);
                    emitter.complete();
                },
                storeFailure -> {
                    Log.debugf("Run %s could not be recorded: %s", runId, storeFailure.getMessage());
                    emit(error);
                    emitter.complete();
                });
    }

    /** The client went away (or the stream was cancelled): stop what is in flight and record it. */
    private void terminated() {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        clientGone = true;
        Cancellable current = subscription;
        if (current != null) {
            current.cancel();
        }
        setup.metrics().run("cancelled", iterations, elapsed(), inputTokens, outputTokens);
        Log.debugf("Run %s of conversation %s cancelled by its client after %d model call(s)", runId, conversationId,
                iterations);
        setup.conversations().finish(record("cancelled", null)).subscribe().with(
                ok -> {
                },
                failure -> Log.debugf("Cancelled run %s could not be recorded: %s", runId, failure.getMessage()));
    }

    static boolean isTimeout(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RunTimeout) {
                return true;
            }
        }
        return false;
    }

    /** Whether the cause chain holds a timeout (of the model's HTTP call). */
    static boolean timedOut(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException || cause instanceof java.net.SocketTimeoutException
                    || cause.getClass().getSimpleName().contains("Timeout")) {
                return true;
            }
        }
        return false;
    }
}
