package io.sqlagent.declarative;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.guard.NamedParameters;
import io.sqlagent.tool.ToolException;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Binds validated arguments to a declared statement without ever splicing them into its text. On PostgreSQL each
 * {@code :name} becomes a numbered parameter cast to the parameter's type ({@code $1::text}; a name written twice
 * takes the same number); on MySQL and MariaDB ({@link Engine.Parameters#MARKS}) each {@code :name}, every time it is
 * written, becomes a {@code ?} mark with its own copy of the value, the value's type carried by the protocol. An array
 * becomes one parameter per element ({@code IN ($1::bigint, $2::bigint)}, {@code IN (?, ?)}), a left-out argument
 * takes its default, or binds as a NULL when it has none (an array: one NULL element, also for an empty array).
 */
final class StatementBinder {

    private StatementBinder() {
    }

    /**
     * A statement ready to run.
     *
     * @param sql the statement with positional parameters ({@code $1} or {@code ?})
     * @param values the parameter values, {@code $1} (or the first {@code ?}) first
     */
    record Bound(String sql, Tuple values) {
    }

    /** The text of one positional parameter of {@code type}. */
    static String slot(int number, ParameterType type) {
        return "$" + number + "::" + type.sqlType();
    }

    /**
     * The statement as the source's engine is sent it, with no value bound: what its statement check and the table
     * policy check are asked about as the file loads.
     */
    static String unbound(Engine engine, NamedParameters statement, Map<String, ParameterType> types) {
        if (engine.parameters() == Engine.Parameters.MARKS) {
            return statement.replaceEach(placeholder -> "?");
        }
        return statement.rewrite(Map.of(), (placeholder, number) -> slot(number,
                types.getOrDefault(placeholder, ParameterType.STRING))).sql();
    }

    /** {@code arguments} bound to {@code tool}'s statement as {@code engine}'s statements take values. */
    static Bound bind(DeclaredTool tool, ObjectNode arguments, Engine engine) {
        Map<String, JsonNode> values = new HashMap<>();
        Map<String, Integer> arity = new HashMap<>();
        Map<String, ParameterType> types = new HashMap<>();
        for (DeclaredParameter parameter : tool.parameters()) {
            JsonNode value = arguments.get(parameter.name());
            if (value == null || value.isNull()) {
                value = parameter.defaultValue().orElse(null);
            }
            // An empty list (allowed only with minLength: 0) binds like a left-out one: IN () is not SQL.
            if (value != null && value.isArray() && value.isEmpty()) {
                value = null;
            }
            values.put(parameter.name(), value);
            types.put(parameter.name(), parameter.valueType());
            if (parameter.type() == ParameterType.ARRAY && value != null) {
                arity.put(parameter.name(), value.size());
            }
        }
        if (engine.parameters() == Engine.Parameters.MARKS) {
            return marked(tool, values, arity, types);
        }
        NamedParameters.Rewritten rewritten = tool.statement()
                .rewrite(arity, (name, number) -> slot(number, types.get(name)));
        checkLength(tool, rewritten.sql());
        int count = 0;
        for (Map.Entry<String, Integer> first : rewritten.firstNumber().entrySet()) {
            count = Math.max(count, first.getValue() - 1 + arity.getOrDefault(first.getKey(), 1));
        }
        Object[] positional = new Object[count];
        for (DeclaredParameter parameter : tool.parameters()) {
            Integer first = rewritten.firstNumber().get(parameter.name());
            if (first == null) {
                continue;
            }
            JsonNode value = values.get(parameter.name());
            if (parameter.type() == ParameterType.ARRAY && value != null) {
                for (int i = 0; i < value.size(); i++) {
                    positional[first - 1 + i] = javaValue(value.get(i), parameter.valueType());
                }
            } else {
                positional[first - 1] = javaValue(value, parameter.valueType());
            }
        }
        Tuple tuple = Tuple.tuple();
        Arrays.stream(positional).forEach(tuple::addValue);
        return new Bound(rewritten.sql(), tuple);
    }

    /** Each placeholder, every time it is written, as many {@code ?} as it has values, the values in the same order. */
    private static Bound marked(DeclaredTool tool, Map<String, JsonNode> values, Map<String, Integer> arity,
            Map<String, ParameterType> types) {
        Tuple tuple = Tuple.tuple();
        String sql = tool.statement().replaceEach(placeholder -> {
            String name = placeholder.name();
            JsonNode value = values.get(name);
            if (arity.containsKey(name)) {
                value.forEach(element -> tuple.addValue(javaValue(element, types.get(name))));
            } else {
                tuple.addValue(javaValue(value, types.get(name)));
            }
            return String.join(", ", java.util.Collections.nCopies(arity.getOrDefault(name, 1), "?"));
        });
        checkLength(tool, sql);
        return new Bound(sql, tuple);
    }

    private static void checkLength(DeclaredTool tool, String sql) {
        if (sql.length() > tool.security().maxQueryLength()) {
            throw new ToolException("The statement of '" + tool.name() + "' would have " + sql.length()
                    + " characters with these arguments; its limit is " + tool.security().maxQueryLength()
                    + " (security.maxQueryLength): pass fewer values");
        }
    }

    private static Object javaValue(JsonNode value, ParameterType type) {
        if (value == null || value.isNull()) {
            return null;
        }
        return switch (type) {
            case STRING -> value.asText();
            case INTEGER -> value.longValue();
            case FLOAT -> value.doubleValue();
            case BOOLEAN -> value.booleanValue();
            case ARRAY -> throw new IllegalArgumentException("arrays have no single value");
        };
    }
}
