package io.sqlagent.agent.loop;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.sqlagent.Caller;
import io.sqlagent.agent.AgentConfig;
import io.sqlagent.agent.AgentEvent;
import io.sqlagent.agent.AgentMetrics;
import io.sqlagent.agent.conversation.ConversationStore;
import io.sqlagent.agent.model.ChatModels;
import io.sqlagent.agent.model.ModelTurn;
import io.sqlagent.tool.BrowseTools;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolExecutor;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.ToolScopes;
import io.sqlagent.trace.Tracing;

/**
 * Runs the agent: a question (new or in a conversation) in, a stream of {@link AgentEvent}s out.
 * The loop itself is {@link AgentRun}; this bean holds what runs share and decides, before any
 * event, whether a run can start at all.
 */
@ApplicationScoped
public class AgentService {

    private final ChatModels models;
    private final ToolRegistry registry;
    private final ToolExecutor executor;
    private final ConversationStore conversations;
    private final SystemPrompt systemPrompt;
    private final AgentMetrics metrics;
    private final AgentConfig config;
    /** For {@link ModelTurn}'s silence timeouts: see {@link ModelTurn#newSilenceTimers()}. */
    private final ScheduledExecutorService silenceTimers;
    private final ToolScopes scopes;
    private final Tracing tracing;
    private final ToolSpecificationCache specifications;

    AgentService(ChatModels models, ToolRegistry registry, ToolExecutor executor, ConversationStore conversations,
            SystemPrompt systemPrompt, AgentMetrics metrics, AgentConfig config, ToolScopes scopes, Tracing tracing) {
        this.scopes = scopes;
        this.tracing = tracing;
        this.models = models;
        this.registry = registry;
        this.specifications = new ToolSpecificationCache(registry);
        this.executor = executor;
        this.conversations = conversations;
        this.systemPrompt = systemPrompt;
        this.metrics = metrics;
        this.config = config;
        this.silenceTimers = ModelTurn.newSilenceTimers();
    }

    @PreDestroy
    void stop() {
        silenceTimers.shutdownNow();
    }

    /**
     * What a chat request leads to: a stream of events, or no run because the conversation is
     * unknown. {@code stop} ends a run that has begun with the error given as its last event.
     */
    public record Start(UUID runId, Multi<AgentEvent> events, boolean conversationFound,
            Consumer<AgentEvent.Error> stop) {

        static Start of(Multi<AgentEvent> events, boolean conversationFound) {
            return new Start(UUID.randomUUID(), events, conversationFound, error -> {
            });
        }
    }

    /**
     * Prepares a run of {@code question}, continuing {@code conversationId} when given. Nothing
     * happens until the events are subscribed to; cancelling the subscription cancels the run,
     * including a statement running in the database. The run's tool calls are {@code caller}'s: the
     * model is offered only the tools it may call, and a conversation of another principal is not found.
     */
    public Uni<Start> start(String question, Optional<UUID> conversationId, Caller caller) {
        return start(question, conversationId, caller, List.of());
    }

    /**
     * Like {@link #start(String, Optional, Caller)}, offering the model only the tools of the named
     * toolsets (all tools when {@code toolsets} is empty); a call of any other tool is answered as
     * an unknown tool.
     *
     * @throws io.sqlagent.tool.UnknownToolsetException naming every unknown toolset, before anything else happens
     */
    public Uni<Start> start(String question, Optional<UUID> conversationId, Caller caller, List<String> toolsets) {
        List<ToolDescriptor> offered = scopes.visible(caller, offered(toolsets));
        ChatModels.Model model = models.model();
        if (model.model().isEmpty()) {
            metrics.run("model_not_configured", 0, java.time.Duration.ZERO, 0, 0);
            return Uni.createFrom().item(Start.of(Multi.createFrom().item(
                    new AgentEvent.Error("model_not_configured", model.problem(), Tracing.currentTraceId())), true));
        }
        // The request's span: the run's is its child, whichever thread the run starts on.
        RunTrace.Setup trace = new RunTrace.Setup(tracing, Context.current(), models.name().orElse(""));
        Uni<Boolean> found = conversationId.isEmpty() ? Uni.createFrom().item(true)
                : conversations.exists(conversationId.get(), caller.name());
        return found.map(exists -> {
            if (!exists) {
                return Start.of(Multi.createFrom().empty(), false);
            }
            Optional<Set<String>> restricted = toolsets.isEmpty() ? Optional.empty()
                    : Optional.of(offered.stream().map(ToolDescriptor::name).collect(Collectors.toUnmodifiableSet()));
            AgentRun.Setup setup = new AgentRun.Setup(model.model().get(), silenceTimers, specifications.of(offered),
                    restricted, executor,
                    conversations, systemPrompt.render(), metrics, config, trace);
            UUID runId = UUID.randomUUID();
            AtomicReference<AgentRun> begun = new AtomicReference<>();
            Multi<AgentEvent> events = Multi.createFrom().emitter(emitter -> {
                AgentRun run = new AgentRun(setup, runId, question, conversationId, caller, emitter);
                begun.set(run);
                run.start();
            }, BackPressureStrategy.BUFFER);
            return new Start(runId, events, true, error -> {
                AgentRun run = begun.get();
                if (run != null) {
                    run.stop(error);
                }
            });
        });
    }

    /**
     * The tools offered to the model: those of the toolsets, or every registered tool, but the
     * catalogue browser (the model gets the tools themselves anyway) and the reviewers' tools
     * ({@link ReviewersOnly} refuses them to the agent, should it name one anyway).
     */
    private List<ToolDescriptor> offered(List<String> toolsets) {
        return registry.list(toolsets).stream()
                .filter(descriptor -> !BrowseTools.NAME.equals(descriptor.name()))
                .filter(descriptor -> !scopes.forReviewers(descriptor))
                .toList();
    }
}
