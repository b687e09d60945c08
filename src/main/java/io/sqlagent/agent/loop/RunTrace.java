package io.sqlagent.agent.loop;

import java.util.UUID;
import java.util.function.Supplier;

import dev.langchain4j.model.chat.response.ChatResponse;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.smallrye.mutiny.Uni;
import io.sqlagent.agent.AgentEvent;
import io.sqlagent.agent.model.ModelCallSpan;
import io.sqlagent.trace.Tracing;

/**
 * The trace of one agent run: its span ({@code invoke_agent sqlagent}, a child of the chat
 * request's HTTP span), the parent of its model calls ({@link ModelCallSpan}) and tool calls, and
 * the trace id its last event names. A run's steps end on other threads than they began on, so
 * the run's context is made current explicitly where a step starts and where the run logs.
 */
public final class RunTrace {

    /** What every run's trace starts from: the tracing, the span the request was in, the model's name. */
    public record Setup(Tracing tracing, Context parent, String model) {
    }

    static final String AGENT_NAME = "sqlagent";
    static final AttributeKey<String> AGENT = AttributeKey.stringKey("gen_ai.agent.name");
    static final AttributeKey<String> CONVERSATION = AttributeKey.stringKey("gen_ai.conversation.id");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("sqlagent.run.outcome");
    static final AttributeKey<Long> ITERATIONS = AttributeKey.longKey("sqlagent.run.iterations");

    private final Setup setup;
    private final UUID conversationId;
    private volatile Span span = Span.getInvalid();
    private volatile Context context;

    RunTrace(Setup setup, UUID conversationId) {
        this.setup = setup;
        this.conversationId = conversationId;
        this.context = setup.parent();
    }

    /** Starts the run's span. */
    void start() {
        span = setup.tracing().tracer().spanBuilder("invoke_agent " + AGENT_NAME)
                .setParent(setup.parent())
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(ModelCallSpan.OPERATION, "invoke_agent")
                .setAttribute(AGENT, AGENT_NAME)
                .setAttribute(ModelCallSpan.PROVIDER, "openai")
                .setAttribute(ModelCallSpan.REQUEST_MODEL, setup.model())
                .setAttribute(CONVERSATION, conversationId.toString())
                .startSpan();
        context = setup.parent().with(span);
    }

    /** The run's trace id, or {@code null} when OpenTelemetry is disabled. */
    String traceId() {
        return Tracing.traceId(context);
    }

    /** {@code step}, subscribed inside the run's trace. */
    <T> Uni<T> within(Uni<T> step) {
        return Tracing.within(context, step);
    }

    /** A model call of the run, with its own span. */
    Uni<ChatResponse> modelCall(Uni<ChatResponse> call) {
        return ModelCallSpan.traced(setup.tracing(), context, setup.model(), call);
    }

    /** What {@code start} builds, built inside the run's trace (tool calls take their parent from it). */
    <T> T call(Supplier<T> start) {
        try (Scope ignored = context.makeCurrent()) {
            return start.get();
        }
    }

    /** Runs {@code action} inside the run's trace, so its log lines carry the trace id. */
    void run(Runnable action) {
        try (Scope ignored = context.makeCurrent()) {
            action.run();
        }
    }

    /** Ends the run's span with what the run came to. */
    void end(RunEnding ending, RunEnding.Tally tally) {
        Span current = span;
        current.setAttribute(OUTCOME, ending.outcome());
        current.setAttribute(ITERATIONS, (long) tally.iterations());
        current.setAttribute(ModelCallSpan.INPUT_TOKENS, tally.inputTokens());
        current.setAttribute(ModelCallSpan.OUTPUT_TOKENS, tally.outputTokens());
        if (ending instanceof RunEnding.Failed failed) {
            Tracing.failed(current, failed.errorCode(), failed.error().message());
        }
        current.end();
    }

    /** The run's last event, naming the run's trace. */
    AgentEvent named(AgentEvent last) {
        String id = traceId();
        if (last instanceof AgentEvent.Done done) {
            return done.withTraceId(id);
        }
        if (last instanceof AgentEvent.Error error) {
            return error.withTraceId(id);
        }
        return last;
    }
}
