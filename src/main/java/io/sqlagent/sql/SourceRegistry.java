package io.sqlagent.sql;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * The named sources, each with its own reactive pool, built from {@link SourcesConfig}. A source
 * that is misconfigured or unreachable is kept (and reported by readiness and in the log) rather
 * than stopping the service.
 */
@ApplicationScoped
public class SourceRegistry {

    private static final Duration STARTUP_PROBE_TIMEOUT = Duration.ofSeconds(10);

    private final Map<String, Source> sources;

    SourceRegistry(SourcesConfig config, Vertx vertx) {
        Map<String, Source> built = new TreeMap<>();
        config.all().forEach((name, settings) -> built.put(name, build(name, settings, vertx)));
        this.sources = Collections.unmodifiableMap(built);
    }

    /** The source with this name. */
    public Optional<Source> find(String name) {
        return Optional.ofNullable(sources.get(name));
    }

    /** Every source, ordered by name. */
    public Collection<Source> all() {
        return sources.values();
    }

    void logStatusOnStart(@Observes StartupEvent event) {
        if (sources.isEmpty()) {
            Log.warn("No source is configured: set sqlagent.sources.<name>.url (e.g. SQLAGENT_SOURCES_DEFAULT_URL)");
        }
        for (Source source : sources.values()) {
            source.probe(STARTUP_PROBE_TIMEOUT).subscribe().with(status -> log(status));
        }
    }

    private static void log(SourceStatus status) {
        if (status.up()) {
            Log.infof("Source '%s' is UP: %s at %s", status.name(), status.detail(), status.url());
        } else {
            Log.warnf("Source '%s' is DOWN at %s: %s. Readiness stays DOWN until it answers; check %s (sqlagent.sources.%s.url and its username/password).",
                    status.name(), status.url(), status.detail(), Source.urlVariable(status.name()), status.name());
        }
    }

    private static Source build(String name, SourcesConfig.Source settings, Vertx vertx) {
        String displayUrl = SourceUrls.redact(settings.url());
        try {
            PgConnectOptions options = PgConnectOptions.fromUri(SourceUrls.normalise(settings.url()));
            settings.username().ifPresent(options::setUser);
            settings.password().ifPresent(options::setPassword);
            options.setConnectTimeout((int) settings.connectTimeout().toMillis());
            PoolOptions poolOptions = new PoolOptions()
                    .setMaxSize(settings.maxPoolSize())
                    .setName("sqlagent-source-" + name);
            io.vertx.sqlclient.Pool pool = PgBuilder.pool()
                    .with(poolOptions)
                    .connectingTo(options)
                    .using(vertx.getDelegate())
                    .build();
            return new Source(name, displayUrl, Optional.of(Pool.newInstance(pool)), Optional.empty());
        } catch (RuntimeException e) {
            String problem = "invalid URL '" + displayUrl + "': " + SourceUrls.redact(String.valueOf(e.getMessage()));
            Log.errorf("Source '%s' is misconfigured: %s. Fix %s.", name, problem, Source.urlVariable(name));
            return new Source(name, displayUrl, Optional.empty(), Optional.of(problem));
        }
    }

    @PreDestroy
    void close() {
        for (Source source : sources.values()) {
            source.pool().ifPresent(Pool::closeAndForget);
        }
    }
}
