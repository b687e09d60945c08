package io.sqlagent.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkiverse.mcp.server.Cancellation;
import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkiverse.mcp.server.McpException;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.ToolManager.ToolArguments;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.arc.Arc;
import io.quarkus.logging.Log;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.ErrorIds;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.http.ClientConnections;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.security.CallerResolver;
import io.sqlagent.security.UsageLimits;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolExecutor;
import io.sqlagent.tool.ToolResult;
import io.sqlagent.trace.Tracing;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * Runs an MCP {@code tools/call} through the {@link ToolExecutor} (caller {@code mcp}: the same
 * hooks, validation, timeout, metrics and audit as REST and the agent) and turns the execution into
 * an MCP result. Every way a call can fail — invalid arguments, a blocked statement, a failing tool,
 * a tool outside the client's toolsets — is a result with {@code isError: true} and a message the
 * client can show; only a failure of the service itself is a JSON-RPC error, with an id to find in
 * the log and never a stack trace. A call the client cancels ({@code notifications/cancelled}) or
 * stops waiting for (its connection closed) is cancelled, down to the statement in the database.
 */
@ApplicationScoped
public class McpToolCalls {

    /** The caller recorded in metrics and the audit log. */
    public static final String CALLER = "mcp";

    private final ToolExecutor executor;
    private final McpToolsets toolsets;
    private final CurrentVertxRequest currentVertxRequest;
    private final CallerResolver callers;
    private final UsageLimits limits;
    private final Tracing tracing;

    /** The JSON-RPC error code of a call over a per-principal limit (the implementation-defined server-error range). */
    static final int RATE_LIMITED = -32029;

    McpToolCalls(ToolExecutor executor, McpToolsets toolsets, CurrentVertxRequest currentVertxRequest, CallerResolver callers,
            UsageLimits limits, Tracing tracing) {
        this.limits = limits;
        this.tracing = tracing;
        this.executor = executor;
        this.toolsets = toolsets;
        this.currentVertxRequest = currentVertxRequest;
        this.callers = callers;
    }

    /** Handles one call of {@code tool}; never blocks. */
    public Uni<ToolResponse> call(String tool, ToolArguments arguments) {
        ToolsetSelection selection = toolsets.current();
        if (!selection.allows(tool)) {
            return Uni.createFrom().item(ToolResponse.error(selection.refusal(tool)));
        }
        ToolCall call = new ToolCall(callId(arguments), tool, argumentsOf(arguments));
        Span span = McpCallSpan.start(tracing, tool, arguments);
        Context traced = Context.current().with(span);
        // The caller of the HTTP request that carries this message (every message is authenticated on its own).
        Uni<ToolResponse> execution = callers.of(currentRoutingContext())
                .flatMap(caller -> limits.toolCall(caller)
                        .onFailure().transform(McpToolCalls::serviceFailure)
                        .flatMap(refused -> refused.isPresent()
                                ? Uni.createFrom()
                                        .failure(new McpException("rate_limited: " + refused.get().message(), RATE_LIMITED))
                                : execute(call, caller, traced)));
        // The first of the two to end wins and cancels the other. Uni.join().first() rather than
        // Uni.combine().any(): the latter goes through CompletableFutures, whose every stage captures and
        // restores the call's context (request scope, trace) again, a cost each MCP call paid for nothing.
        return McpCallSpan.ending(span, Uni.join().first(execution, abandoned(arguments, currentRequest())).toTerminate());
    }

    private Uni<ToolResponse> execute(ToolCall call, Caller caller, Context traced) {
        Uni<ToolExecution> execution;
        try (Scope ignored = traced.makeCurrent()) {
            execution = executor.execute(call, ToolCallContext.of(CALLER, caller));
        }
        return execution
                .map(McpToolCalls::response)
                .onFailure().transform(McpToolCalls::serviceFailure);
    }

