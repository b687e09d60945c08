package io.sqlagent.mcp;

import java.util.Objects;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkiverse.mcp.server.McpMethod;
import io.quarkiverse.mcp.server.runtime.McpRequest;
import io.quarkiverse.mcp.server.runtime.McpRequestValidator;
import io.quarkiverse.mcp.server.runtime.Messages;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Prepares {@code tools/call} messages before quarkus-mcp-server (1.13.0) reads them, for two
 * inputs it would otherwise answer with a bare "Internal error" and a stack trace in the log:
 * <ul>
 * <li>a {@code null} argument: models often send one for an optional argument they mean to leave
 * out, and the library copies arguments with {@code Map.copyOf}, which throws on null. The null is
 * dropped, as the executor would: an optional argument is then absent and a required one is
 * reported as missing, by name, like any other invalid argument;</li>
 * <li>a call without a tool name, or with {@code arguments} that are not an object: a malformed
 * request, answered with JSON-RPC {@code -32602} (invalid params) saying what is wrong.</li>
 * </ul>
 * {@code McpRequestValidator} is the library's hook that sees every message before it is handled;
 * it lives in the library's runtime package, so this class is the one place that depends on it.
 * The library has no public API for this in 1.13.0: its public {@code ToolInputGuardrail} runs only
 * once a tool has been found (so never for a call without a name), and its context copies the
 * arguments with {@code Map.copyOf} before the guardrail sees them, failing on the same null.
 * {@code ToolCallArgumentsCheckTest} fails, saying what changed, when a new version changes the
 * interface or stops calling this check (as it would if a second validator bean appeared).
 */
@ApplicationScoped
public class ToolCallArgumentsCheck implements McpRequestValidator {

    @Override
    public <R extends McpRequest> Future<Boolean> validate(JsonObject message, R mcpRequest, McpMethod method) {
        if (method != McpMethod.TOOLS_CALL || !(message.getValue("params") instanceof JsonObject params)) {
            // Missing params: the library answers that itself, clearly.
            return Future.succeededFuture(true);
        }
        String problem = problem(params);
        if (problem != null) {
            return mcpRequest.sender().sendError(Messages.getId(message), JsonRpcErrorCodes.INVALID_PARAMS, problem)
                    .map(sent -> false);
        }
        if (params.getValue("arguments") instanceof JsonObject arguments) {
            // getValue wraps the message's own map, so this changes the message the library reads next.
            arguments.getMap().values().removeIf(Objects::isNull);
        }
        return Future.succeededFuture(true);
    }

    private static String problem(JsonObject params) {
        if (!(params.getValue("name") instanceof String)) {
            return "tools/call needs params.name, the name of the tool to call";
        }
        Object arguments = params.getValue("arguments");
        if (arguments != null && !(arguments instanceof JsonObject)) {
            return "params.arguments of tools/call must be a JSON object of arguments";
        }
        return null;
    }
}
