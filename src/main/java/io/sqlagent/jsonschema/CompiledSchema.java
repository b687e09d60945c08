package io.sqlagent.jsonschema;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * A tool's argument schema compiled once for cheap validation of every call the model makes.
 * Supports the JSON Schema 2020-12 subset tools use; {@link #compile} rejects any other keyword,
 * so nothing in a schema goes unenforced. Immutable and safe to share between threads.
 */
public final class CompiledSchema {

    private final JsonNode schema;
    private final SchemaNode root;

    private CompiledSchema(JsonNode schema, SchemaNode root) {
        this.schema = schema;
        this.root = root;
    }

    /**
     * Compiles {@code schema}, which must not be modified afterwards.
     *
     * @throws IllegalArgumentException naming the location and keyword when the schema is not an
     *         object, has a malformed or contradictory keyword value, or uses an unsupported keyword
     *         such as {@code anyOf}
     */
    public static CompiledSchema compile(JsonNode schema) {
        return new CompiledSchema(schema, SchemaCompiler.compile(schema));
    }

    /** The schema this was compiled from. */
    public JsonNode schema() {
        return schema;
    }

    /**
     * Every way {@code value} fails the schema, in schema property order and then input order;
     * empty when it is valid. A value of the wrong type is reported once, without the checks that
     * only apply to the right type. Never throws for bad input; a Java null counts as JSON null.
     */
    public List<Violation> validate(JsonNode value) {
        // Allocates no backing array unless something is added.
        List<Violation> violations = new ArrayList<>();
        root.validate(value == null ? NullNode.getInstance() : value, ValuePath.ROOT, null, -1, violations);
        return violations.isEmpty() ? List.of() : violations;
    }

    @Override
    public String toString() {
        return "CompiledSchema" + schema;
    }
}
