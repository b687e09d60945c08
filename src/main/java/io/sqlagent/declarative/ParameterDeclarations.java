package io.sqlagent.declarative;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.jsonschema.CompiledSchema;
import io.sqlagent.jsonschema.Violation;
import io.sqlagent.yaml.YamlProblem;
import io.sqlagent.yaml.YamlTree;

/**
 * Reads one entry of a tool's {@code parameters} (already valid against the format's schema) and
 * checks what the schema cannot: the options fit the type, the regular expression compiles, the
 * bounds are in order and the default meets the parameter's own constraints.
 */
final class ParameterDeclarations {

    private ParameterDeclarations() {
    }

    static Optional<DeclaredParameter> read(YamlTree tree, String path, JsonNode node, List<YamlProblem> problems) {
        int before = problems.size();
        ParameterType type = ParameterType.of(node.get("type").textValue());
        Optional<ParameterType> itemType = text(node, "itemType").map(ParameterType::of);
        if (type == ParameterType.ARRAY && itemType.isEmpty()) {
            problems.add(tree.problem(YamlTree.child(path, "type"),
                    "an array needs an itemType (string, integer, float or boolean)"));
        }
        if (type != ParameterType.ARRAY && itemType.isPresent()) {
            problems.add(tree.problem(YamlTree.child(path, "itemType"), "only an array has an itemType"));
        }
        ParameterType valueType = itemType.orElse(type);
        Optional<JsonNode> minimum = bound(tree, path, node, "minimum", "min", problems);
        Optional<JsonNode> maximum = bound(tree, path, node, "maximum", "max", problems);
        boolean numeric = valueType == ParameterType.INTEGER || valueType == ParameterType.FLOAT;
        if (!numeric && (minimum.isPresent() || maximum.isPresent())) {
            problems.add(tree.problem(YamlTree.child(path, node.has("minimum") || node.has("min") ? key(node, "minimum", "min")
                    : key(node, "maximum", "max")), "minimum and maximum apply to integer and float values only"));
        }
        Optional<Integer> minLength = Optional.ofNullable(node.get("minLength")).map(JsonNode::intValue);
        Optional<Integer> maxLength = Optional.ofNullable(node.get("maxLength")).map(JsonNode::intValue);
        if (valueType != ParameterType.STRING && type != ParameterType.ARRAY
                && (minLength.isPresent() || maxLength.isPresent())) {
            problems.add(tree.problem(YamlTree.child(path, minLength.isPresent() ? "minLength" : "maxLength"),
                    "minLength and maxLength apply to strings and arrays only"));
        }
        Optional<String> pattern = text(node, "pattern");
        if (pattern.isPresent()) {
            if (valueType != ParameterType.STRING) {
                problems.add(tree.problem(YamlTree.child(path, "pattern"), "a pattern applies to string values only"));
            }
            try {
                Pattern.compile(pattern.get());
            } catch (PatternSyntaxException e) {
                problems.add(tree.problem(YamlTree.child(path, "pattern"), "is not a valid regular expression: "
                        + e.getDescription() + " near index " + e.getIndex()));
            }
        }
        List<JsonNode> enumValues = new ArrayList<>();
        node.path("enum").forEach(enumValues::add);
        boolean required = node.path("required").asBoolean(false);
        Optional<JsonNode> defaultValue = Optional.ofNullable(node.get("default")).filter(value -> !value.isNull());
        if (problems.size() > before) {
            return Optional.empty();
        }
        DeclaredParameter parameter = new DeclaredParameter(node.get("name").textValue(), type, itemType,
                node.path("description").asText(""), required, defaultValue, pattern, minLength, maxLength, enumValues,
                minimum, maximum);
        CompiledSchema schema;
        try {
            schema = CompiledSchema.compile(ParameterSchemas.parameter(parameter));
        } catch (IllegalArgumentException e) {
            // min above max, an enum of the wrong type and the like: the validator says which.
            String reason = e.getMessage().replaceFirst("^invalid schema at #[^:]*: ", "");
            problems.add(tree.problem(path, reason));
            return Optional.empty();
        }
        for (JsonNode value : enumValues) {
            if (!fits(valueType, value)) {
                problems.add(tree.problem(YamlTree.child(path, "enum"), "value " + value + " is not " + article(valueType)));
            }
        }
        if (defaultValue.isPresent()) {
            List<Violation> violations = schema.validate(defaultValue.get());
            if (!violations.isEmpty()) {
                problems.add(tree.problem(YamlTree.child(path, "default"), "the default " + defaultValue.get()
                        + " breaks the parameter's own constraints: " + describe(violations)));
            }
        }
        return problems.size() > before ? Optional.empty() : Optional.of(parameter);
    }

    private static String describe(List<Violation> violations) {
        return violations.stream()
                .map(v -> v.argument().equals("(root)") ? v.problem() : v.argument().replace("(root)", "") + " " + v.problem())
                .reduce((a, b) -> a + "; " + b).orElse("");
    }

    private static boolean fits(ParameterType type, JsonNode value) {
        return switch (type) {
            case STRING -> value.isTextual();
            case INTEGER -> value.isIntegralNumber();
            case FLOAT -> value.isNumber();
            case BOOLEAN -> value.isBoolean();
            case ARRAY -> false;
        };
    }

    private static String article(ParameterType type) {
        return type == ParameterType.INTEGER ? "an integer" : "a " + type.yamlName();
    }

    /** {@code minimum} or its alias {@code min}; both at once is a problem. */
    private static Optional<JsonNode> bound(YamlTree tree, String path, JsonNode node, String name, String alias,
            List<YamlProblem> problems) {
        if (node.has(name) && node.has(alias)) {
            problems.add(tree.problem(YamlTree.child(path, alias), alias + " is an alias of " + name + "; give only one"));
        }
        return Optional.ofNullable(node.has(name) ? node.get(name) : node.get(alias));
    }

    private static String key(JsonNode node, String name, String alias) {
        return node.has(name) ? name : alias;
    }

    private static Optional<String> text(JsonNode node, String field) {
        return Optional.ofNullable(node.get(field)).filter(JsonNode::isTextual).map(JsonNode::textValue);
    }
}
