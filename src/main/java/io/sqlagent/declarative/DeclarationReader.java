package io.sqlagent.declarative;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.jsonschema.CompiledSchema;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.guard.StatementKind;
import io.sqlagent.sql.source.Engines;
import io.sqlagent.tool.Toolset;
import io.sqlagent.yaml.YamlProblem;
import io.sqlagent.yaml.YamlTree;

/**
 * Turns parsed tool files into {@link Declarations}, or into every problem they have. First each
 * file is validated against the format's JSON Schema ({@code declarative/sql-tools.schema.json});
 * then what a schema cannot check: sources exist, names are unique across files and against the
 * built-in tools, the statement's {@code :name}s and the parameters match, a read-only tool's
 * statement passes the same guard as {@code run_sql}, forbidden keywords, regular expressions,
 * defaults, and toolsets name known tools. Parts that break the schema skip the later checks.
 */
public final class DeclarationReader {

    /** Where the format's JSON Schema is on the classpath. */
    public static final String SCHEMA_RESOURCE = "declarative/sql-tools.schema.json";

    private static final CompiledSchema FORMAT = YamlTree.schema(SCHEMA_RESOURCE);
    private static final Pattern TOOL_NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    /**
     * What the files are checked against, besides themselves.
     *
     * @param configuredSources names of the sources configured outside the files
     * @param reservedTools names of the tools that are not declared in files (the built-in ones)
     * @param guard the guard {@code run_sql} uses on PostgreSQL sources
     * @param environment looks up {@code ${ENV_VAR}} references
     * @param policy checks each statement against the table policy and hidden columns
     * @param engines the engine of each configured source (a source declared in a file has its URL's)
     * @param allowed the statement kinds {@code run_sql} allows ({@code sqlagent.sql.allowed-statements}), for the
     *        statement check of another engine than PostgreSQL
     */
    public record Context(Set<String> configuredSources, Set<String> reservedTools, SqlGuard guard,
            UnaryOperator<String> environment, StatementPolicy policy, Function<String, Engine> engines,
            Set<StatementKind> allowed) {

        /** A context whose sources are all PostgreSQL. */
        public Context(Set<String> configuredSources, Set<String> reservedTools, SqlGuard guard,
                UnaryOperator<String> environment, StatementPolicy policy) {
            this(configuredSources, reservedTools, guard, environment, policy, name -> Engines.POSTGRESQL,
                    EnumSet.of(StatementKind.SELECT));
        }

        /** A context whose statements are not checked against a table policy as they load. */
        public Context(Set<String> configuredSources, Set<String> reservedTools, SqlGuard guard,
                UnaryOperator<String> environment) {
            this(configuredSources, reservedTools, guard, environment, StatementPolicy.NONE);
        }
    }

    /** What reading produced: declarations when {@code problems} is empty. */
    public record Result(Declarations declarations, List<YamlProblem> problems) {

        public boolean ok() {
            return problems.isEmpty();
        }
    }

    private final Context context;
    private final List<YamlProblem> problems = new ArrayList<>();
    private final Map<String, DeclaredSource> sources = new LinkedHashMap<>();
    private final Map<String, String> toolFirstSeen = new HashMap<>();
    private final Map<String, String> toolsetFirstSeen = new HashMap<>();

    private DeclarationReader(Context context) {
        this.context = context;
    }

    /** Reads all {@code files} together (names must be unique across them). */
    public static Result read(List<YamlTree> files, Context context) {
        return new DeclarationReader(context).readAll(files);
    }

