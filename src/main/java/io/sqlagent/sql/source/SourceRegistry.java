package io.sqlagent.sql.source;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Redaction;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.postgres.PgSession;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * The named sources, each with its own reactive pool, built from {@link SourcesConfig}, plus the
 * sources declared at runtime by tool files ({@link #replaceDeclared}). A source that is
 * misconfigured or unreachable is kept (and reported by readiness and in the log) rather than
 * stopping the service.
 */
@ApplicationScoped
public class SourceRegistry {

    private static final Duration STARTUP_PROBE_TIMEOUT = Duration.ofSeconds(10);

    /** Every source in effect, replaced whole when declared sources change, never changed in place. */
    private volatile Map<String, Source> sources;
    private final Set<String> configured;
    private final Vertx vertx;
    private final SourceRoleCheck roles;
    private Map<String, SourceSettings> declared = Map.of();

    SourceRegistry(SourcesConfig config, Vertx vertx, SourceRoleCheck roles) {
        Map<String, Source> built = new TreeMap<>();
        config.all().forEach((name, settings) -> built.put(name, build(name, settings, vertx)));
        this.sources = Collections.unmodifiableMap(built);
        this.configured = Set.copyOf(built.keySet());
        this.vertx = vertx;
        this.roles = roles;
        built.keySet().forEach(this::registerGauge);
    }

    /**
     * The gauge {@code sqlagent_source_waiting{source}}: calls waiting for one of the source's
     * connections. It reads whichever pool has the name now, so a declared source whose pool is
     * replaced keeps one gauge. (Connections in use are Vert.x's own {@code sql_pool_active}.)
     */
    private void registerGauge(String name) {
        Gauge.builder("sqlagent.source.waiting", this,
                registry -> registry.find(name).map(source -> source.waiting().get()).orElse(0))
                .description("Calls waiting for a connection of the source's pool")
                .tag("source", name)
                .register(Metrics.globalRegistry);
        // Counted from the start (at 0), so that a rate over them reads 0 rather than nothing.
        Source.busyCounter(name, Source.QUEUE_FULL);
        Source.busyCounter(name, Source.TIMEOUT);
        Source.busyCounter(name, Source.PRINCIPAL_SHARE);
    }

    /** Names of the sources set in configuration ({@code sqlagent.sources.*}), not declared at runtime. */
    public Set<String> configuredNames() {
        return configured;
    }

    /**
     * Makes {@code settings} the sources declared at runtime (by tool files), beside the configured
     * ones: a new name gets a pool, a name whose settings changed gets a new pool, a name no longer
     * declared is removed; old pools are closed after the swap. Readiness covers declared sources
     * like configured ones.
     *
     * @throws IllegalArgumentException if a name is already a configured source
     */
    public synchronized void replaceDeclared(Map<String, SourceSettings> settings) {
        for (String name : settings.keySet()) {
            if (configured.contains(name)) {
                throw new IllegalArgumentException(
                        "Source '" + name + "' is configured in sqlagent.sources and cannot be declared again");
            }
        }
        Map<String, Source> next = new TreeMap<>(sources);
        List<Source> retired = new ArrayList<>();
        List<Source> added = new ArrayList<>();
        for (String name : declared.keySet()) {
            if (!declared.get(name).equals(settings.get(name))) {
                retired.add(next.remove(name));
            }
        }
        settings.forEach((name, wanted) -> {
            if (!next.containsKey(name)) {
                Source source = build(name, wanted, vertx);
                next.put(name, source);
                registerGauge(name);
                added.add(source);
            }
        });
        sources = Collections.unmodifiableMap(next);
        declared = Map.copyOf(settings);
        retired.forEach(source -> source.pool().ifPresent(Pool::closeAndForget));
        added.forEach(this::probeAndLog);
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
            probeAndLog(source);
        }
    }

    /** Logs whether the source answers and, when it does, whether its role may do more than read. */
    private void probeAndLog(Source source) {
        source.probe(STARTUP_PROBE_TIMEOUT)
                .invoke(SourceRegistry::log)
                .flatMap(status -> status.up() ? roles.logLine(source, STARTUP_PROBE_TIMEOUT)
                        : Uni.createFrom().item(Optional.<String> empty()))
                .subscribe().with(warning -> warning.ifPresent(line -> logRole(source, line)));
    }

    /**
     * A role that may do more than read is a warning with the fix, except on the shipped demo: its
     * embedded server has only its superuser, and no one can act on that; they are told for later.
     */
    private static void logRole(Source source, String line) {
        if (io.sqlagent.EmbeddedDemo.setsProperty("sqlagent.sources." + source.name() + ".url")) {
            Log.infof("Source '%s' is the embedded Chinook demo, read as its superuser (the agent's SQL is kept read-only); "
                    + "when you connect a database of your own, give the agent a read-only role (README, \"Give the agent a "
                    + "read-only role\")", source.name());
        } else {
            Log.warn(line);
        }
    }

    private static void log(SourceStatus status) {
        if (status.up()) {
            Log.infof("Source '%s' is UP: %s at %s", status.name(), Redaction.redact(status.detail()), status.url());
        } else {
            Log.warnf(
                    "Source '%s' is DOWN at %s: %s. Readiness stays DOWN until it answers; check %s (sqlagent.sources.%s.url and its username/password).",
                    status.name(), status.url(), Redaction.redact(status.detail()), Source.urlVariable(status.name()),
                    status.name());
        }
    }

    /**
     * What every new PostgreSQL source connection is set to before the pool hands it out ({@link PgSession#SESSION_DEFAULTS}).
     */
    static final String SESSION_DEFAULTS = PgSession.SESSION_DEFAULTS;

    private static Source build(String name, SourcesConfig.Source settings, Vertx vertx) {
        settings.password().ifPresent(Redaction::secret);
        Redaction.secret(Redaction.urlPassword(settings.url()));
        String displayUrl = SourceUrls.redact(settings.url());
        Source.PoolLimits limits = new Source.PoolLimits(settings.maxPoolSize(), settings.maxWaitQueueSize(),
                settings.acquireTimeout(),
                settings.maxStatementsPerPrincipal().orElse(Source.PoolLimits.defaultShare(settings.maxPoolSize())));
        if (limits.perPrincipal() < 1) {
            String problem = "sqlagent.sources." + name + ".max-statements-per-principal is " + limits.perPrincipal()
                    + "; it must be at least 1";
            Log.errorf("Source '%s' is misconfigured: %s.", name, problem);
            return new Source(name, displayUrl, Optional.empty(), Optional.of(problem), limits, new AtomicInteger());
        }
        try {
            Engine engine = Engines.forUrl(settings.url());
            PoolOptions poolOptions = new PoolOptions()
                    .setMaxSize(settings.maxPoolSize())
                    // Bounded waits: a full queue is refused at once, a wait ends at the acquire timeout, which
                    // Source.connection times itself (why not the pool: there). 0: the pool times no wait.
                    .setMaxWaitQueueSize(settings.maxWaitQueueSize())
                    .setConnectionTimeout(0)
                    .setName("sqlagent-source-" + name);
            io.vertx.sqlclient.Pool pool = engine.pool(vertx.getDelegate(),
                    new Engine.Connect(SourceUrls.canonical(settings.url()),
                            settings.username(), settings.password(), settings.connectTimeout()),
                    poolOptions);
            return new Source(name, displayUrl, Optional.of(Pool.newInstance(pool)), Optional.empty(), limits,
                    new AtomicInteger(), engine);
        } catch (RuntimeException e) {
            String problem = "invalid URL '" + displayUrl + "': " + SourceUrls.redact(String.valueOf(e.getMessage()));
            Log.errorf("Source '%s' is misconfigured: %s. Fix %s.", name, problem, Source.urlVariable(name));
            return new Source(name, displayUrl, Optional.empty(), Optional.of(problem), limits,
                    new AtomicInteger());
        }
    }

    @PreDestroy
    void close() {
        for (Source source : sources.values()) {
            source.pool().ifPresent(Pool::closeAndForget);
        }
    }
}
