package io.sqlagent.http;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What the HTTP edge lets in before any endpoint sees a request ({@link EdgeFilter}). */
@ConfigMapping(prefix = "sqlagent.http")
public interface HttpEdgeConfig {

    /**
     * Origins besides the service's own ({@code scheme://host:port}) whose browser requests are
     * accepted, for example {@code https://chat.example.com}; their hosts are also accepted as
     * {@code Host} when the service listens on a loopback address. Unset: same-origin only.
     */
    Optional<List<String>> allowedOrigins();

    /** How long a client may take to send a request's body once its headers arrived (then 408). */
    @WithDefault("30s")
    Duration readTimeout();

    /**
     * How long a client may take to send a request's headers, from their first byte to the blank line that ends
     * them; then it gets 408 and the connection is closed. Separate from {@code quarkus.http.idle-timeout}, which a
     * client sending a byte now and then (slowloris) never reaches. 0 turns it off.
     */
    @WithDefault("30s")
    Duration headerTimeout();

    /**
     * Most connections open at once from one client address; a further one is closed as it is accepted. Behind a
     * proxy or load balancer every client arrives from its address: raise this to the proxy's own connection pool. 0 turns it
     * off.
     */
    @WithDefault("128")
    int maxConnectionsPerAddress();

    /**
     * Most request-body bytes being received at once, over all connections (each request counts
     * with its {@code Content-Length}, a chunked one with the largest body allowed); beyond it a
     * request is refused with 503 and {@code Retry-After}.
     */
    @WithDefault("64M")
    MemorySize maxBodiesInFlight();
}
