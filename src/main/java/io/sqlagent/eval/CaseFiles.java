package io.sqlagent.eval;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.ClasspathText;
import io.sqlagent.yaml.YamlProblem;
import io.sqlagent.yaml.YamlTree;

/**
 * Reads suites: the ones shipped under {@code evals/} on the classpath by name, or a case list a
 * caller sends (YAML text, or the same structure as JSON). Every problem is reported with the case
 * and field it is in, before anything runs. YAML is read by the service's one YAML reader
 * ({@link YamlTree}), so a syntax error or a key given twice names the file and line.
 */
public final class CaseFiles {

    /** The suites shipped with the service. */
    public static final List<String> SHIPPED = List.of("chinook");

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    private static final Set<String> SUITE_FIELDS = Set.of("suite", "description", "fixture", "cases");
    private static final Set<String> CASE_FIELDS = Set.of("id", "category", "question", "golden_sql", "expected",
            "expected_rows", "ordered", "extra_columns", "forbidden", "follow_ups", "must_call", "must_not_call",
            "must_not_touch", "tags", "toolsets");
    private static final Set<String> TURN_FIELDS = Set.of("question", "golden_sql", "expected", "expected_rows", "ordered",
            "extra_columns", "forbidden");
    private static final int MAX_CASES = 10_000;

    private CaseFiles() {
    }

    /** A shipped suite by name. */
    public static Optional<EvalSuite> shipped(String name) {
        if (!SHIPPED.contains(name)) {
            return Optional.empty();
        }
        String file = "evals/" + name + ".yaml";
        return Optional.of(parseYaml(file, ClasspathText.require(file), name));
    }

    /** A suite from YAML text; {@code fallbackName} names it when the text has no {@code suite}. */
    public static EvalSuite parseYaml(String text, String fallbackName) {
        return parseYaml(fallbackName, text, fallbackName);
    }

    /**
     * A suite from YAML text read from {@code file} (named in a syntax error, with its line).
     *
     * @param fallbackName names the suite when the text has no {@code suite}
     */
    public static EvalSuite parseYaml(String file, String text, String fallbackName) {
        YamlTree tree = YamlTree.parse(file, text);
        if (tree.problems().size() == 1 && tree.problems().get(0).message().equals("the file is empty")) {
            return parse(null, fallbackName);
        }
        if (!tree.problems().isEmpty()) {
            YamlProblem first = tree.problems().get(0);
            throw new CaseFileException("The case file is not valid YAML (" + first.file() + ", line " + first.line()
                    + "): " + first.message().replaceFirst("^not valid YAML: ", ""));
        }
        return parse(tree.root(), fallbackName);
    }

