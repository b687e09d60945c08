package io.sqlagent.declarative;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.guard.StatementKind;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.source.Engines;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;
import io.sqlagent.sql.source.SourceSettings;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.ToolRegistration;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.yaml.YamlProblem;
import io.sqlagent.yaml.YamlTree;
import io.vertx.mutiny.core.Vertx;

/**
 * The tools declared in YAML files: loaded at start-up (a bad file stops the start, listing every
 * problem), registered as the registry group {@value #GROUP} with their toolsets, and reloaded
 * when asked or, with {@code sqlagent.tools.watch}, when the files change. A reload swaps every
 * declared tool, toolset and source at once; a reload with problems changes nothing and logs why.
 */
@ApplicationScoped
public class DeclarativeTools {

    /** The registry group of declared tools. */
    public static final String GROUP = "declarative";

    /**
     * How a reload went.
     *
     * @param applied whether the files' tools are now in effect
     * @param tools names of the declared tools in effect afterwards
     * @param problems what kept the files from being applied
     */
    public record Reload(boolean applied, Set<String> tools, List<YamlProblem> problems) {
    }

    private final DeclarativeToolsConfig config;
    private final ToolRegistry registry;
    private final SourceRegistry sources;
    private final QueryRunner runner;
    private final SqlGuard guard;
    /** How long checking one declared statement may take ({@link SqlGuard#withParseTimeout}). */
    static final Duration FILE_PARSE_TIMEOUT = Duration.ofSeconds(30);
    /** How long the plan check of one declared statement may take as it loads. */
    private static final Duration POLICY_CHECK_TIMEOUT = Duration.ofSeconds(10);
    private final SqlConfig sqlConfig;
    /** The statement kinds {@code run_sql} allows, for the statement check of sources of other engines. */
    private final Set<StatementKind> allowed;
    private final TablePolicy tables;
    private final Vertx vertx;
    private volatile Set<String> current = Set.of();
    private volatile String fingerprint = "";
    private long timerId = -1;

    DeclarativeTools(DeclarativeToolsConfig config, ToolRegistry registry, SourceRegistry sources, QueryRunner runner,
            SqlGuard guard, SqlConfig sqlConfig, TablePolicy tables, Vertx vertx) {
        this.tables = tables;
        this.config = config;
        this.registry = registry;
        this.sources = sources;
        this.runner = runner;
        // The files are the operator's and are checked once per load: a budget for a cold parser on a busy start.
        this.guard = guard.withParseTimeout(FILE_PARSE_TIMEOUT);
        this.sqlConfig = sqlConfig;
        this.allowed = StatementKind.parseAll(sqlConfig.allowedStatements());
        this.vertx = vertx;
    }

    void loadOnStart(@Observes StartupEvent event) {
        Reload reload = reload();
        if (!reload.applied()) {
            throw startFailure(reload.problems(), config.paths().isEmpty() && shippedApplies());
        }
        if (config.watch() && config.paths().isPresent()) {
            timerId = vertx.setPeriodic(config.watchInterval().toMillis(),
                    id -> Infrastructure.getDefaultWorkerPool().execute(this::reloadIfChanged));
            Log.infof("Watching %s for tool changes every %s", config.paths().get(), config.watchInterval());
        }
    }

    /**
     * Why the start stops, for the problems of the tool files. When the files are the shipped demo tools
     * ({@code shipped}) and the table policy refuses what they read, the operator did not write them and may not want
     * them: the message says how to start without them.
     */
    static DeclaredToolsException startFailure(List<YamlProblem> problems, boolean shipped) {
        if (shipped && problems.stream().anyMatch(problem -> problem.message().startsWith(ToolDeclarations.POLICY_PROBLEM))) {
            return new DeclaredToolsException(problems, "The tools above are the Chinook demo tools shipped with the "
                    + "service (classpath:" + ToolFiles.SHIPPED
                    + "), loaded because sqlagent.tools.paths is unset; the table policy "
                    + "(sqlagent.sql.allowed-tables, denied-tables, hidden-columns) refuses what they read. Set "
                    + "sqlagent.tools.shipped=false (SQLAGENT_TOOLS_SHIPPED=false) to start without them, or "
                    + "sqlagent.tools.paths to tool files of your own.");
        }
        return new DeclaredToolsException(problems);
    }

    /** Names of the declared tools in effect. */
    public Set<String> names() {
        return current;
    }

