package io.sqlagent.declarative;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.sql.guard.NamedParameters;
import io.sqlagent.tool.ToolException;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Binds validated arguments to a declared statement without ever splicing them into its text:
 * each {@code :name} becomes a positional parameter cast to the parameter's type
 * ({@code $1::text}), an array becomes one parameter per element ({@code IN ($1::bigint, $2::bigint)}),
 * a left-out argument takes its default, or binds as a typed NULL when it has none (an array: one
 * NULL element, also for an empty array).
 */
final class StatementBinder {

    private StatementBinder() {
    }

    /**
     * A statement ready to run.
     *
     * @param sql the statement with positional parameters
     * @param values the parameter values, {@code $1} first
     */
    record Bound(String sql, Tuple values) {
    }

    /** The text of one positional parameter of {@code type}. */
    static String slot(int number, ParameterType type) {
        return "$" + number + "::" + type.sqlType();
    }

    static Bound bind(DeclaredTool tool, ObjectNode arguments) {
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
        NamedParameters.Rewritten rewritten = tool.statement()
                .rewrite(arity, (name, number) -> slot(number, types.get(name)));
        if (rewritten.sql().length() > tool.security().maxQueryLength()) {
            throw new ToolException("The statement of '" + tool.name() + "' would have " + rewritten.sql().length()
                    + " characters with these arguments; its limit is " + tool.security().maxQueryLength()
                    + " (security.maxQueryLength): pass fewer values");
        }
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