    /**
     * Fails with the library's {@link Cancellation.OperationCancellationException} (it then sends
     * no response, as the specification asks) once the client cancels the request with
     * {@code notifications/cancelled} or closes the HTTP connection that waits for the result;
     * winning the race cancels the execution, and with it a statement running in the database.
     * quarkus-mcp-server only records a cancellation for the tool to ask about ({@link Cancellation#check()}),
     * and does nothing when a streamable HTTP client goes away, so both are polled here, the first time
     * one {@link ClientConnections#POLL} after the call starts: most calls are answered before, and
     * cost one timer set and cancelled rather than a check straight away.
     */
    private static Uni<ToolResponse> abandoned(ToolArguments arguments, HttpServerRequest request) {
        ClientConnections.keepReading(request);
        return Multi.createFrom().ticks().startingAfter(ClientConnections.POLL).every(ClientConnections.POLL)
                .filter(tick -> arguments.cancellation().check().isRequested() || ClientConnections.gone(request))
                .toUni()
                .flatMap(tick -> Uni.createFrom().<ToolResponse> failure(new Cancellation.OperationCancellationException()));
    }

    private RoutingContext currentRoutingContext() {
        return Arc.container().requestContext().isActive() ? currentVertxRequest.getCurrent() : null;
    }

    private HttpServerRequest currentRequest() {
        RoutingContext request = currentRoutingContext();
        if (request == null) {
            Log.debug("An MCP tool call outside an HTTP request: only notifications/cancelled can cancel it");
            return null;
        }
        // The older SSE transport answers each POST at once and sends the result on its stream:
        // that POST's connection closing says nothing about the client.
        return request.normalizedPath().contains("/messages/") ? null : request.request();
    }

    private static String callId(ToolArguments arguments) {
        Object id = arguments.requestId() == null ? null : arguments.requestId().value();
        return "mcp-" + (id == null ? UUID.randomUUID() : id);
    }

    /**
     * The arguments exactly as the client sent them, read from the raw message: the library's
     * argument map is a copy converted to Java values, this keeps numbers and nesting as JSON.
     */
    private static ObjectNode argumentsOf(ToolArguments arguments) {
        JsonObject params = arguments.rawMessage().asJsonObject().getJsonObject("params");
        JsonObject raw = params == null ? null : params.getJsonObject("arguments");
        if (raw == null) {
            return SnakeCaseJson.MAPPER.createObjectNode();
        }
        try {
            return (ObjectNode) SnakeCaseJson.MAPPER.readTree(raw.encode());
        } catch (IOException e) {
            // The library parsed this JSON already; it cannot fail to parse again.
            throw new IllegalStateException("Could not re-read the call's arguments", e);
        }
    }

    static ToolResponse response(ToolExecution execution) {
        ToolResult result = execution.result();
        if (result instanceof ToolResult.Success success) {
            return success(success);
        }
        if (result instanceof ToolResult.Stopped stopped) {
            // Over MCP there is no agent run to end: report the tool's reason as its answer.
            return ToolResponse.success("The tool ended the run: " + stopped.reason());
        }
        ToolResult.Failure failure = (ToolResult.Failure) result;
        // The one error shape (io.sqlagent.http.ErrorBody) as structured content; the text is its message.
        return new ToolResponse(true, List.of(new TextContent(failure.message())),
                vertx(ErrorBody.toolFailure(failure).toJson()), null);
    }

    /**
     * The result as JSON text (what every client shows and models read) and, when it is an
     * object, also as structured content.
     */
    private static ToolResponse success(ToolResult.Success success) {
        // The result's one serialisation, shared with the audit log's measure of it.
        byte[] json = success.json();
        String text = new String(json, StandardCharsets.UTF_8);
        return new ToolResponse(false, List.of(new TextContent(text)), structured(success, json, text), null);
    }

    /**
     * The structured content: a written object (a SQL result) as its text, which is exactly what Jackson would write of
     * its tree ({@link io.sqlagent.tool.WrittenJson#json()}), so the tree is neither built nor written again (for 1,000
     * rows that was most of an MCP call's extra CPU over REST); any other object as its tree, not a Vert.x JsonObject
     * parsed from its text, which would read exact numbers (2.50, 40-digit numerics) as doubles. The server writes
     * both with Jackson.
     */
    private static Object structured(ToolResult.Success success, byte[] json, String text) {
        if (success.isWritten()) {
            return json.length > 0 && json[0] == '{' ? new RawJson(text) : null;
        }
        JsonNode value = success.value();
        return value != null && value.isObject() ? value : null;
    }

    private static JsonObject vertx(ObjectNode node) {
        return new JsonObject(node.toString());
    }

    private static Throwable serviceFailure(Throwable failure) {
        String errorId = ErrorIds.logged(failure, "MCP tool call failed inside the service");
        return new McpException("The call failed inside the service [error id " + errorId + "]",
                JsonRpcErrorCodes.INTERNAL_ERROR);
    }
}
