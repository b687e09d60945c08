package io.sqlagent.declarative;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * One YAML file read into a JSON tree, remembering the line of every field and element, so that a
 * problem found anywhere in the tree can name its line. Paths are written as the schema validator
 * writes them: {@code tools.search_tracks.parameters[0].type}. A key given twice in one mapping is
 * a problem, not silently the last one.
 */
final class YamlTree {

    static final String WHOLE_FILE = "(file)";

    private static final YAMLFactory YAML = new YAMLFactory();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String file;
    private final JsonNode root;
    private final Map<String, Integer> lines;
    private final List<ToolFileProblem> problems;

    private YamlTree(String file, JsonNode root, Map<String, Integer> lines, List<ToolFileProblem> problems) {
        this.file = file;
        this.root = root;
        this.lines = lines;
        this.problems = problems;
    }

    /** Reads {@code text}; a syntax error leaves an empty tree and one problem naming its line. */
    static YamlTree parse(String file, String text) {
        Map<String, Integer> lines = new HashMap<>();
        List<ToolFileProblem> problems = new ArrayList<>();
        try (JsonParser parser = YAML.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                problems.add(new ToolFileProblem(file, 1, WHOLE_FILE, "the file is empty"));
                return new YamlTree(file, NODES.objectNode(), lines, problems);
            }
            lines.put("", line(parser.currentTokenLocation()));
            JsonNode root = new Reader(file, parser, lines, problems).value("");
            return new YamlTree(file, root, lines, problems);
        } catch (JsonProcessingException e) {
            JsonLocation location = e.getLocation();
            String reason = e.getOriginalMessage().lines().findFirst().orElse("invalid YAML");
            problems.clear();
            problems.add(new ToolFileProblem(file, location == null ? 0 : line(location), WHOLE_FILE,
                    "not valid YAML: " + reason));
            return new YamlTree(file, NODES.objectNode(), Map.of(), problems);
        } catch (IOException e) {
            problems.add(new ToolFileProblem(file, 0, WHOLE_FILE, "could not be read: " + e.getMessage()));
            return new YamlTree(file, NODES.objectNode(), Map.of(), problems);
        }
    }

    /** A file that could not be read at all. */
    static YamlTree failed(ToolFileProblem problem) {
        return new YamlTree(problem.file(), NODES.objectNode(), Map.of(), List.of(problem));
    }

    private static int line(JsonLocation location) {
        return Math.max(location.getLineNr(), 0);
    }

    String file() {
        return file;
    }

    JsonNode root() {
        return root;
    }

    /** Problems found while reading (syntax, duplicate keys). */
    List<ToolFileProblem> problems() {
        return problems;
    }

    /** The line of the value at {@code path}, or of its closest ancestor that has one. */
    int line(String path) {
        String current = path;
        while (true) {
            Integer line = lines.get(current);
            if (line != null) {
                return line;
            }
            if (current.isEmpty()) {
                return 0;
            }
            int cut = Math.max(current.lastIndexOf('.'), current.lastIndexOf('['));
            current = cut < 0 ? "" : current.substring(0, cut);
        }
    }

    /** A problem located at {@code path}. */
    ToolFileProblem problem(String path, String message) {
        return new ToolFileProblem(file, line(path), path.isEmpty() ? WHOLE_FILE : path, message);
    }

    static String child(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    static String element(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /** Builds the tree from the parser's tokens, recording lines on the way. */
    private record Reader(String file, JsonParser parser, Map<String, Integer> lines, List<ToolFileProblem> problems) {

        /** Reads the value the parser stands on. */
        JsonNode value(String path) throws IOException {
            JsonToken token = parser.currentToken();
            switch (token) {
                case START_OBJECT:
                    return object(path);
                case START_ARRAY:
                    return array(path);
                case VALUE_STRING:
                    return NODES.textNode(parser.getText());
                case VALUE_NUMBER_INT:
                    return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                            ? NODES.numberNode(parser.getBigIntegerValue())
                            : NODES.numberNode(parser.getLongValue());
                case VALUE_NUMBER_FLOAT:
                    return NODES.numberNode(parser.getDecimalValue());
                case VALUE_TRUE:
                    return NODES.booleanNode(true);
                case VALUE_FALSE:
                    return NODES.booleanNode(false);
                case VALUE_NULL:
                    return NODES.nullNode();
                default:
                    return NODES.textNode(parser.getText());
            }
        }

        private ObjectNode object(String path) throws IOException {
            ObjectNode node = NODES.objectNode();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                String childPath = child(path, name);
                int line = line(parser.currentTokenLocation());
                parser.nextToken();
                JsonNode value = value(childPath);
                if (node.has(name)) {
                    problems.add(new ToolFileProblem(file, line, childPath, "'" + name + "' is given twice (first on line "
                            + lines.get(childPath) + "); names must be unique"));
                    continue;
                }
                lines.put(childPath, line);
                node.set(name, value);
            }
            return node;
        }

        private ArrayNode array(String path) throws IOException {
            ArrayNode node = NODES.arrayNode();
            int index = 0;
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                String childPath = element(path, index++);
                lines.put(childPath, line(parser.currentTokenLocation()));
                node.add(value(childPath));
            }
            return node;
        }
    }
}