    private Result readAll(List<YamlTree> files) {
        Map<YamlTree, Set<String>> broken = new HashMap<>();
        for (YamlTree file : files) {
            problems.addAll(file.problems());
            broken.put(file, schemaProblems(file));
        }
        // Sources first, from every file: a tool may use a source declared in another file.
        for (YamlTree file : files) {
            file.root().path("sources").properties().forEach(entry -> readSource(file, entry.getKey(), entry.getValue(),
                    broken.get(file)));
        }
        Map<String, Engine> knownSources = new HashMap<>();
        context.configuredSources().forEach(name -> knownSources.put(name, context.engines().apply(name)));
        sources.values().forEach(source -> knownSources.put(source.name(), Engines.forUrl(source.url())));
        List<DeclaredTool> tools = new ArrayList<>();
        Set<String> declaredNames = new HashSet<>();
        for (YamlTree file : files) {
            for (Map.Entry<String, JsonNode> entry : file.root().path("tools").properties()) {
                declaredNames.add(entry.getKey());
                if (checkToolName(file, entry.getKey()) && !broken.get(file).contains("tools." + entry.getKey())) {
                    new ToolDeclarations(file, entry.getKey(), entry.getValue(), knownSources, context, problems)
                            .read()
                            .filter(tool -> entry.getValue().path("enabled").asBoolean(true))
                            .ifPresent(tools::add);
                }
            }
        }
        List<Toolset> toolsets = new ArrayList<>();
        for (YamlTree file : files) {
            file.root().path("toolsets").properties().forEach(entry -> {
                if (!broken.get(file).contains("toolsets." + entry.getKey())) {
                    readToolset(file, entry.getKey(), entry.getValue(), declaredNames).ifPresent(toolsets::add);
                }
            });
        }
        List<String> names = files.stream().map(YamlTree::file).toList();
        return new Result(new Declarations(List.copyOf(sources.values()), tools, toolsets, names), List.copyOf(problems));
    }

    /** Reports the file's schema violations; returns the entries ({@code tools.x}, ...) they fall in. */
    private Set<String> schemaProblems(YamlTree file) {
        Set<String> broken = new HashSet<>();
        for (YamlProblem problem : file.validate(FORMAT)) {
            problems.add(problem);
            String path = problem.field().equals(YamlTree.WHOLE_FILE) ? "" : problem.field();
            String[] parts = path.split("\\.", 3);
            if (parts.length >= 2) {
                broken.add(parts[0] + "." + parts[1].replaceFirst("\\[.*", ""));
            } else {
                broken.add(path);
            }
        }
        return broken;
    }

    private void readSource(YamlTree file, String name, JsonNode node, Set<String> broken) {
        String path = YamlTree.child("sources", name);
        if (broken.contains(path)) {
            return;
        }
        if (context.configuredSources().contains(name)) {
            problems.add(file.problem(path, "a source named '" + name + "' is already configured (sqlagent.sources."
                    + name + "); use it without declaring it, or choose another name"));
            return;
        }
        if (sources.containsKey(name)) {
            problems.add(file.problem(path, "source '" + name + "' is also declared in " + sources.get(name).file()
                    + "; source names must be unique"));
            return;
        }
        SourceDeclarations.read(file, name, node, context.environment(), problems)
                .ifPresent(source -> sources.put(name, source));
    }

    private boolean checkToolName(YamlTree file, String name) {
        String path = YamlTree.child("tools", name);
        if (!TOOL_NAME.matcher(name).matches()) {
            problems.add(file.problem(path, "tool name '" + name + "' must be lowercase letters, digits and underscores,"
                    + " starting with a letter (at most 64)"));
            return false;
        }
        if (context.reservedTools().contains(name)) {
            problems.add(file.problem(path, "a built-in tool is already named '" + name + "'; choose another name"));
            return false;
        }
        String first = toolFirstSeen.putIfAbsent(name, file.file() + ":" + file.line(path));
        if (first != null) {
            problems.add(file.problem(path, "tool '" + name + "' is already declared at " + first
                    + "; tool names must be unique across all files"));
            return false;
        }
        return true;
    }

    private Optional<Toolset> readToolset(YamlTree file, String name, JsonNode node, Set<String> declaredTools) {
        String path = YamlTree.child("toolsets", name);
        String first = toolsetFirstSeen.putIfAbsent(name, file.file() + ":" + file.line(path));
        if (first != null) {
            problems.add(file.problem(path, "toolset '" + name + "' is already declared at " + first
                    + "; toolset names must be unique"));
            return Optional.empty();
        }
        List<String> tools = new ArrayList<>();
        boolean ok = true;
        JsonNode listed = node.path("tools");
        for (int i = 0; i < listed.size(); i++) {
            String tool = listed.get(i).textValue();
            if (!declaredTools.contains(tool) && !context.reservedTools().contains(tool)) {
                problems.add(file.problem(YamlTree.element(YamlTree.child(path, "tools"), i), "toolset '" + name
                        + "' names an unknown tool '" + tool + "'"));
                ok = false;
            }
            tools.add(tool);
        }
        return ok ? Optional.of(new Toolset(name, node.path("title").asText(null), node.path("description").asText(""),
                tools, DeclarativeTools.GROUP)) : Optional.empty();
    }
}
