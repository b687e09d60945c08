package io.sqlagent.http;

import io.sqlagent.SnakeCaseJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * A request refused at the edge: the house error body, or for MCP requests a JSON-RPC error
 * without id (what the MCP specification asks for when a request is refused before it is read).
 * A request whose body was not read ends its connection: what is left of the body must not be
 * taken for the next request.
 */
final class EdgeRefusal {

    /** JSON-RPC's "invalid request"; the MCP transport's refusals are all of this kind. */
    static final int INVALID_REQUEST = -32600;
    /** JSON-RPC's range for server errors: the server cannot take the request now. */
    static final int SERVER_BUSY = -32000;

    private final RoutingContext ctx;
    private final boolean jsonRpc;

    EdgeRefusal(RoutingContext ctx, boolean jsonRpc) {
        this.ctx = ctx;
        this.jsonRpc = jsonRpc;
    }

    void send(int status, String code, String message) {
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.headWritten()) {
            return;
        }
        Buffer body = jsonRpc ? jsonRpcError(status, message) : houseError(code, message);
        HttpServerRequest request = ctx.request();
        boolean closeAfter = !request.isEnded() && request.version() != HttpVersion.HTTP_2;
        if (closeAfter) {
            response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        }
        response.setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(body)
                .onComplete(done -> {
                    if (closeAfter) {
                        request.connection().close();
                    }
                });
    }

    private static Buffer houseError(String code, String message) {
        try {
            return Buffer.buffer(SnakeCaseJson.MAPPER.writeValueAsBytes(ErrorBody.of(code, message)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Buffer jsonRpcError(int status, String message) {
        JsonObject error = new JsonObject().put("code", status >= 500 ? SERVER_BUSY : INVALID_REQUEST).put("message", message);
        return new JsonObject().put("jsonrpc", "2.0").putNull("id").put("error", error).toBuffer();
    }
}
