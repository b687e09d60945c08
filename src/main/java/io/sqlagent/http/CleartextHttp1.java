package io.sqlagent.http;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;

/**
 * Plain-text HTTP connections speak HTTP/1.1 only (HTTP/2 stays on for TLS). With cleartext
 * HTTP/2 on, Vert.x sets a connection's HTTP/1 decoder up only when its first bytes arrive, too late
 * for {@link StrictFraming} to put its own decoder in place; browsers never use cleartext HTTP/2,
 * and clients that could (gRPC) have no business with this service.
 */
@ApplicationScoped
public class CleartextHttp1 implements HttpServerOptionsCustomizer {

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        options.setHttp2ClearTextEnabled(false);
    }
}
