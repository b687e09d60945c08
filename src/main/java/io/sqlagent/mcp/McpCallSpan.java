package io.sqlagent.mcp;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.quarkiverse.mcp.server.InitialRequest;
import io.quarkiverse.mcp.server.McpException;
import io.quarkiverse.mcp.server.ToolManager.ToolArguments;
import io.quarkiverse.mcp.server.ToolResponse;
import io.smallrye.mutiny.Uni;
import io.sqlagent.trace.Tracing;

/**
 * The span of an MCP {@code tools/call}, as the OpenTelemetry MCP semantic conventions name it:
 * {@code tools/call <tool>}, a server span with {@code mcp.method.name}, {@code gen_ai.tool.name},
 * {@code jsonrpc.request.id}, {@code mcp.session.id} and {@code mcp.protocol.version}; a result
 * with {@code isError} is {@code error.type=tool_error}, a JSON-RPC error its code. The tool call's
 * own span ({@code execute_tool <tool>}) is its child. quarkus-mcp-server can trace MCP requests
 * itself (quarkus.mcp.server.tracing.enabled), but the tool is called outside the scope of its
 * span, so nothing the call does could be a child of it; it is left off, and this span is the
 * child of the HTTP request's when there is one.
 */
final class McpCallSpan {

    static final AttributeKey<String> METHOD = AttributeKey.stringKey("mcp.method.name");
    static final AttributeKey<String> SESSION = AttributeKey.stringKey("mcp.session.id");
    static final AttributeKey<String> PROTOCOL_VERSION = AttributeKey.stringKey("mcp.protocol.version");
    static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("jsonrpc.request.id");
    static final AttributeKey<String> JSONRPC_VERSION = AttributeKey.stringKey("jsonrpc.protocol.version");
    static final AttributeKey<String> NETWORK_TRANSPORT = AttributeKey.stringKey("network.transport");
    static final AttributeKey<String> NETWORK_PROTOCOL = AttributeKey.stringKey("network.protocol.name");
    static final AttributeKey<Long> ERROR_CODE = AttributeKey.longKey("rpc.jsonrpc.error_code");

    private McpCallSpan() {
    }

    static Span start(Tracing tracing, String tool, ToolArguments arguments) {
        var builder = tracing.tracer().spanBuilder("tools/call " + tool)
                .setParent(Context.current())
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(METHOD, "tools/call")
                .setAttribute(Tracing.GEN_AI_OPERATION, "execute_tool")
                .setAttribute(Tracing.GEN_AI_TOOL_NAME, tool)
                .setAttribute(JSONRPC_VERSION, "2.0")
                .setAttribute(NETWORK_TRANSPORT, "tcp")
                .setAttribute(NETWORK_PROTOCOL, "http");
        if (arguments.requestId() != null && arguments.requestId().value() != null) {
            builder.setAttribute(REQUEST_ID, String.valueOf(arguments.requestId().value()));
        }
        if (arguments.connection() != null) {
            builder.setAttribute(SESSION, arguments.connection().id());
            InitialRequest initial = arguments.connection().initialRequest();
            if (initial != null && initial.protocolVersion() != null) {
                builder.setAttribute(PROTOCOL_VERSION, initial.protocolVersion());
            }
        }
        return builder.startSpan();
    }

    /** {@code response}, ending {@code span} with how the call ended. */
    static Uni<ToolResponse> ending(Span span, Uni<ToolResponse> response) {
        return Tracing.ending(span, response, (done, answer) -> {
            if (answer.isError()) {
                Tracing.failed(done, "tool_error", null);
            }
        }, (failed, failure) -> {
            if (failure instanceof McpException rpc) {
                failed.setAttribute(ERROR_CODE, (long) rpc.getJsonRpcErrorCode());
                Tracing.failed(failed, String.valueOf(rpc.getJsonRpcErrorCode()), rpc.getMessage());
            } else {
                Tracing.failed(failed, failure.getClass().getSimpleName(), failure.getMessage());
            }
        });
    }
}
