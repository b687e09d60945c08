package io.sqlagent.declarative;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.guard.NamedParameters;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.guard.SqlVerdict;
import io.sqlagent.sql.guard.StatementKind;
import io.sqlagent.sql.source.Engines;
import io.sqlagent.yaml.YamlProblem;
import io.sqlagent.yaml.YamlTree;

/**
 * Reads one entry of {@code tools} (already valid against the format's schema) and checks it: its
 * source exists, every {@code :name} has a parameter and every parameter is used, a read-only
 * statement is one read-only query in its source's dialect (PostgreSQL's guard, or the engine's statement check, as
 * {@code run_sql} checks it there), forbidden keywords, the length limit and the parameters.
 */
final class ToolDeclarations {

    /** How a problem of a statement the table policy refuses begins. */
    static final String POLICY_PROBLEM = "the statement reads what the table policy refuses";

    private final YamlTree file;
    private final String name;
    private final String path;
    private final JsonNode node;
    private final Map<String, Engine> knownSources;
    private final SqlGuard guard;
    private final Set<StatementKind> allowed;
    private final StatementPolicy policy;
    private final List<YamlProblem> problems;

    ToolDeclarations(YamlTree file, String name, JsonNode node, Map<String, Engine> knownSources,
            DeclarationReader.Context context,
            List<YamlProblem> problems) {
        this.file = file;
        this.name = name;
        this.path = YamlTree.child("tools", name);
        this.node = node;
        this.knownSources = knownSources;
        this.guard = context.guard();
        this.allowed = context.allowed();
        this.policy = context.policy();
        this.problems = problems;
    }

    private String field(String field) {
        return YamlTree.child(path, field);
    }

