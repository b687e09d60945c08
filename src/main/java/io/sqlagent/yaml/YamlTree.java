package io.sqlagent.yaml;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.CompiledSchema;
import io.sqlagent.jsonschema.Violation;

/**
 * One YAML file read into a JSON tree, remembering the line of every field and element, so that a
 * problem found anywhere in the tree can name its line. Paths are written as the schema validator
 * writes them: {@code tools.search_tracks.parameters[0].type}. A key given twice in one mapping is
 * a problem, not silently the last one. The one reader of the service's YAML files (tool files,
 * the workspace policy): each is checked against its JSON Schema with the project's own validator
 * ({@link #validate}), then by its reader for what a schema cannot say, every problem a
 * {@link YamlProblem}.
 */
public final class YamlTree {

    /** The field of a problem about the whole file. */
    public static final String WHOLE_FILE = "(file)";

    private static final YAMLFactory YAML = new YAMLFactory();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String file;
    private final JsonNode root;
    private final Map<String, Integer> lines;
    private final List<YamlProblem> problems;

    private YamlTree(String file, JsonNode root, Map<String, Integer> lines, List<YamlProblem> problems) {
        this.file = file;
        this.root = root;
        this.lines = lines;
        this.problems = problems;
    }

    /**
     * Reads {@code file}; a file that is missing or unreadable leaves an empty tree and one problem.
     *
     * @param setting the property that names the file, so the operator knows where it came from
     */
    public static YamlTree read(Path file, String setting) {
        try {
            return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return missing(file.toString(), setting);
        } catch (IOException e) {
            return failed(new YamlProblem(file.toString(), 0, WHOLE_FILE, "could not be read: " + e));
        }
    }

    /** A file that is not there; {@code setting} names the property that named it. */
    public static YamlTree missing(String file, String setting) {
        return failed(new YamlProblem(file, 0, WHOLE_FILE, "does not exist (" + setting + ")"));
    }

    /** Reads {@code text}; a syntax error leaves an empty tree and one problem naming its line. */
    public static YamlTree parse(String file, String text) {
        Map<String, Integer> lines = new HashMap<>();
        List<YamlProblem> problems = new ArrayList<>();
        try (JsonParser parser = YAML.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                problems.add(new YamlProblem(file, 1, WHOLE_FILE, "the file is empty"));
                return new YamlTree(file, NODES.objectNode(), lines, problems);
            }
            lines.put("", line(parser.currentTokenLocation()));
            JsonNode root = new Reader(file, parser, lines, problems).value("");
            return new YamlTree(file, root, lines, problems);
        } catch (JsonProcessingException e) {
            JsonLocation location = e.getLocation();
            String reason = e.getOriginalMessage().lines().findFirst().orElse("invalid YAML");
            problems.clear();
            problems.add(new YamlProblem(file, location == null ? 0 : line(location), WHOLE_FILE,
                    "not valid YAML: " + reason));
            return new YamlTree(file, NODES.objectNode(), Map.of(), problems);
        } catch (IOException e) {
            problems.add(new YamlProblem(file, 0, WHOLE_FILE, "could not be read: " + e.getMessage()));
            return new YamlTree(file, NODES.objectNode(), Map.of(), problems);
        }
    }

    /** A file that could not be read at all. */
    public static YamlTree failed(YamlProblem problem) {
        return new YamlTree(problem.file(), NODES.objectNode(), Map.of(), List.of(problem));
    }

    private static int line(JsonLocation location) {
        return Math.max(location.getLineNr(), 0);
    }

    public String file() {
        return file;
    }

    public JsonNode root() {
        return root;
    }

    /** Problems found while reading (syntax, duplicate keys). */
    public List<YamlProblem> problems() {
        return problems;
    }

    /** The line of the value at {@code path}, or of its closest ancestor that has one. */
    public int line(String path) {
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
    public YamlProblem problem(String path, String message) {
        return new YamlProblem(file, line(path), path.isEmpty() ? WHOLE_FILE : path, message);
    }

    /**
     * Every way the tree fails {@code schema}, each located at its line; the validator's wording for
     * tool arguments ("argument") is said of a file ("field").
     */
    public List<YamlProblem> validate(CompiledSchema schema) {
        List<YamlProblem> found = new ArrayList<>();
        for (Violation violation : schema.validate(root)) {
            String path = violation.argument().equals("(root)") ? "" : violation.argument();
            found.add(problem(path, violation.problem()
                    .replace("is not a known argument; known arguments:", "is not a known field; known fields:")
                    .replace("is not a known argument; none are accepted here", "is not a known field")));
        }
        return found;
    }

    /** Compiles the JSON Schema at {@code resource} on the classpath; a missing or broken one is a build error. */
    public static CompiledSchema schema(String resource) {
        try (InputStream in = YamlTree.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the classpath");
            }
            return CompiledSchema.compile(SnakeCaseJson.MAPPER.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The path of field {@code name} of the value at {@code parent}. */
    public static String child(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    /** The path of element {@code index} of the list at {@code parent}. */
    public static String element(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /** Builds the tree from the parser's tokens, recording lines on the way. */
    private record Reader(String file, JsonParser parser, Map<String, Integer> lines, List<YamlProblem> problems) {

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
                    problems.add(new YamlProblem(file, line, childPath, "'" + name + "' is given twice (first on line "
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
