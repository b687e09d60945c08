package io.sqlagent.sql.source;

import java.time.Duration;
import java.util.Optional;

/**
 * The settings of a source declared at runtime (in a tool file) rather than in configuration.
 *
 * @param url connection URL
 * @param username user name, overriding the URL's
 * @param password password, overriding the URL's; never logged
 * @param maxPoolSize connections the pool opens at most
 * @param connectTimeout how long to wait for a TCP connection
 */
public record SourceSettings(String url, Optional<String> username, Optional<String> password, int maxPoolSize,
        Duration connectTimeout) implements SourcesConfig.Source {

    /** Declared sources wait as configured ones do by default. */
    @Override
    public int maxWaitQueueSize() {
        return SourcesConfig.DEFAULT_MAX_WAIT_QUEUE_SIZE;
    }

    @Override
    public Duration acquireTimeout() {
        return Duration.parse("PT" + SourcesConfig.DEFAULT_ACQUIRE_TIMEOUT.toUpperCase(java.util.Locale.ROOT));
    }

    /** Declared sources give each principal the default share of their pool. */
    @Override
    public java.util.OptionalInt maxStatementsPerPrincipal() {
        return java.util.OptionalInt.empty();
    }

    /** Declared sources map no caller to a role: their statements run as their own user. */
    @Override
    public Optional<String> roleClaim() {
        return Optional.empty();
    }

    @Override
    public Optional<java.util.List<String>> allowedRoles() {
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "SourceSettings[" + SourceUrls.redact(url) + "]";
    }
}
