package io.sqlagent.sql.source;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;

/**
 * The databases the agent queries, by name: {@code sqlagent.sources.<name>.url|username|password}
 * (so {@code SQLAGENT_SOURCES_DEFAULT_URL} sets source {@code default}). Sources are never the
 * service's own store.
 */
@ConfigMapping(prefix = "sqlagent.sources")
public interface SourcesConfig {

    /** Every configured source, keyed by its name. */
    @WithParentName
    Map<String, Source> all();

    /** One named PostgreSQL database. */
    interface Source {

        /**
         * Connection URL, whose scheme names the engine: {@code postgresql://host:port/database}
         * ({@code jdbc:postgresql://} and {@code postgres://} are accepted as well), {@code mysql://} or
         * {@code mariadb://} (also with {@code jdbc:}).
         */
        String url();

        /** User name; overrides one given in the URL. */
        Optional<String> username();

        /** Password; overrides one given in the URL. Never logged. */
        Optional<String> password();

        /** Largest number of connections the source's pool opens. */
        @WithDefault("5")
        int maxPoolSize();

        /** How long to wait for a TCP connection to the database. */
        @WithDefault("5s")
        Duration connectTimeout();

        /**
         * Calls that may wait for a connection while all are in use; one more is refused at once
         * (HTTP 503 over REST, a tool error over MCP and to the model) rather than queued.
         */
        @WithDefault("" + DEFAULT_MAX_WAIT_QUEUE_SIZE)
        int maxWaitQueueSize();

        /**
         * Statements one authenticated principal may have on the source at once, running or waiting for a
         * connection; more wait in the principal's own line (as many again at most, for {@link #acquireTimeout()} at
         * most) and are then refused as busy (HTTP 503, a tool error), so that no principal holds the whole pool. Unset: one
         * fewer than {@link #maxPoolSize()} (at least 1). Not applied while authentication is
         * off, nor to the service's own statements. At least 1.
         */
        OptionalInt maxStatementsPerPrincipal();

        /** How long a call waits for a free connection before it is refused as busy. */
        @WithDefault(DEFAULT_ACQUIRE_TIMEOUT)
        Duration acquireTimeout();

        /**
         * The token claim (or API-key attribute) whose value is the source's database role a caller's
         * statements run as: on PostgreSQL {@code SET LOCAL ROLE} in their read-only transaction, on MySQL and
         * MariaDB {@code SET ROLE} for the call, dropped before the connection goes back to the pool; unset: every
         * statement runs as the source's own user.
         */
        Optional<String> roleClaim();

        /**
         * The roles {@link #roleClaim()} may name; a caller whose claim names any other role, or
         * who has no such claim, is refused.
         */
        Optional<List<String>> allowedRoles();
    }

    /** Default of {@link Source#maxWaitQueueSize()}, also for sources declared in tool files. */
    int DEFAULT_MAX_WAIT_QUEUE_SIZE = 50;

    /** Default of {@link Source#acquireTimeout()}, also for sources declared in tool files. */
    String DEFAULT_ACQUIRE_TIMEOUT = "10s";
}
