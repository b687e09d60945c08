package io.sqlagent.sql.source;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkus.runtime.Startup;
import io.sqlagent.Caller;
import io.sqlagent.jsonschema.Violation;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.tool.ToolArgumentsException;
import io.sqlagent.tool.ToolException;

/**
 * The sources the SQL tools ({@code run_sql}, {@code introspect_schema}, {@code search_schema}) may query, and the one
 * a call's {@code source} argument picks: {@code sqlagent.sql.source} when it is left out, else any configured source
 * ({@code sqlagent.sources.<name>}; only those of {@code sqlagent.sql.sources} when that is set). Sources declared in
 * tool files serve their declared tools only. A caller the source's role mapping refuses ({@code role-claim},
 * {@code allowed-roles}) may not use it through any of these tools: the call is forbidden, naming the source, as that
 * caller's statements there always were. Built at start-up, so a name in {@code sqlagent.sql.sources} that is not a
 * configured source stops the service.
 */
@Singleton
@Startup
public class SourceChoice {

    /** The name of the tools' argument, as their schemas and errors spell it. */
    public static final String ARGUMENT = "source";

    /**
     * One source the SQL tools may name.
     *
     * @param name the source's name
     * @param engine its engine as {@link SourceUrls#engine} reads its URL; empty when the URL names none (the source is
     *        misconfigured and says so when used) or it is not configured
     * @param isDefault whether it is {@code sqlagent.sql.source}, used when the argument is left out
     */
    public record Offered(String name, Optional<String> engine, boolean isDefault) {

        /** The source as the model and people read it: {@code warehouse (MariaDB)}. */
        public String label() {
            String kind = engine.map(SourceChoice::engineName).orElse("unknown engine");
            return name + " (" + kind + (isDefault ? "; the default" : "") + ")";
        }
    }

    private final List<Offered> offered;
    private final String defaultName;
    private final SourceRegistry sources;
    private final SessionIdentity identities;

    @Inject
    SourceChoice(SqlConfig sql, SourcesConfig configured, SourceRegistry sources, SessionIdentity identities) {
        this(sql.source(), sql.sources(), urls(configured), sources, identities);
    }

    /**
     * The choice among {@code urls} (configured sources' URLs by name).
     *
     * @throws IllegalStateException when {@code named} holds a name that is not configured
     */
    SourceChoice(String defaultName, Optional<List<String>> named, Map<String, String> urls, SourceRegistry sources,
            SessionIdentity identities) {
        this.defaultName = defaultName;
        this.sources = sources;
        this.identities = identities;
        Set<String> names = new TreeSet<>(urls.keySet());
        if (named.isPresent()) {
            Set<String> unknown = new TreeSet<>();
            names = new TreeSet<>();
            for (String name : named.get()) {
                String trimmed = name.strip();
                if (trimmed.isEmpty()) {
                    continue;
                }
                if (!urls.containsKey(trimmed)) {
                    unknown.add(trimmed);
                }
                names.add(trimmed);
            }
            if (!unknown.isEmpty()) {
                throw new IllegalStateException("sqlagent.sql.sources names " + (unknown.size() == 1 ? "a source" : "sources")
                        + " that no sqlagent.sources.<name>.url configures: " + String.join(", ", unknown)
                        + (urls.isEmpty() ? "; no source is configured"
                                : "; configured: " + String.join(", ", new TreeSet<>(urls.keySet()))));
            }
        }
        names.remove(defaultName);
        List<Offered> list = new ArrayList<>();
        // The default first: the one the model reads about first is the one it gets without asking.
        list.add(new Offered(defaultName, engineOf(urls.get(defaultName)), true));
        names.forEach(name -> list.add(new Offered(name, engineOf(urls.get(name)), false)));
        this.offered = List.copyOf(list);
    }

    private static Map<String, String> urls(SourcesConfig configured) {
        Map<String, String> urls = new TreeMap<>();
        configured.all().forEach((name, settings) -> urls.put(name, settings.url()));
        return urls;
    }

    private static Optional<String> engineOf(String url) {
        if (url == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(SourceUrls.engine(url));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The engine's name as people write it: PostgreSQL, MySQL, MariaDB. */
    static String engineName(String engine) {
        return Engines.displayName(Engines.forUrl(engine + "://"));
    }

    /** The sources the SQL tools may name, the default first, then by name. */
    public List<Offered> offered() {
        return offered;
    }

    /** The name of the source used when the argument is left out ({@code sqlagent.sql.source}). */
    public String defaultName() {
        return defaultName;
    }

    /** The offered sources as one line for the model: {@code default (PostgreSQL; the default), warehouse (MariaDB)}. */
    public String summary() {
        return String.join(", ", offered.stream().map(Offered::label).toList());
    }

    /**
     * The source a call names ({@code requested}), or the default one, for {@code caller}.
     *
     * @throws ToolArgumentsException when {@code requested} names no source the SQL tools may use; the message lists
     *         those they may
     * @throws ToolException when the default source is not configured
     * @throws io.sqlagent.tool.ToolForbiddenException when the source maps callers to roles and refuses this one
     */
    public Source choose(Optional<String> requested, Caller caller) {
        Optional<String> named = requested.map(String::strip).filter(name -> !name.isEmpty());
        String name = named.orElse(defaultName);
        if (named.isPresent() && offered.stream().noneMatch(source -> source.name().equals(name))) {
            String problem = "names no source the SQL tools may query; sources: " + summary();
            throw new ToolArgumentsException("Unknown source '" + cut(name) + "': the argument " + ARGUMENT + " " + problem,
                    List.of(new Violation(ARGUMENT, problem)));
        }
        Source source = sources.find(name)
                .orElseThrow(() -> new ToolException("No source named '" + name + "' is configured"));
        // The role mapping decides who may use a source at all: the same refusal its statements would meet.
        identities.of(name, caller);
        return source;
    }

    private static String cut(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "…";
    }
}
