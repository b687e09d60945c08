package io.sqlagent.http;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.logging.Log;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.HttpServerStart;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.sqlagent.MessageText;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;

/**
 * The one check every HTTP request passes before any endpoint (REST, MCP, health, OpenAPI) sees
 * it, so that a web page a user happens to visit cannot drive the service and one careless client
 * cannot exhaust it:
 * <ol>
 * <li>ambiguous framing ({@code Content-Length} with {@code Transfer-Encoding}) is refused (400);</li>
 * <li>on a loopback address, a {@code Host} that is not a loopback name is refused (403): it was
 * rebound by DNS;</li>
 * <li>an {@code Origin} that is neither the request's own nor allowed is refused (403); requests
 * without one (curl, SDKs, MCP clients) are not browsers' cross-site requests and pass;</li>
 * <li>a body sent as anything but {@code application/json} is refused (415): the types a form or a
 * script may send cross-site without asking first ({@code text/plain}, form encodings) never reach
 * an endpoint;</li>
 * <li>a body whose {@code Content-Length} is over the limit is refused before it is read (413);
 * chunked bodies are cut while they stream by {@code quarkus.http.limits.max-body-size};</li>
 * <li>bodies being received share one byte budget (503 with {@code Retry-After} when it is spent),
 * and a body must arrive within the read timeout (408).</li>
 * </ol>
 * Before any request, each connection is held to a share per client address and its headers to a time limit
 * ({@link ConnectionGuard}).
 * Refusals of MCP requests carry a JSON-RPC error, others the house {@code {"error","message"}} body.
 */
@ApplicationScoped
public class EdgeFilter {

    /** Before Quarkus's own filters (CORS is 300, authentication 200): nothing runs for a refused request. */
    static final int PRIORITY = 400;

    private final OriginPolicy origins;
    private final long maxBodyBytes;
    private final long budgetBytes;
    private final long readTimeoutMillis;
    private final String mcpRoot;
    private final AtomicLong inFlight = new AtomicLong();
    private final StrictFraming framing;

    EdgeFilter(HttpEdgeConfig config,
            @ConfigProperty(name = "quarkus.http.host", defaultValue = "0.0.0.0") String bindHost,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K") MemorySize maxBodySize,
            @ConfigProperty(name = "quarkus.mcp.server.http.root-path", defaultValue = "/mcp") String mcpRoot,
            @ConfigProperty(name = "quarkus.http.limits.max-initial-line-length", defaultValue = "4096") int maxInitialLineLength,
            @ConfigProperty(name = "quarkus.http.limits.max-header-size", defaultValue = "20K") MemorySize maxHeaderSize,
            @ConfigProperty(name = "quarkus.http.limits.max-chunk-size", defaultValue = "8192") MemorySize maxChunkSize) {
        this.framing = new StrictFraming(maxInitialLineLength, (int) maxHeaderSize.asLongValue(),
                (int) maxChunkSize.asLongValue(),
                new ConnectionGuard(config.headerTimeout().toMillis(), config.maxConnectionsPerAddress()));
        this.origins = new OriginPolicy(config.allowedOrigins().orElse(List.of()), bindHost);
        this.maxBodyBytes = maxBodySize.asLongValue();
        this.budgetBytes = config.maxBodiesInFlight().asLongValue();
        this.readTimeoutMillis = config.readTimeout().toMillis();
        this.mcpRoot = mcpRoot.endsWith("/") && mcpRoot.length() > 1 ? mcpRoot.substring(0, mcpRoot.length() - 1) : mcpRoot;
    }

    void register(@Observes Filters filters) {
        filters.register(this::handle, PRIORITY);
    }

