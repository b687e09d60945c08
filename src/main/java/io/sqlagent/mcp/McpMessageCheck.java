package io.sqlagent.mcp;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkiverse.mcp.server.runtime.Messages;
import io.quarkus.runtime.configuration.MemorySize;
import io.sqlagent.MessageText;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Checks the shape of every JSON-RPC message posted to the MCP endpoints (streamable HTTP and the
 * SSE transport's message endpoint) before quarkus-mcp-server (1.13.0) reads it. The library
 * answers a body that is not JSON itself, but not these, which it either fails on with HTTP 500 or
 * never answers: a body that is JSON but not a message ({@code "hello"}, {@code 42}, {@code []}),
 * a message without a string {@code method}, an {@code id} that is neither a string nor a number,
 * and {@code params} that are not an object (MCP has named parameters only). Each is answered with
 * a JSON-RPC error (-32700 parse error, -32600 invalid request, -32602 invalid params) and HTTP 400,
 * carrying the message's id when it has a usable one.
 */
@ApplicationScoped
public class McpMessageCheck {

    /** After the edge filters (negative orders), before the library's routes. */
    static final int ORDER = -1;

    private final String root;
    private final long maxBodyBytes;
    private final int maxBatchSize;

    McpMessageCheck(@ConfigProperty(name = "quarkus.mcp.server.http.root-path", defaultValue = "/mcp") String root,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K") MemorySize maxBodySize,
            McpConfig config) {
        int maxBatchSize = config.maxBatchSize();
        if (maxBatchSize < 1) {
            throw new IllegalArgumentException("sqlagent.mcp.max-batch-size must be at least 1 (got " + maxBatchSize + ")");
        }
        this.root = root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
        this.maxBodyBytes = maxBodySize.asLongValue();
        this.maxBatchSize = maxBatchSize;
    }

    void register(@Observes Router router) {
        // Reading the body here is safe for the library: a second BodyHandler sees the body was read and passes on.
        router.routeWithRegex(HttpMethod.POST, java.util.regex.Pattern.quote(root) + "(/.*)?")
                .order(ORDER)
                .handler(BodyHandler.create(false).setBodyLimit(maxBodyBytes))
                .handler(this::check)
                .failureHandler(this::failed);
    }

    private void check(RoutingContext ctx) {
        Buffer body = ctx.body().buffer();
        if (body == null || body.length() == 0) {
            refuse(ctx, null, JsonRpcErrorCodes.INVALID_REQUEST, "The body is empty; post one JSON-RPC message");
            return;
        }
        if (WellFormedMessage.is(body.getBytes())) {
            // The common case, read without building the message; everything else is decoded to be told what is wrong.
            ctx.next();
            return;
        }
        Object message;
        try {
            message = Json.decodeValue(body);
        } catch (DecodeException e) {
            refuse(ctx, null, JsonRpcErrorCodes.PARSE_ERROR, "The body is not valid JSON: " + firstLine(e.getMessage()));
            return;
        }
        if (message instanceof JsonObject object) {
            Problem problem = problem(object);
            if (problem != null) {
                refuse(ctx, usableId(object), problem.code(), problem.message());
                return;
            }
        } else if (message instanceof JsonArray batch) {
            if (batch.isEmpty()) {
                refuse(ctx, null, JsonRpcErrorCodes.INVALID_REQUEST, "The batch is empty; post a JSON-RPC message");
                return;
            }
            if (batch.size() > maxBatchSize) {
                // The library answers every message of a batch in one response it holds in memory: 5,000 tools/list in a
                // 280 kB body came back as 72 MB, and a few slow readers took the process past a gigabyte.
                refuse(ctx, null, JsonRpcErrorCodes.INVALID_REQUEST, "The batch has " + batch.size()
                        + " messages; at most " + maxBatchSize + " are taken (sqlagent.mcp.max-batch-size): send fewer at"
                        + " a time");
                return;
            }
            for (int i = 0; i < batch.size(); i++) {
                Problem problem = batch.getValue(i) instanceof JsonObject element ? problem(element)
                        : new Problem(JsonRpcErrorCodes.INVALID_REQUEST, "a JSON-RPC message is a JSON object");
                if (problem != null) {
                    refuse(ctx, null, problem.code(), "Message " + (i + 1) + " of the batch: " + problem.message());
                    return;
                }
            }
        } else {
            refuse(ctx, null, JsonRpcErrorCodes.INVALID_REQUEST, "The body must be a JSON-RPC message (a JSON object), not "
                    + (message == null ? "null" : "a " + kind(message)));
            return;
        }
        ctx.next();
    }

    record Problem(int code, String message) {
    }

    static Problem problem(JsonObject message) {
        if (!"2.0".equals(message.getValue("jsonrpc"))) {
            return new Problem(JsonRpcErrorCodes.INVALID_REQUEST, "jsonrpc must be \"2.0\"");
        }
        Object id = message.getValue("id");
        if (message.containsKey("id") && !(id instanceof String) && !(id instanceof Number)) {
            return new Problem(JsonRpcErrorCodes.INVALID_REQUEST, "id must be a string or a number");
        }
        Object method = message.getValue("method");
        boolean response = message.containsKey("result") || message.containsKey("error");
        if (method == null && !response) {
            return new Problem(JsonRpcErrorCodes.INVALID_REQUEST, "the message has no method");
        }
        if (method != null && !(method instanceof String)) {
            return new Problem(JsonRpcErrorCodes.INVALID_REQUEST, "method must be a string");
        }
        Object params = message.getValue("params");
        if (params != null && !(params instanceof JsonObject)) {
            return new Problem(JsonRpcErrorCodes.INVALID_PARAMS, "params must be a JSON object of named parameters, not "
                    + (params instanceof JsonArray ? "an array" : "a " + kind(params)));
        }
        return null;
    }

    private static Object usableId(JsonObject message) {
        Object id = message.getValue("id");
        return id instanceof String || id instanceof Number ? id : null;
    }

    private void failed(RoutingContext ctx) {
        if (ctx.failure() instanceof HttpClosedException) {
            return; // the client went away while sending: nobody to answer, nothing to log
        }
        if (ctx.statusCode() == 413) {
            refuse(ctx, null, JsonRpcErrorCodes.INVALID_REQUEST, "The body is larger than the limit of " + maxBodyBytes
                    + " bytes (sqlagent.tools.max-request-size)", 413);
        } else {
            ctx.next();
        }
    }

    private static void refuse(RoutingContext ctx, Object id, int code, String message) {
        refuse(ctx, id, code, message, 400);
    }

    private static void refuse(RoutingContext ctx, Object id, int code, String message, int status) {
        if (ctx.response().ended()) {
            return;
        }
        ctx.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(Messages.newError(id, code, message).toBuffer());
    }

    private static String kind(Object value) {
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof Number) {
            return "number";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        return value instanceof JsonArray ? "array" : "value";
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unreadable";
        }
        int newline = text.indexOf('\n');
        String line = newline < 0 ? text : text.substring(0, newline);
        return MessageText.shorten(line, 200);
    }
}