    /** A suite from a tree: an object with {@code cases}, or a bare list of cases. */
    public static EvalSuite parse(JsonNode tree, String fallbackName) {
        if (tree instanceof ArrayNode list) {
            ObjectNode wrapped = JsonNodeFactory.instance.objectNode();
            wrapped.set("cases", list);
            tree = wrapped;
        }
        if (tree == null || !tree.isObject()) {
            throw new CaseFileException("A case file is an object with 'cases' (a list of cases), or a list of cases");
        }
        unknownFields(tree, SUITE_FIELDS, "the suite");
        String name = optionalText(tree, "suite", "the suite").orElse(fallbackName);
        JsonNode cases = tree.path("cases");
        if (!cases.isArray() || cases.isEmpty()) {
            throw new CaseFileException("'cases' must be a non-empty list of cases");
        }
        if (cases.size() > MAX_CASES) {
            throw new CaseFileException("At most " + MAX_CASES + " cases are allowed; found " + cases.size());
        }
        List<EvalCase> parsed = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < cases.size(); i++) {
            EvalCase c = parseCase(cases.get(i), i + 1);
            if (!ids.add(c.id())) {
                throw new CaseFileException("case #" + (i + 1) + ": the id '" + c.id() + "' is used twice");
            }
            parsed.add(c);
        }
        return new EvalSuite(name, optionalText(tree, "description", "the suite").orElse(""), fixture(tree.get("fixture")),
                List.copyOf(parsed));
    }

    private static Optional<EvalSuite.Fixture> fixture(JsonNode fixture) {
        if (fixture == null || fixture.isNull()) {
            return Optional.empty();
        }
        unknownFields(fixture, Set.of("setup", "teardown"), "the fixture");
        return Optional
                .of(new EvalSuite.Fixture(texts(fixture, "setup", "the fixture"), texts(fixture, "teardown", "the fixture")));
    }

    private static EvalCase parseCase(JsonNode node, int number) {
        String where = "case #" + number;
        if (!node.isObject()) {
            throw new CaseFileException(where + " must be an object");
        }
        String id = requiredText(node, "id", where);
        if (!ID.matcher(id).matches()) {
            throw new CaseFileException(
                    where + ": 'id' must be letters, digits, '.', '_' or '-' (at most 100); found '" + id + "'");
        }
        where = "case '" + id + "'";
        unknownFields(node, CASE_FIELDS, where);
        String category = requiredText(node, "category", where);
        List<EvalCase.Turn> turns = new ArrayList<>();
        turns.add(turn(node, where));
        JsonNode followUps = node.path("follow_ups");
        if (!followUps.isMissingNode() && !followUps.isArray()) {
            throw new CaseFileException(where + ": 'follow_ups' must be a list of turns");
        }
        for (int i = 0; i < followUps.size(); i++) {
            String turnWhere = where + ", follow-up #" + (i + 1);
            if (!followUps.get(i).isObject()) {
                throw new CaseFileException(turnWhere + " must be an object with a 'question'");
            }
            unknownFields(followUps.get(i), TURN_FIELDS, turnWhere);
            turns.add(turn(followUps.get(i), turnWhere));
        }
        return new EvalCase(id, category, List.copyOf(turns), texts(node, "must_call", where),
                texts(node, "must_not_call", where),
                texts(node, "must_not_touch", where), texts(node, "tags", where), texts(node, "toolsets", where));
    }

    private static EvalCase.Turn turn(JsonNode node, String where) {
        String question = requiredText(node, "question", where);
        Optional<String> golden = optionalText(node, "golden_sql", where);
        JsonNode expected = node.path("expected");
        List<JsonNode> values = new ArrayList<>();
        if (!expected.isMissingNode() && !expected.isNull()) {
            if (!expected.isArray()) {
                throw new CaseFileException(where + ": 'expected' must be a list of values");
            }
            for (JsonNode value : expected) {
                if (!value.isValueNode() || value.isNull()) {
                    throw new CaseFileException(
                            where + ": 'expected' holds values (text or numbers); use 'expected_rows' for rows");
                }
                values.add(value);
            }
        }
        Optional<List<List<JsonNode>>> rows = Optional.empty();
        JsonNode expectedRows = node.path("expected_rows");
        if (!expectedRows.isMissingNode()) {
            if (!expectedRows.isArray()) {
                throw new CaseFileException(where + ": 'expected_rows' must be a list of rows, each a list of values");
            }
            List<List<JsonNode>> list = new ArrayList<>();
            for (JsonNode row : expectedRows) {
                if (!row.isArray()) {
                    throw new CaseFileException(where + ": each row of 'expected_rows' must be a list of values");
                }
                List<JsonNode> cells = new ArrayList<>();
                row.forEach(cells::add);
                list.add(cells);
            }
            rows = Optional.of(list);
        }
        if (golden.isPresent() && rows.isPresent()) {
            throw new CaseFileException(where + ": give 'golden_sql' or 'expected_rows', not both");
        }
        return new EvalCase.Turn(question, golden, List.copyOf(values), rows, optionalBoolean(node, "ordered", where),
                optionalBoolean(node, "extra_columns", where).orElse(true), texts(node, "forbidden", where));
    }

    private static void unknownFields(JsonNode node, Set<String> known, String where) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (!known.contains(name)) {
                throw new CaseFileException(
                        where + ": unknown field '" + name + "'; known fields are " + known.stream().sorted().toList());
            }
        }
    }

    private static String requiredText(JsonNode node, String field, String where) {
        return optionalText(node, field, where)
                .orElseThrow(() -> new CaseFileException(where + ": '" + field + "' is required and must be non-empty text"));
    }

    private static Optional<String> optionalText(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isValueNode() || value.isBoolean()) {
            throw new CaseFileException(where + ": '" + field + "' must be text");
        }
        String text = value.asText().strip();
        if (text.isEmpty()) {
            throw new CaseFileException(where + ": '" + field + "' must not be empty");
        }
        return Optional.of(text);
    }

    private static Optional<Boolean> optionalBoolean(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isBoolean()) {
            throw new CaseFileException(where + ": '" + field + "' must be true or false");
        }
        return Optional.of(value.booleanValue());
    }

    private static List<String> texts(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw new CaseFileException(where + ": '" + field + "' must be a list of text");
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isValueNode() || item.isNull() || item.asText().isBlank()) {
                throw new CaseFileException(where + ": '" + field + "' must hold non-empty text only");
            }
            texts.add(item.asText());
        }
        return List.copyOf(texts);
    }
}
