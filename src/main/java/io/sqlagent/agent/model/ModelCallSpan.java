package io.sqlagent.agent.model;

import java.util.List;
import java.util.Locale;

import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.sqlagent.trace.Tracing;

/**
 * The span of one model call, as the OpenTelemetry GenAI semantic conventions name it:
 * {@code chat <model>}, a client span with the model asked for and the one that answered, the
 * tokens in and out and the finish reason. quarkus-langchain4j has a span listener of its own; it
 * is left out (application.properties) because it names the span {@code completion <model>} with
 * the older token attributes, closes the span's scope on another thread than it opened it on (a
 * streamed answer ends on the HTTP client's thread), and never ends the span of a stream that is
 * cancelled (silence, the answer cap, the client gone), which this one does.
 */
public final class ModelCallSpan {

    public static final AttributeKey<String> OPERATION = Tracing.GEN_AI_OPERATION;
    public static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    public static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    static final AttributeKey<String> RESPONSE_ID = AttributeKey.stringKey("gen_ai.response.id");
    static final AttributeKey<List<String>> FINISH_REASONS = AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    public static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    public static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");

    private ModelCallSpan() {
    }

    /** {@code call}, traced as a model call of {@code model} under {@code parent}. */
    public static Uni<ChatResponse> traced(Tracing tracing, Context parent, String model, Uni<ChatResponse> call) {
        return Uni.createFrom().deferred(() -> {
            Span span = tracing.tracer().spanBuilder("chat " + model)
                    .setParent(parent)
                    .setSpanKind(SpanKind.CLIENT)
                    .setAttribute(OPERATION, "chat")
                    .setAttribute(PROVIDER, "openai")
                    .setAttribute(REQUEST_MODEL, model)
                    .startSpan();
            // Current while the call starts: the HTTP client's own span is this one's child.
            return Tracing.ending(span, Tracing.within(parent.with(span), call), ModelCallSpan::answered);
        });
    }

    private static void answered(Span span, ChatResponse response) {
        if (response.metadata() != null) {
            if (response.metadata().modelName() != null) {
                span.setAttribute(RESPONSE_MODEL, response.metadata().modelName());
            }
            if (response.metadata().id() != null) {
                span.setAttribute(RESPONSE_ID, response.metadata().id());
            }
        }
        if (response.finishReason() != null) {
            span.setAttribute(FINISH_REASONS, List.of(finishReason(response.finishReason())));
        }
        TokenUsage usage = response.tokenUsage();
        if (usage != null) {
            if (usage.inputTokenCount() != null) {
                span.setAttribute(INPUT_TOKENS, usage.inputTokenCount().longValue());
            }
            if (usage.outputTokenCount() != null) {
                span.setAttribute(OUTPUT_TOKENS, usage.outputTokenCount().longValue());
            }
        }
    }

    /** The reason as the model server sent it (OpenAI's names), which is what the conventions record. */
    static String finishReason(FinishReason reason) {
        return switch (reason) {
            case STOP -> "stop";
            case LENGTH -> "length";
            case TOOL_EXECUTION -> "tool_calls";
            case CONTENT_FILTER -> "content_filter";
            default -> reason.name().toLowerCase(Locale.ROOT);
        };
    }
}