    /**
     * The strict decoder is put in place from the first request served (see {@link StrictFraming}):
     * the service asks itself once as soon as it listens, so that no client's request is ever the
     * first and every client connection gets the strict decoder.
     */
    void warmUp(@Observes HttpServerStart started) {
        HttpServerOptions options = started.options();
        String host = options.getHost() == null || options.getHost().equals("0.0.0.0") ? "127.0.0.1"
                : options.getHost().equals("::") ? "::1" : options.getHost();
        java.net.URI self = java.net.URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
                + options.getPort() + "/q/health/live");
        java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        client.sendAsync(java.net.http.HttpRequest.newBuilder(self).timeout(java.time.Duration.ofSeconds(10)).build(),
                java.net.http.HttpResponse.BodyHandlers.discarding())
                .whenComplete((response, failure) -> {
                    if (failure != null) {
                        Log.debugf("The service could not ask itself %s: %s", self, failure.toString());
                    }
                });
    }

    void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        EdgeRefusal refusal = new EdgeRefusal(ctx, isMcp(request.path()));
        framing.watch(request.connection());
        if (!framingAllowed(request, refusal) || !callerAllowed(request, refusal)) {
            return;
        }
        long declared = declaredLength(request.getHeader(HttpHeaders.CONTENT_LENGTH));
        boolean chunked = request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
        if (declared < 0 && !chunked) {
            refusal.send(400, "invalid_content_length", "Content-Length must be a number of bytes");
            return;
        }
        if (!chunked && declared == 0) {
            ctx.next();
            return;
        }
        if (bodyAllowed(request, declared, refusal)) {
            admitBody(ctx, chunked ? maxBodyBytes : declared, refusal);
        }
    }

    private static boolean framingAllowed(HttpServerRequest request, EdgeRefusal refusal) {
        boolean both = request.getHeader(HttpHeaders.CONTENT_LENGTH) != null
                && request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
        if (both || request.getHeader(StrictFraming.MARKER) != null) {
            refusal.send(400, "ambiguous_framing",
                    "The request has both Content-Length and Transfer-Encoding; send one of them");
            return false;
        }
        return true;
    }

    /** {@code Host} (on loopback) and {@code Origin} (when a browser sends one). */
    private boolean callerAllowed(HttpServerRequest request, EdgeRefusal refusal) {
        HostAndPort authority = request.authority();
        String hostHeader = request.getHeader(HttpHeaders.HOST);
        if (authority == null && hostHeader != null && origins.loopbackOnly()) {
            refusal.send(400, "invalid_host", "The Host header '" + shorten(hostHeader) + "' is not a host name");
            return false;
        }
        String host = authority == null ? null : authority.host();
        if (!origins.hostAllowed(host)) {
            refusal.send(403, "foreign_host", "The Host header names '" + shorten(host)
                    + "', which is not this service: it listens on a loopback address and answers to localhost, 127.0.0.1 and [::1]"
                    + " (and the hosts of sqlagent.http.allowed-origins)");
            return false;
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin != null
                && !origins.originAllowed(origin, request.scheme(), host, authority == null ? -1 : authority.port())) {
            refusal.send(403, "foreign_origin", "Requests from the origin '" + shorten(origin)
                    + "' are refused: only the service's own origin and those in sqlagent.http.allowed-origins may call it from a browser");
            return false;
        }
        return true;
    }

    /** The body's type and declared size. */
    private boolean bodyAllowed(HttpServerRequest request, long declared, EdgeRefusal refusal) {
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        // A body without a type is taken as JSON: only programs send one (quarkus-mcp-server's own test
        // client does), and a browser that could sends Origin with it, which was checked before.
        if (type != null && !isJson(type)) {
            refusal.send(415, "unsupported_media_type",
                    "The body must be sent as application/json, not '" + shorten(type) + "'");
            return false;
        }
        if (declared > maxBodyBytes) {
            refusal.send(413, "body_too_large", "The body has " + declared + " bytes; the limit is " + maxBodyBytes
                    + " (sqlagent.tools.max-request-size)");
            return false;
        }
        return true;
    }

    /**
     * Reserves the body's bytes from the budget until the endpoint answers (it has read the body by
     * then) or the exchange ends, and arms the read timeout. Vert.x and Quarkus limit one body and
     * the number of connections, not the bytes all bodies hold together, hence this counter.
     */
    private void admitBody(RoutingContext ctx, long reserved, EdgeRefusal refusal) {
        if (!reserve(reserved)) {
            ctx.response().putHeader(HttpHeaders.RETRY_AFTER, "1");
            refusal.send(503, "busy",
                    "The service is receiving too many request bodies at once (sqlagent.http.max-bodies-in-flight); retry in a moment");
            return;
        }
        AtomicBoolean released = new AtomicBoolean();
        Runnable release = () -> {
            if (released.compareAndSet(false, true)) {
                inFlight.addAndGet(-reserved);
            }
        };
        ctx.addHeadersEndHandler(v -> release.run());
        ctx.addEndHandler(v -> release.run());
        armReadTimeout(ctx, refusal, release);
        ctx.next();
    }

    private void armReadTimeout(RoutingContext ctx, EdgeRefusal refusal, Runnable release) {
        HttpServerRequest request = ctx.request();
        if (request.isEnded()) {
            return;
        }
        long timer = ctx.vertx().setTimer(readTimeoutMillis, id -> {
            if (!request.isEnded() && !ctx.response().headWritten()) {
                Log.debugf("Request body of %s %s did not arrive within %d ms", request.method(), request.path(),
                        readTimeoutMillis);
                release.run();
                refusal.send(408, "request_timeout", "The request's body did not arrive within " + readTimeoutMillis
                        + " ms (sqlagent.http.read-timeout)");
            }
        });
        ctx.addEndHandler(v -> ctx.vertx().cancelTimer(timer));
    }

    private boolean reserve(long bytes) {
        while (true) {
            long current = inFlight.get();
            if (current + bytes > budgetBytes && current > 0) {
                return false;
            }
            if (inFlight.compareAndSet(current, current + bytes)) {
                return true;
            }
        }
    }

    private boolean isMcp(String path) {
        return path != null && (path.equals(mcpRoot) || path.startsWith(mcpRoot + "/"));
    }

    /** The declared length, 0 when there is none, -1 when it is not a number. */
    private static long declaredLength(String contentLength) {
        if (contentLength == null) {
            return 0;
        }
        try {
            long length = Long.parseLong(contentLength.strip());
            return length < 0 ? -1 : length;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** {@code application/json} or any {@code +json} type, whatever its parameters. */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }

    private static String shorten(String text) {
        return MessageText.shorten(text, 100);
    }
}