    Optional<DeclaredTool> read() {
        int before = problems.size();
        String source = node.get("source").textValue();
        if (!knownSources.containsKey(source)) {
            problems.add(file.problem(field("source"), "unknown source '" + source + "'; known sources: "
                    + (knownSources.isEmpty() ? "none" : String.join(", ", new java.util.TreeSet<>(knownSources.keySet())))));
        }
        // The statement is read in its source's dialect; an unknown source's problem is reported above.
        Engine engine = knownSources.getOrDefault(source, Engines.POSTGRESQL);
        List<DeclaredParameter> parameters = parameters();
        DeclaredToolSecurity security = security();
        String sql = node.get("statement").textValue();
        NamedParameters statement;
        try {
            statement = engine.placeholders(sql);
        } catch (IllegalArgumentException e) {
            problems.add(file.problem(field("statement"), Engines.displayName(engine) + " could not read the statement: "
                    + e.getMessage()));
            return Optional.empty();
        }
        checkPlaceholders(statement);
        checkStatement(engine, statement, parameters, security);
        if (problems.size() == before) {
            checkPolicy(engine, source, statement, parameters);
        }
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new DeclaredTool(name, file.file(), source, node.get("description").textValue().strip(), statement,
                parameters, security, "markdown".equals(node.path("responseFormat").asText("json")),
                integer("maxDisplayRows"), integer("rowsToFetch"), node.path("fetchAllRows").asBoolean(false), metadata()));
    }

    private List<DeclaredParameter> parameters() {
        List<DeclaredParameter> parameters = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        JsonNode list = node.path("parameters");
        for (int i = 0; i < list.size(); i++) {
            String parameterPath = YamlTree.element(field("parameters"), i);
            String parameterName = list.get(i).get("name").textValue();
            Integer first = seen.putIfAbsent(parameterName, i);
            if (first != null) {
                problems.add(file.problem(YamlTree.child(parameterPath, "name"), "parameter '" + parameterName
                        + "' is declared twice (also parameters[" + first + "])"));
                continue;
            }
            ParameterDeclarations.read(file, parameterPath, list.get(i), problems).ifPresent(parameters::add);
        }
        return parameters;
    }

    private void checkPlaceholders(NamedParameters statement) {
        Set<String> used = statement.names();
        JsonNode list = node.path("parameters");
        Set<String> declared = new java.util.HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String parameterName = list.get(i).get("name").textValue();
            declared.add(parameterName);
            if (!used.contains(parameterName)) {
                problems.add(file.problem(YamlTree.child(YamlTree.element(field("parameters"), i), "name"), "parameter '"
                        + parameterName + "' is never used in the statement (write :" + parameterName + " where it goes)"));
            }
        }
        for (String placeholder : used) {
            if (!declared.contains(placeholder)) {
                problems.add(file.problem(field("statement"), "the statement uses :" + placeholder
                        + " but no parameter is named '" + placeholder + "'"));
            }
        }
    }

    private void checkStatement(Engine engine, NamedParameters statement, List<DeclaredParameter> parameters,
            DeclaredToolSecurity security) {
        if (statement.sql().length() > security.maxQueryLength()) {
            problems.add(file.problem(field("statement"), "the statement has " + statement.sql().length()
                    + " characters; security.maxQueryLength allows " + security.maxQueryLength()));
        }
        for (String keyword : security.forbiddenKeywords()) {
            if (statement.words().contains(keyword)) {
                problems.add(file.problem(field("statement"), "the statement contains the forbidden keyword " + keyword
                        + " (security.forbiddenKeywords)"));
            }
        }
        if (!security.readOnly() && engine != Engines.POSTGRESQL) {
            // The engine's transaction always ends in a rollback: such a tool would change nothing, silently.
            problems.add(file.problem(field("security.readOnly"), "statements that change data run on PostgreSQL "
                    + "sources only; this tool's source is " + Engines.displayName(engine)
                    + " (remove security.readOnly: false for a read-only query)"));
        } else if (security.readOnly()) {
            SqlVerdict verdict = verdict(engine, positional(engine, statement, parameters));
            if (!verdict.allowed()) {
                problems.add(file.problem(field("statement"), "a readOnly tool needs a single read-only query: "
                        + verdict.reason() + " (set security.readOnly: false only for a statement meant to change data)"));
            }
        }
    }

    /**
     * The verdict of the source's statement check on the statement as it is sent: PostgreSQL's guard (which knows its
     * own {@code $1}), or the engine's check in its dialect ({@code ?} marks are parameters to it too).
     */
    private SqlVerdict verdict(Engine engine, String sql) {
        if (engine == Engines.POSTGRESQL) {
            return guard.checkWithParameters(sql);
        }
        return engine.statementCheck(allowed).check(sql);
    }

    /** The statement as it is run: each {@code :name} a typed positional parameter, or the engine's mark. */
    private static String positional(Engine engine, NamedParameters statement, List<DeclaredParameter> parameters) {
        Map<String, ParameterType> types = new HashMap<>();
        parameters.forEach(parameter -> types.put(parameter.name(), parameter.valueType()));
        return StatementBinder.unbound(engine, statement, types);
    }

    /**
     * Refuses a statement that names a table the policy refuses, or whose plan reads one or a hidden column, as
     * {@code run_sql} would; every statement, a writing one too: the policy says what the SQL tools may use.
     */
    private void checkPolicy(Engine engine, String source, NamedParameters statement, List<DeclaredParameter> parameters) {
        String sql = positional(engine, statement, parameters);
        // Names compare as PostgreSQL reads them (unqualified: public) only on PostgreSQL; another engine's server
        // resolves them (StatementPolicy).
        Set<String> named = engine == Engines.POSTGRESQL ? guard.checkWithParameters(sql).tables()
                : Set.of();
        policy.refusal(source, sql, named).ifPresent(reason -> problems.add(
                file.problem(field("statement"), POLICY_PROBLEM + ": " + reason)));
    }

    private DeclaredToolSecurity security() {
        JsonNode security = node.path("security");
        List<String> forbidden = new ArrayList<>();
        security.path("forbiddenKeywords").forEach(word -> forbidden.add(word.asText().strip().toUpperCase(Locale.ROOT)));
        List<String> scopes = new ArrayList<>();
        security.path("scopes").forEach(scope -> scopes.add(scope.asText()));
        return new DeclaredToolSecurity(security.path("readOnly").asBoolean(true),
                security.path("maxQueryLength").asInt(DeclaredToolSecurity.DEFAULT_MAX_QUERY_LENGTH), forbidden,
                security.path("audit").asBoolean(false), scopes, text(security, "requiredAuthority"),
                text(security, "warning"));
    }

    private Map<String, Object> metadata() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        node.path("metadata").properties().forEach(entry -> metadata.put(entry.getKey(),
                SnakeCaseJson.MAPPER.convertValue(entry.getValue(), Object.class)));
        return metadata;
    }

    private Optional<Integer> integer(String field) {
        return Optional.ofNullable(node.get(field)).map(JsonNode::intValue);
    }

    private static Optional<String> text(JsonNode node, String field) {
        return Optional.ofNullable(node.get(field)).map(JsonNode::asText);
    }
}
