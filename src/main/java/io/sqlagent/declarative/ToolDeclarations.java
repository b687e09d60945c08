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
import io.sqlagent.sql.guard.NamedParameters;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.guard.SqlVerdict;
import io.sqlagent.yaml.YamlProblem;
import io.sqlagent.yaml.YamlTree;

/**
 * Reads one entry of {@code tools} (already valid against the format's schema) and checks it: its
 * source exists, every {@code :name} has a parameter and every parameter is used, a read-only
 * statement is one read-only query, forbidden keywords, the length limit and the parameters.
 */
final class ToolDeclarations {

    /** How a problem of a statement the table policy refuses begins. */
    static final String POLICY_PROBLEM = "the statement reads what the table policy refuses";

    private final YamlTree file;
    private final String name;
    private final String path;
    private final JsonNode node;
    private final Set<String> knownSources;
    private final SqlGuard guard;
    private final StatementPolicy policy;
    private final List<YamlProblem> problems;

    ToolDeclarations(YamlTree file, String name, JsonNode node, Set<String> knownSources, DeclarationReader.Context context,
            List<YamlProblem> problems) {
        this.file = file;
        this.name = name;
        this.path = YamlTree.child("tools", name);
        this.node = node;
        this.knownSources = knownSources;
        this.guard = context.guard();
        this.policy = context.policy();
        this.problems = problems;
    }

    private String field(String field) {
        return YamlTree.child(path, field);
    }

    Optional<DeclaredTool> read() {
        int before = problems.size();
        String source = node.get("source").textValue();
        if (!knownSources.contains(source)) {
            problems.add(file.problem(field("source"), "unknown source '" + source + "'; known sources: "
                    + (knownSources.isEmpty() ? "none" : String.join(", ", new java.util.TreeSet<>(knownSources)))));
        }
        List<DeclaredParameter> parameters = parameters();
        DeclaredToolSecurity security = security();
        String sql = node.get("statement").textValue();
        NamedParameters statement;
        try {
            statement = NamedParameters.of(sql);
        } catch (IllegalArgumentException e) {
            problems.add(file.problem(field("statement"), "PostgreSQL could not read the statement: " + e.getMessage()));
            return Optional.empty();
        }
        checkPlaceholders(statement);
        checkStatement(statement, parameters, security);
        if (problems.size() == before) {
            checkPolicy(source, statement, parameters);
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

    private void checkStatement(NamedParameters statement, List<DeclaredParameter> parameters, DeclaredToolSecurity security) {
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
        if (security.readOnly()) {
            SqlVerdict verdict = guard.checkWithParameters(positional(statement, parameters));
            if (!verdict.allowed()) {
                problems.add(file.problem(field("statement"), "a readOnly tool needs a single read-only query: "
                        + verdict.reason() + " (set security.readOnly: false only for a statement meant to change data)"));
            }
        }
    }

    /** The statement as it is run: each {@code :name} a typed positional parameter. */
    private static String positional(NamedParameters statement, List<DeclaredParameter> parameters) {
        Map<String, ParameterType> types = new HashMap<>();
        parameters.forEach(parameter -> types.put(parameter.name(), parameter.valueType()));
        return statement.rewrite(Map.of(), (placeholder, number) -> StatementBinder.slot(number,
                types.getOrDefault(placeholder, ParameterType.STRING))).sql();
    }

    /**
     * Refuses a statement that names a table the policy refuses, or whose plan reads one or a hidden column, as
     * {@code run_sql} would; every statement, a writing one too: the policy says what the SQL tools may use.
     */
    private void checkPolicy(String source, NamedParameters statement, List<DeclaredParameter> parameters) {
        String sql = positional(statement, parameters);
        policy.refusal(source, sql, guard.checkWithParameters(sql).tables()).ifPresent(reason -> problems.add(
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
