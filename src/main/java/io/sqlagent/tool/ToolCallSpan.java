package io.sqlagent.tool;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.sqlagent.trace.Tracing;

/**
 * The span of one tool call, as the OpenTelemetry GenAI semantic conventions name it:
 * {@code execute_tool <name>}, with the tool, the call's id, who called (the channel:
 * {@code agent}, {@code mcp}, {@code rest}) and the outcome. A failed call (blocked, invalid arguments, an
 * error, ...) has an error status and its outcome as {@code error.type}; a call that stopped the
 * run did what it meant to.
 */
final class ToolCallSpan {

    static final AttributeKey<String> CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    static final AttributeKey<String> TOOL_TYPE = AttributeKey.stringKey("gen_ai.tool.type");
    static final AttributeKey<String> CALLER = AttributeKey.stringKey("sqlagent.tool.caller");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("sqlagent.tool.outcome");

    private ToolCallSpan() {
    }

    static Span start(Tracing tracing, Context parent, ToolCall call, ToolCallContext context) {
        return tracing.tracer().spanBuilder("execute_tool " + call.name())
                .setParent(parent)
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(Tracing.GEN_AI_OPERATION, "execute_tool")
                .setAttribute(Tracing.GEN_AI_TOOL_NAME, call.name())
                .setAttribute(TOOL_TYPE, "function")
                .setAttribute(CALL_ID, call.id())
                .setAttribute(CALLER, context.caller())
                .startSpan();
    }

    static void completed(Span span, ToolExecution execution) {
        String outcome = execution.outcome().tag();
        span.setAttribute(OUTCOME, outcome);
        if (execution.result() instanceof ToolResult.Failure failure) {
            Tracing.failed(span, outcome, failure.message());
        }
    }
}
