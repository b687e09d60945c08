package io.sqlagent.jsonschema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;

class CompiledSchemaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String SEARCH = """
            {"type": "object",
             "properties": {
               "query": {"type": "string", "minLength": 1, "maxLength": 100, "description": "what to find"},
               "type": {"type": "string", "enum": ["all", "patterns", "learnings"], "default": "all"},
               "limit": {"type": "integer", "minimum": 1, "maximum": 20}
             },
             "required": ["query"],
             "additionalProperties": false}
            """;

    @Test
    void acceptsAValidValue() {
        assertEquals(List.of(), validate(SEARCH, "{\"query\": \"orders\", \"type\": \"patterns\", \"limit\": 20}"));
        assertEquals(List.of(), validate(SEARCH, "{\"query\": \"orders\"}"));
    }

    @Test
    void reportsEveryViolationByArgumentName() {
        List<Violation> violations = validate(SEARCH,
                "{\"limit\": 50, \"zeta\": 1, \"type\": \"everything\", \"alpha\": true}");

        assertEquals(List.of(
                new Violation("query", "is required"),
                new Violation("type", "must be one of: all, patterns, learnings (got \"everything\")"),
                new Violation("limit", "must be at most 20 (got 50)"),
                new Violation("zeta", "is not a known argument; known arguments: query, type, limit"),
                new Violation("alpha", "is not a known argument; known arguments: query, type, limit")),
                violations);
    }

    @Test
    void reportsTypeMismatchesWithoutCoercingStrings() {
        assertEquals(List.of(new Violation("limit", "must be an integer, not a string")),
                validate(SEARCH, "{\"query\": \"q\", \"limit\": \"5\"}"));
        assertEquals(List.of(new Violation("query", "must be a string, not an array")),
                validate(SEARCH, "{\"query\": [\"q\"]}"));
        assertEquals(List.of(new Violation("query", "must be a string, not null")),
                validate(SEARCH, "{\"query\": null}"));
        assertEquals(List.of(new Violation("(root)", "must be an object, not a boolean")), validate(SEARCH, "true"));
    }

    @Test
    void integerAcceptsIntegralNumbersAndNumberAcceptsAny() {
        String schema = "{\"properties\": {\"i\": {\"type\": \"integer\"}, \"n\": {\"type\": \"number\"}}}";

        assertEquals(List.of(), validate(schema, "{\"i\": 5, \"n\": 5}"));
        assertEquals(List.of(), validate(schema, "{\"i\": 5.0, \"n\": 5.5}"));
        assertEquals(List.of(), validate(schema, "{\"i\": 9223372036854775807, \"n\": 123456789012345678901234567890}"));
        assertEquals(List.of(new Violation("i", "must be an integer, not a number")), validate(schema, "{\"i\": 5.5}"));
        assertEquals(List.of(new Violation("n", "must be a number, not a boolean")), validate(schema, "{\"n\": true}"));
        assertEquals(List.of(), validateExact(schema, "{\"i\": 5.000, \"n\": 0.1}"));
        assertEquals(List.of(new Violation("i", "must be an integer, not a number")),
                validateExact(schema, "{\"i\": 5.01}"));
    }

    @Test
    void numbersOutsideWhatTheirTypeCanHoldAreRefusedWhateverTheBounds() {
        String schema = """
                {"properties": {"id": {"type": "integer", "minimum": 10}, "small": {"type": "integer", "format": "int32"},
                  "ratio": {"type": "number"}, "weight": {"type": "number", "format": "float"}}}
                """;

        // 2^64 + 5 would be bound as 5: it must not pass "minimum": 10.
        assertEquals(List.of(new Violation("id", "must be an integer from -9223372036854775808 to 9223372036854775807"
                + " (got 18446744073709551621)")), validate(schema, "{\"id\": 18446744073709551621}"));
        assertEquals(List.of(new Violation("id", "must be an integer from -9223372036854775808 to 9223372036854775807"
                + " (got 1.0E30)")), validate(schema, "{\"id\": 1e30}"));
        assertEquals(List.of(new Violation("small", "must be an integer from -2147483648 to 2147483647 (got 2147483648)")),
                validate(schema, "{\"small\": 2147483648}"));
        assertEquals(List.of(new Violation("ratio", "must be a number from -1.7976931348623157E308 to 1.7976931348623157E308"
                + " (got a number too large to hold)")), validate(schema, "{\"ratio\": 1e400}"));
        assertEquals(List.of(new Violation("ratio", "must be a number from -1.7976931348623157E308 to 1.7976931348623157E308"
                + " (got a number too large to hold)")), validate(schema, "{\"ratio\": -1e400}"));
        assertEquals(List.of(new Violation("weight", "must be a number from -3.4028234663852886E38 to 3.4028234663852886E38"
                + " (got 1.0E39)")), validate(schema, "{\"weight\": 1e39}"));
        assertEquals(List.of(), validate(schema, "{\"id\": 9223372036854775807, \"small\": -2147483648, \"ratio\": 1e308,"
                + " \"weight\": 3.4e38}"));
    }

    @Test
    void acceptsAnyOfSeveralListedTypes() {
        String schema = "{\"type\": \"object\", \"properties\": {\"v\": {\"type\": [\"string\", \"integer\", \"null\"]}}}";

        assertEquals(List.of(), validate(schema, "{\"v\": null}"));
        assertEquals(List.of(), validate(schema, "{\"v\": 3}"));
        assertEquals(List.of(new Violation("v", "must be a string, an integer or null, not a boolean")),
                validate(schema, "{\"v\": false}"));
    }

    @Test
    void reportsNumericBoundsWithExpectedAndActualValues() {
        String schema = """
                {"properties": {
                  "min": {"minimum": 1}, "max": {"maximum": 20}, "gt": {"exclusiveMinimum": 0},
                  "lt": {"exclusiveMaximum": 10}, "fraction": {"maximum": 2.5}}}
                """;

        assertEquals(List.of(
                new Violation("min", "must be at least 1 (got 0)"),
                new Violation("max", "must be at most 20 (got 50)"),
                new Violation("gt", "must be greater than 0 (got 0)"),
                new Violation("lt", "must be less than 10 (got 10)"),
                new Violation("fraction", "must be at most 2.5 (got 2.75)")),
                validate(schema, "{\"min\": 0, \"max\": 50, \"gt\": 0, \"lt\": 10, \"fraction\": 2.75}"));
        assertEquals(List.of(), validate(schema, "{\"min\": 1, \"max\": 20, \"gt\": 0.001, \"lt\": 9.99, \"fraction\": 2.5}"));
        assertEquals(List.of(new Violation("max", "must be at most 20 (got 100000000000000000000000000000)")),
                validate(schema, "{\"max\": 100000000000000000000000000000}"));
        assertEquals(List.of(new Violation("max", "must be at most 20 (got 20.5)")), validate(schema, "{\"max\": 20.5}"));
    }

    @Test
    void boundsWrittenAsDecimalsReadAsWholeNumbers() {
        assertEquals(List.of(new Violation("(root)", "must be at most 20 (got 21)")),
                validate("{\"maximum\": 20.0}", "21"));
    }

    @Test
    void comparesEnumAndConstValuesAsJson() {
        String schema = """
                {"properties": {
                  "n": {"enum": [1, 2, {"a": [1, "x"]}]},
                  "c": {"const": "fixed"}}}
                """;

        assertEquals(List.of(), validate(schema, "{\"n\": 1.0, \"c\": \"fixed\"}"));
        assertEquals(List.of(), validate(schema, "{\"n\": {\"a\": [1.0, \"x\"]}}"));
        assertEquals(List.of(
                new Violation("n", "must be one of: 1, 2, {\"a\":[1,\"x\"]} (got 3)"),
                new Violation("c", "must be \"fixed\" (got \"other\")")),
                validate(schema, "{\"n\": 3, \"c\": \"other\"}"));
        assertEquals(List.of(new Violation("n", "must be one of: 1, 2, {\"a\":[1,\"x\"]} (got \"1\")")),
                validate(schema, "{\"n\": \"1\"}"));
    }

    @Test
    void countsStringLengthInCodePoints() {
        String schema = "{\"properties\": {\"short\": {\"maxLength\": 1}, \"pair\": {\"minLength\": 2}}}";

        assertEquals(List.of(), validate(schema, "{\"short\": \"\uD83D\uDE00\"}"));
        assertEquals(List.of(new Violation("pair", "must be at least 2 characters long (got 1)")),
                validate(schema, "{\"pair\": \"\uD83D\uDE00\"}"));
        assertEquals(List.of(new Violation("short", "must be at most 1 character long (got 2)")),
                validate(schema, "{\"short\": \"\uD83D\uDE00\uD83D\uDE00\"}"));
    }

    @Test
    void reportsStringLengthsWithActualLength() {
        assertEquals(List.of(new Violation("query", "must be at most 100 characters long (got 143)")),
                validate(SEARCH, "{\"query\": \"" + "x".repeat(143) + "\"}"));
        assertEquals(List.of(new Violation("query", "must be at least 1 character long (got 0)")),
                validate(SEARCH, "{\"query\": \"\"}"));
    }

    @Test
    void matchesPatternsAnywhereInTheString() {
        String schema = "{\"properties\": {\"any\": {\"pattern\": \"b+\"}, \"name\": {\"pattern\": \"^[a-z_]+$\"}}}";

        assertEquals(List.of(), validate(schema, "{\"any\": \"abbc\", \"name\": \"order_items\"}"));
        assertEquals(List.of(
                new Violation("any", "must match the pattern b+"),
                new Violation("name", "must match the pattern ^[a-z_]+$")),
                validate(schema, "{\"any\": \"xyz\", \"name\": \"Order Items\"}"));
    }

    @Test
    void validatesArraysAndNamesElementsByIndex() {
        String schema = """
                {"type": "object", "properties": {
                  "ids": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1, "maxItems": 5},
                  "tags": {"type": "array", "uniqueItems": true}}}
                """;

        assertEquals(List.of(), validate(schema, "{\"ids\": [1, 2, 3], \"tags\": [\"a\", \"b\"]}"));
        assertEquals(List.of(
                new Violation("ids", "must have at most 5 items (got 7)"),
                new Violation("ids[2]", "must be an integer, not a string"),
                new Violation("ids[5]", "must be at least 1 (got 0)"),
                new Violation("tags", "must not contain duplicate items (items 0 and 2 are equal)")),
                validate(schema, "{\"ids\": [1, 2, \"3\", 4, 5, 0, 7], \"tags\": [1, 2, 1.0]}"));
        assertEquals(List.of(new Violation("ids", "must have at least 1 item (got 0)")),
                validate(schema, "{\"ids\": []}"));
        assertEquals(List.of(new Violation("tags", "must not contain duplicate items (items 0 and 1 are equal)")),
                validate(schema, "{\"tags\": [0, -0.0]}"));
        assertEquals(List.of(), validate(schema, "{\"tags\": [{\"a\": 1}, {\"a\": 2}, [1], [1, 1]]}"));
    }

    @Test
    void namesNestedValuesByPath() {
        String schema = """
                {"type": "object", "properties": {
                  "filters": {"type": "object", "additionalProperties": false,
                    "properties": {"status": {"enum": ["open", "closed"]}}, "required": ["status"]},
                  "rows": {"type": "array", "items": {"type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string"}, "cells": {"items": {"type": "array",
                      "items": {"type": "number"}}}}}},
                  "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}
                """;

        assertEquals(List.of(
                new Violation("filters.status", "must be one of: open, closed (got \"stale\")"),
                new Violation("filters.extra", "is not a known argument; known arguments: status"),
                new Violation("rows[0].name", "must be a string, not an integer"),
                new Violation("rows[1].name", "is required"),
                new Violation("rows[1].cells[0][1]", "must be a number, not a string"),
                new Violation("labels.colour", "must be a string, not an integer")),
                validate(schema, """
                        {"filters": {"status": "stale", "extra": 1},
                         "rows": [{"name": 1}, {"cells": [[1, "x"]]}],
                         "labels": {"shape": "round", "colour": 3}}
                        """));
        assertEquals(List.of(new Violation("filters.status", "is required")), validate(schema, "{\"filters\": {}}"));
    }

    @Test
    void reportsPathsForArraysAtTheRoot() {
        assertEquals(List.of(new Violation("(root)[1]", "must be a string, not an integer")),
                validate("{\"type\": \"array\", \"items\": {\"type\": \"string\"}}", "[\"a\", 2]"));
    }

    @Test
    void truncatesEchoedValuesToFortyCharacters() {
        String schema = "{\"properties\": {\"mode\": {\"enum\": [\"a\"]}}}";
        String echoed = validate(schema, "{\"mode\": \"" + "y".repeat(500) + "\"}").get(0).problem();

        assertEquals("must be one of: a (got \"" + "y".repeat(40) + "…\")", echoed);
    }

    @Test
    void truncatesUnknownArgumentNames() {
        Violation violation = validate(SEARCH, "{\"query\": \"q\", \"" + "k".repeat(60) + "\": 1}").get(0);

        assertEquals("k".repeat(40) + "…", violation.argument());
    }

    @Test
    void saysWhenNoArgumentsAreAccepted() {
        assertEquals(List.of(new Violation("x", "is not a known argument; none are accepted here")),
                validate("{\"type\": \"object\", \"additionalProperties\": false}", "{\"x\": 1}"));
    }

    @Test
    void requiresPropertiesListedOnlyInRequired() {
        assertEquals(List.of(new Violation("token", "is required")),
                validate("{\"type\": \"object\", \"required\": [\"token\"]}", "{}"));
    }

    @Test
    void ignoresAnnotationKeywords() {
        String schema = """
                {"type": "string", "format": "date-time", "description": "d", "title": "t", "default": "x",
                 "examples": ["2020-01-01T00:00:00Z"], "$comment": "c", "x-vendor": 1}
                """;

        assertEquals(List.of(), validate(schema, "\"not a date\""));
    }

    @Test
    void neverThrowsForBadInput() {
        CompiledSchema schema = compile(SEARCH);

        assertEquals(List.of(new Violation("(root)", "must be an object, not null")), schema.validate(null));
        assertEquals(List.of(new Violation("(root)", "must be an object, not a string")),
                schema.validate(TextNode.valueOf("{\"query\": 1}")));
    }

    @Test
    void keepsTheOriginalSchema() throws JsonProcessingException {
        JsonNode original = JSON.readTree(SEARCH);

        assertSame(original, CompiledSchema.compile(original).schema());
    }

    @Test
    void rejectsMalformedSchemasNamingLocationAndKeyword() {
        assertRejected("\"string\"", "at #:", "JSON object");
        assertRejected("{\"properties\": {\"limit\": {\"minimum\": \"x\"}}}", "#/properties/limit", "\"minimum\"");
        assertRejected("{\"properties\": {\"a/b\": {\"pattern\": \"([a-z\"}}}", "#/properties/a~1b", "\"pattern\"");
        assertRejected("{\"type\": \"text\"}", "#:", "\"text\"");
        assertRejected("{\"type\": 3}", "#:", "\"type\"");
        assertRejected("{\"items\": {\"maxLength\": -1}}", "#/items", "\"maxLength\"");
        assertRejected("{\"items\": [{\"type\": \"string\"}]}", "#:", "\"items\"");
        assertRejected("{\"required\": \"a\"}", "#:", "\"required\"");
        assertRejected("{\"enum\": []}", "#:", "\"enum\"");
        assertRejected("{\"uniqueItems\": \"yes\"}", "#:", "\"uniqueItems\"");
        assertRejected("{\"additionalProperties\": 1}", "#/additionalProperties", "JSON object");
        assertRejected("{\"minimum\": 5, \"maximum\": 1}", "#:", "\"minimum\"");
        assertRejected("{\"minLength\": 5, \"maxLength\": 1}", "#:", "\"minLength\"");
        assertRejected("{\"minItems\": 5, \"maxItems\": 1}", "#:", "\"minItems\"");
        assertRejected("{\"required\": [\"a\"], \"additionalProperties\": false}", "#:", "\"required\"");
    }

    @Test
    void rejectsUnsupportedKeywordsAtCompileTime() {
        assertRejected("{\"properties\": {\"v\": {\"anyOf\": [{\"type\": \"string\"}]}}}", "#/properties/v", "\"anyOf\"");
        assertRejected("{\"oneOf\": [{\"type\": \"string\"}]}", "#:", "\"oneOf\"");
        assertRejected("{\"maximun\": 3}", "#:", "\"maximun\"");
    }

    /**
     * The difference to networknt json-schema-validator 2.0.8 that the package comment gives as the reason for this
     * validator; the library's results for the same input are quoted beside each assertion.
     */
    @Test
    void doesWhatTheLibraryDoesNot() {
        String runSql = """
                {"type": "object",
                 "properties": {
                   "sql": {"type": "string", "maxLength": 10},
                   "limit": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 500}
                 },
                 "required": ["sql"],
                 "additionalProperties": false}
                """;
        // The library: [/limit: string found, integer expected, : required property 'sql' not found,
        // : property 'query' is not defined in the schema and the schema does not allow additional properties]
        assertThat(validate(runSql, "{\"query\": \"x\", \"limit\": \"5\"}")).containsExactly(
                new Violation("sql", "is required"),
                new Violation("limit", "must be an integer, not a string"),
                new Violation("query", "is not a known argument; known arguments: sql, limit"));
        // The library: [/sql: must be at most 10 characters long, /limit: must have a maximum value of 500]
        assertThat(validate(runSql, "{\"sql\": \"select * from track\", \"limit\": 5000}")).containsExactly(
                new Violation("sql", "must be at most 10 characters long (got 19)"),
                new Violation("limit", "must be at most 500 (got 5000)"));
        // The library: [] (format is an annotation to it), though no Java int holds the value.
        assertThat(validate("{\"properties\": {\"n\": {\"type\": \"integer\", \"format\": \"int32\"}}}",
                "{\"n\": 99999999999}")).containsExactly(
                        new Violation("n", "must be an integer from -2147483648 to 2147483647 (got 99999999999)"));
        // The library: compiles, and then accepts a string of any length.
        assertThatThrownBy(() -> compile("{\"properties\": {\"n\": {\"type\": \"string\", \"maxLenght\": 3}}}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("#/properties/n")
                .hasMessageContaining("unsupported keyword \"maxLenght\"");
    }

    private static void assertRejected(String schema, String location, String keyword) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> compile(schema), schema);
        assertTrue(error.getMessage().contains(location), error.getMessage());
        assertTrue(error.getMessage().contains(keyword), error.getMessage());
    }

    private static CompiledSchema compile(String schema) {
        try {
            return CompiledSchema.compile(JSON.readTree(schema));
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    private static List<Violation> validate(String schema, String value) {
        try {
            return compile(schema).validate(JSON.readTree(value));
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    /** Parses decimals as BigDecimal, as a mapper configured for exact numbers would. */
    private static List<Violation> validateExact(String schema, String value) {
        try {
            return compile(schema).validate(
                    JSON.reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(value));
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