    /**
     * Reads the files again and, when they have no problems, puts their tools, toolsets and sources
     * in effect at once; otherwise keeps what is in effect and logs every problem. Blocks (file
     * I/O, parsing): call it from a worker thread.
     */
    public synchronized Reload reload() {
        List<String> paths = config.paths().orElse(List.of());
        String seen = ToolFiles.fingerprint(paths);
        List<YamlTree> files = new ArrayList<>();
        if (config.paths().isPresent()) {
            files.addAll(ToolFiles.read(paths));
        } else if (shippedApplies()) {
            files.add(ToolFiles.shipped());
        }
        Set<String> reserved = registry.list().stream().map(ToolDescriptor::name)
                .filter(name -> !current.contains(name)).collect(Collectors.toSet());
        DeclarationReader.Result result = DeclarationReader.read(files,
                new DeclarationReader.Context(sources.configuredNames(), reserved, guard, System::getenv,
                        this::policyRefusal, this::engineOf, allowed));
        fingerprint = seen;
        if (!result.ok()) {
            Log.errorf("The tool files have %d problem(s); the tools in effect are unchanged:%n  %s",
                    result.problems().size(), result.problems().stream().map(YamlProblem::toString)
                            .collect(Collectors.joining(System.lineSeparator() + "  ")));
            return new Reload(false, current, result.problems());
        }
        apply(result.declarations());
        Log.infof("Declared SQL tools in effect: %d from %s", current.size(), result.declarations().files());
        return new Reload(true, current, List.of());
    }

    /** The engine of a configured source (PostgreSQL's for a name not configured: the reader reports it). */
    private Engine engineOf(String sourceName) {
        return sources.find(sourceName).filter(source -> !source.isPostgres()).map(Source::engine)
                .orElse(Engines.POSTGRESQL);
    }

    /**
     * Why a declared statement may not load under the table policy: a table it names, else what its plan reads (a
     * generic plan, for any parameter values). On a MySQL or MariaDB source, what the statement names, resolved by
     * the server ({@code EngineReadCheck}). A statement that cannot be checked now (its source is down or declared in
     * the files, its tables not there yet, a server older than PostgreSQL 16) loads, and each call is checked.
     */
    private Optional<String> policyRefusal(String sourceName, String sql, Set<String> named) {
        Optional<String> byName = tables.refusal(named);
        if (byName.isPresent()) {
            return byName;
        }
        Optional<Source> source = sources.find(sourceName);
        if (source.isEmpty()) {
            return Optional.empty();
        }
        try {
            runner.checkPolicyUnbound(source.get(), sql).await().atMost(POLICY_CHECK_TIMEOUT);
            return Optional.empty();
        } catch (ToolRefusedException refused) {
            return Optional.of(refused.getMessage());
        } catch (RuntimeException unplanned) {
            Log.debugf("A declared statement could not be planned as it loads; each call is checked: %s", unplanned.toString());
            return Optional.empty();
        }
    }

    private void reloadIfChanged() {
        try {
            if (!ToolFiles.fingerprint(config.paths().orElse(List.of())).equals(fingerprint)) {
                Log.infof("Tool files changed; reloading");
                reload();
            }
        } catch (RuntimeException e) {
            Log.errorf(e, "Reloading the tool files failed; the tools in effect are unchanged");
        }
    }

    private boolean shippedApplies() {
        if (!config.shipped()) {
            return false;
        }
        return io.sqlagent.EmbeddedDemo.setsProperty("sqlagent.sources.default.url");
    }

    private void apply(Declarations declarations) {
        Map<String, SourceSettings> declaredSources = new LinkedHashMap<>();
        for (DeclaredSource source : declarations.sources()) {
            declaredSources.put(source.name(), new SourceSettings(source.url(), source.user(), source.password(),
                    source.maxPoolSize(), java.time.Duration.ofSeconds(5)));
        }
        int maxFetchRows = config.maxFetchRows();
        int defaultRows = Math.min(sqlConfig.maxRows(), maxFetchRows);
        List<ToolRegistration> registrations = declarations.tools().stream()
                .map(tool -> new ToolRegistration(DeclaredSqlTool.describe(tool),
                        () -> new DeclaredSqlTool(tool, sources, runner, defaultRows, maxFetchRows)))
                .toList();
        sources.replaceDeclared(declaredSources);
        registry.replaceGroup(GROUP, registrations, declarations.toolsets());
        current = declarations.tools().stream().map(DeclaredTool::name).collect(Collectors.toUnmodifiableSet());
    }

    @PreDestroy
    void stopWatching() {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
    }
}
