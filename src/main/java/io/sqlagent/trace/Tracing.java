package io.sqlagent.trace;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.sqlagent.MessageText;
import io.sqlagent.Redaction;

/**
 * The service's spans (one trace per question: the HTTP request, the agent run, each model call,
 * each tool call, each SQL statement) and the few helpers that carry a span across the reactive
 * steps of a run. A run hops between the model's stream, the database's event loop and worker
 * threads, where the "current" span is whatever the thread last had: so the parent of every span
 * is handed on explicitly, and a step is subscribed with its span current ({@link #within}), which
 * is also what puts the trace id into the MDC of the step's log lines.
 */
@ApplicationScoped
public class Tracing {

    /** The instrumentation scope of the service's own spans. */
    public static final String SCOPE = "io.sqlagent";

    /** {@code error.type} of the OpenTelemetry semantic conventions: why an operation failed. */
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    /** {@code gen_ai.operation.name} of the GenAI conventions: {@code invoke_agent}, {@code chat}, {@code execute_tool}. */
    public static final AttributeKey<String> GEN_AI_OPERATION = AttributeKey.stringKey("gen_ai.operation.name");

    /** {@code gen_ai.tool.name} of the GenAI (and MCP) conventions. */
    public static final AttributeKey<String> GEN_AI_TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");

    private static final Tracing NOOP = new Tracing(OpenTelemetry.noop().getTracer(SCOPE), false);

    private final Tracer tracer;
    private final boolean statementText;

    @Inject
    Tracing(OpenTelemetry openTelemetry, TracingConfig config) {
        this(openTelemetry.getTracer(SCOPE), config.statementText());
    }

    private Tracing(Tracer tracer, boolean statementText) {
        this.tracer = tracer;
        this.statementText = statementText;
    }

    /** Spans that go nowhere, for what is built outside CDI (tests, benchmarks). */
    public static Tracing noop() {
        return NOOP;
    }

    /** The service's tracer. */
    public Tracer tracer() {
        return tracer;
    }

    /** Whether SQL spans carry the statement's text ({@code sqlagent.tracing.statement-text}). */
    public boolean statementText() {
        return statementText;
    }

    /** The trace id of {@code context}'s span, or {@code null} when it has none. */
    public static String traceId(Context context) {
        SpanContext span = Span.fromContext(context).getSpanContext();
        return span.isValid() ? span.getTraceId() : null;
    }

    /** The trace id of the current span, or {@code null} when there is none. */
    public static String currentTraceId() {
        return traceId(Context.current());
    }

    /**
     * {@code uni}, subscribed with {@code context} current: whatever the step starts while it is
     * being subscribed (a span, a log line, the HTTP call to the model) belongs to that context.
     */
    public static <T> Uni<T> within(Context context, Uni<T> uni) {
        return new AbstractUni<T>() {
            @Override
            public void subscribe(UniSubscriber<? super T> subscriber) {
                try (Scope ignored = context.makeCurrent()) {
                    AbstractUni.subscribe(uni, subscriber);
                }
            }
        };
    }

    /**
     * {@code uni}, ending {@code span} however it ends: {@code onItem} adds what the item tells,
     * a failure is recorded with its type, a cancel is marked {@code cancelled}.
     */
    public static <T> Uni<T> ending(Span span, Uni<T> uni, BiConsumer<Span, T> onItem) {
        return ending(span, uni, onItem,
                (failed, failure) -> failed(failed, failure.getClass().getName(), failure.getMessage()));
    }

    /**
     * Like {@link #ending(Span, Uni, BiConsumer)}, with what a failure tells added by {@code onFailure}. One operator for
     * the three ends, not one each: every Mutiny operator captures and restores the call's context (request scope,
     * trace) around its callback, a cost each call paid three times per span; the first end seen is the one recorded.
     */
    public static <T> Uni<T> ending(Span span, Uni<T> uni, BiConsumer<Span, T> onItem, BiConsumer<Span, Throwable> onFailure) {
        AtomicBoolean ended = new AtomicBoolean();
        return uni.onTermination().invoke((item, failure, cancelled) -> {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            if (cancelled) {
                span.setAttribute(ERROR_TYPE, "cancelled");
            } else if (failure != null) {
                onFailure.accept(span, failure);
            } else {
                onItem.accept(span, item);
            }
            span.end();
        });
    }

    /** Marks {@code span} failed: {@code error.type} and an error status with {@code description}. */
    public static void failed(Span span, String errorType, String description) {
        span.setAttribute(ERROR_TYPE, errorType);
        // A failure's message may quote what a caller sent: hidden like every log line, and cut.
        span.setStatus(StatusCode.ERROR, description == null ? "" : MessageText.shorten(Redaction.redact(description), 300));
    }
}
