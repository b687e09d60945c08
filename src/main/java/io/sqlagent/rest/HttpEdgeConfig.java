package io.sqlagent.rest;

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
     * Most request-body bytes being received at once, over all connections (each request counts
     * with its {@code Content-Length}, a chunked one with the largest body allowed); beyond it a
     * request is refused with 503 and {@code Retry-After}.
     */
    @WithDefault("64M")
    MemorySize maxBodiesInFlight();
}
