package io.sqlagent.jsonschema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ValueNode;

import io.sqlagent.SnakeCaseJson;

class SchemaGeneratorTest {

    private static final ObjectMapper TOOL_MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
            .build();

    enum Scope {
        ALL,
        PATTERNS,
        @JsonProperty("Learned")
        LEARNINGS
    }

    record Scalars(String text, CharSequence chars, char letter, int i, long l, short s, byte b, Integer boxedInt,
            Long boxedLong, BigInteger big, double d, float f, Double boxedDouble, BigDecimal decimal, boolean flag,
            Boolean boxedFlag) {
    }

    record Filter(String status, int minRows) {
    }

    record Containers(List<String> names, Set<Integer> ids, Collection<Double> weights, String[] tags,
            Map<String, Integer> counts, List<Filter> filters, Filter filter, Scope scope) {
    }

    record Anything(JsonNode any, Object object, ObjectNode node, Instant at, LocalDate day, OffsetDateTime when) {
    }

    record Optionals(Optional<String> name, OptionalInt count, OptionalLong big, OptionalDouble ratio,
            Optional<List<String>> tags) {
    }

    record Requiredness(String plain, int primitive, @Param(required = false) String notRequired,
            @Param(defaultValue = "5") int withDefault, @Param(description = "kept required") boolean described) {
    }

    record NoneRequired(Optional<String> a, @Param(required = false) int b) {
    }

    record Names(String sql, String tableName, boolean includeSampleData, int topK, String xmlHTTPRequest,
            @JsonProperty("Explicit") String renamed) {
    }

    record Constrained(
            @Param(description = "What to look for", minLength = 1, maxLength = 100, pattern = "^[a-z ]+$") String query,
            @Param(minimum = 1, maximum = 20, defaultValue = "5") int limit,
            @Param(minimum = 0.5, maximum = 2) double ratio,
            @Param(allowed = {
                    "all", "patterns" }, defaultValue = "\"all\"") String kind,
            @Param(minItems = 1, maxItems = 5, maxLength = 10) List<String> words,
            @Param(defaultValue = "false") boolean verbose,
            @Param(defaultValue = "plain text") String mode,
            @Param(example = "7", minimum = 0) List<Integer> scores,
            @Param(allowed = { "all" }) Scope scope){
    }

    record WithDate(Date when) {
    }

    record WithIntegerKeys(Map<Integer, String> byId) {
    }

    record WithOptionalInList(List<Optional<String>> values) {
    }

    record WithBytes(byte[] data) {
    }

    record MinAboveMax(@Param(minimum = 10, maximum = 1) int n) {
    }

    record LengthsCrossed(@Param(minLength = 5, maxLength = 2) String s) {
    }

    record ItemsCrossed(@Param(minItems = 3, maxItems = 1) List<String> s) {
    }

    record BadPattern(@Param(pattern = "([a-z") String s) {
    }

    record MinimumOnString(@Param(minimum = 1) String s) {
    }

    record PatternOnNumber(@Param(pattern = "x") int n) {
    }

    record MinItemsOnString(@Param(minItems = 1) String s) {
    }

    record DefaultOutOfRange(@Param(minimum = 1, maximum = 20, defaultValue = "50") int n) {
    }

    record AllowedOutsideEnum(@Param(allowed = {
            "everything" }) Scope scope){
    }

    record SelfContaining(String name, List<SelfContaining> children) {
    }

    record ClashingNames(String tableName, @JsonProperty("table_name") String other) {
    }

    @Test
    void mapsEveryScalarType() {
        JsonNode properties = SchemaGenerator.forRecord(Scalars.class).get("properties");

        for (String name : List.of("text", "chars", "letter")) {
            assertEquals("string", properties.get(name).get("type").asText(), name);
        }
        for (String name : List.of("i", "l", "s", "b", "boxed_int", "boxed_long", "big")) {
            assertEquals("integer", properties.get(name).get("type").asText(), name);
        }
        for (String name : List.of("d", "f", "boxed_double", "decimal")) {
            assertEquals("number", properties.get(name).get("type").asText(), name);
        }
        // A float's range is narrower than a JSON number's: the validator refuses what would bind as infinity.
        assertEquals("float", properties.get("f").path("format").asText());
        assertEquals("boolean", properties.get("flag").get("type").asText());
        assertEquals("boolean", properties.get("boxed_flag").get("type").asText());
        assertEquals(1, properties.get("letter").get("maxLength").asInt(), "a char binds from one character only");
    }

    @Test
    void producesAClosedObjectWithPropertiesInComponentOrder() {
        ObjectNode schema = SchemaGenerator.forRecord(Filter.class);

        assertEquals("{\"type\":\"object\",\"properties\":{\"status\":{\"type\":\"string\"},"
                + "\"min_rows\":{\"type\":\"integer\"}},\"required\":[\"status\",\"min_rows\"],"
                + "\"additionalProperties\":false}", schema.toString());
    }

    @Test
    void mapsEnumsToLowerCaseNamesUnlessRenamed() {
        JsonNode scope = SchemaGenerator.forRecord(Containers.class).get("properties").get("scope");

        assertEquals("{\"type\":\"string\",\"enum\":[\"all\",\"patterns\",\"Learned\"]}", scope.toString());
    }

    @Test
    void mapsCollectionsArraysMapsAndNestedRecords() {
        JsonNode properties = SchemaGenerator.forRecord(Containers.class).get("properties");

        assertEquals("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}", properties.get("names").toString());
        assertEquals("{\"type\":\"array\",\"items\":{\"type\":\"integer\"},\"uniqueItems\":true}",
                properties.get("ids").toString());
        assertEquals("{\"type\":\"array\",\"items\":{\"type\":\"number\"}}", properties.get("weights").toString());
        assertEquals("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}", properties.get("tags").toString());
        assertEquals("{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}",
                properties.get("counts").toString());
        assertEquals(SchemaGenerator.forRecord(Filter.class), properties.get("filters").get("items"));
        assertEquals(SchemaGenerator.forRecord(Filter.class), properties.get("filter"));
        assertFalse(properties.get("filter").get("additionalProperties").asBoolean(true));
    }

    @Test
    void mapsJsonNodesObjectsAndTimes() {
        JsonNode properties = SchemaGenerator.forRecord(Anything.class).get("properties");

        assertEquals("{}", properties.get("any").toString());
        assertEquals("{}", properties.get("object").toString());
        assertEquals("{\"type\":\"object\"}", properties.get("node").toString());
        assertEquals("{\"type\":\"string\",\"format\":\"date-time\"}", properties.get("at").toString());
        assertEquals("{\"type\":\"string\",\"format\":\"date\"}", properties.get("day").toString());
        assertEquals("{\"type\":\"string\",\"format\":\"date-time\"}", properties.get("when").toString());
    }

    @Test
    void optionalsUseTheInnerTypeAndAreNotRequired() {
        ObjectNode schema = SchemaGenerator.forRecord(Optionals.class);
        JsonNode properties = schema.get("properties");

        assertEquals("string", properties.get("name").get("type").asText());
        assertEquals("integer", properties.get("count").get("type").asText());
        assertEquals("integer", properties.get("big").get("type").asText());
        assertEquals("number", properties.get("ratio").get("type").asText());
        assertEquals("array", properties.get("tags").get("type").asText());
        assertFalse(schema.has("required"), "an empty required list is left out: " + schema);
    }

    @Test
    void requiresComponentsUnlessOptionalDefaultedOrMarkedNotRequired() {
        ObjectNode schema = SchemaGenerator.forRecord(Requiredness.class);

        assertEquals("[\"plain\",\"primitive\",\"described\"]", schema.get("required").toString());
        assertFalse(SchemaGenerator.forRecord(NoneRequired.class).has("required"));
    }

    @Test
    void namesArgumentsExactlyAsJacksonSnakeCaseDoes() {
        var jackson = new PropertyNamingStrategies.SnakeCaseStrategy();
        for (String name : List.of("sql", "tableName", "includeSampleData", "topK", "xmlHTTPRequest", "a1B2",
                "already_snake", "URL", "x")) {
            assertEquals(jackson.translate(name), SchemaGenerator.snakeCase(name), name);
        }
        assertEquals("table_name", SchemaGenerator.snakeCase("tableName"));
        assertEquals("include_sample_data", SchemaGenerator.snakeCase("includeSampleData"));
        assertEquals("top_k", SchemaGenerator.snakeCase("topK"));
        assertEquals("sql", SchemaGenerator.snakeCase("sql"));

        List<String> names = new ArrayList<>();
        SchemaGenerator.forRecord(Names.class).get("properties").fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("sql", "table_name", "include_sample_data", "top_k",
                jackson.translate("xmlHTTPRequest"), "Explicit"), names);
    }

    @Test
    void generatedNamesMatchWhatTheToolMapperBinds() throws Exception {
        ObjectNode schema = SchemaGenerator.forRecord(Names.class);
        JsonNode serialized = TOOL_MAPPER.valueToTree(new Names("q", "t", true, 3, "x", "r"));

        assertEquals(List.of(), CompiledSchema.compile(schema).validate(serialized));
        assertEquals(new Names("q", "t", true, 3, "x", "r"), TOOL_MAPPER.treeToValue(serialized, Names.class));
    }

    @Test
    void generatedEnumValuesBindWithTheToolMapper() throws Exception {
        ObjectNode args = (ObjectNode) TOOL_MAPPER.readTree("{\"scope\":\"patterns\",\"names\":[],\"ids\":[],"
                + "\"weights\":[],\"tags\":[],\"counts\":{},\"filters\":[],\"filter\":{\"status\":\"ok\",\"min_rows\":1}}");

        assertEquals(List.of(), CompiledSchema.compile(SchemaGenerator.forRecord(Containers.class)).validate(args));
        assertEquals(Scope.PATTERNS, TOOL_MAPPER.treeToValue(args, Containers.class).scope());
    }

    @Test
    void emitsEveryParamConstraint() {
        JsonNode properties = SchemaGenerator.forRecord(Constrained.class).get("properties");

        assertEquals("{\"type\":\"string\",\"description\":\"What to look for\",\"minLength\":1,\"maxLength\":100,"
                + "\"pattern\":\"^[a-z ]+$\"}", properties.get("query").toString());
        assertEquals("{\"type\":\"integer\",\"minimum\":1,\"maximum\":20,\"default\":5}",
                properties.get("limit").toString());
        assertEquals("{\"type\":\"number\",\"minimum\":0.5,\"maximum\":2.0}", properties.get("ratio").toString());
        assertEquals("{\"type\":\"string\",\"enum\":[\"all\",\"patterns\"],\"default\":\"all\"}",
                properties.get("kind").toString());
        assertEquals("{\"type\":\"boolean\",\"default\":false}", properties.get("verbose").toString());
        assertEquals("\"plain text\"", properties.get("mode").get("default").toString());
        assertEquals("[\"all\"]", properties.get("scope").get("enum").toString());
    }

    @Test
    void appliesStringAndNumberConstraintsOfAListToItsItems() {
        JsonNode properties = SchemaGenerator.forRecord(Constrained.class).get("properties");

        assertEquals("{\"type\":\"array\",\"items\":{\"type\":\"string\",\"maxLength\":10},\"minItems\":1,"
                + "\"maxItems\":5}", properties.get("words").toString());
        assertEquals("{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"minimum\":0},\"examples\":[7]}",
                properties.get("scores").toString());
    }

    @Test
    void derivesTheSameSchemaFromMethodParameters() throws Exception {
        Method method = SchemaGeneratorTest.class.getDeclaredMethod("describeTable", String.class, Optional.class,
                int.class);
        ObjectNode schema = SchemaGenerator.forMethod(method);

        assertEquals("{\"type\":\"object\",\"properties\":{"
                + "\"table_name\":{\"type\":\"string\",\"description\":\"The table\",\"maxLength\":63},"
                + "\"include_sample_data\":{\"type\":\"boolean\"},"
                + "\"top_k\":{\"type\":\"integer\",\"minimum\":1,\"default\":3}},"
                + "\"required\":[\"table_name\"],\"additionalProperties\":false}", schema.toString());
    }

    @SuppressWarnings("unused")
    private static void describeTable(@Param(description = "The table", maxLength = 63) String tableName,
            Optional<Boolean> includeSampleData, @Param(minimum = 1, defaultValue = "3") int topK) {
    }

    @Test
    void rejectsUnsupportedTypesNamingRecordAndComponent() {
        IllegalArgumentException date = assertThrows(IllegalArgumentException.class,
                () -> SchemaGenerator.forRecord(WithDate.class));
        assertTrue(date.getMessage().contains(WithDate.class.getName()), date.getMessage());
        assertTrue(date.getMessage().contains("'when'"), date.getMessage());
        assertTrue(date.getMessage().contains("java.util.Date"), date.getMessage());

        for (Class<? extends Record> type : List.of(WithIntegerKeys.class, WithOptionalInList.class, WithBytes.class)) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> SchemaGenerator.forRecord(type), type.getSimpleName());
            assertTrue(error.getMessage().contains(type.getName()) && error.getMessage().contains("unsupported type"),
                    error.getMessage());
        }
    }

    @Test
    void rejectsContradictoryOrMisplacedConstraints() {
        assertRejected(MinAboveMax.class, "minimum");
        assertRejected(LengthsCrossed.class, "minLength");
        assertRejected(ItemsCrossed.class, "minItems");
        assertRejected(BadPattern.class, "pattern");
        assertRejected(MinimumOnString.class, "minimum");
        assertRejected(PatternOnNumber.class, "pattern");
        assertRejected(MinItemsOnString.class, "minItems");
        assertRejected(DefaultOutOfRange.class, "must be at most 20");
        assertRejected(AllowedOutsideEnum.class, "everything");
    }

    @Test
    void rejectsRecursiveRecordsAndClashingNames() {
        assertRejected(SelfContaining.class, "contains itself");
        assertRejected(ClashingNames.class, "table_name");
    }

    private static void assertRejected(Class<? extends Record> type, String expected) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> SchemaGenerator.forRecord(type), type.getSimpleName());
        assertTrue(error.getMessage().contains(type.getName()), error.getMessage());
        assertTrue(error.getMessage().contains(expected), error.getMessage());
    }

    record Tagged(Optional<String> label, Optional<Scope> scope, Optional<Map<String, ValueNode>> attributes) {
    }

    record Outer(Optional<String> note, List<Tagged> items) {
    }

    @Test
    void optionalMembersOfANestedRecordAcceptNullAndValueNodeIsAScalar() throws Exception {
        ObjectNode schema = SchemaGenerator.forRecord(Outer.class);

        assertEquals("string", schema.at("/properties/note/type").asText(), "top-level nulls are the executor's business");
        JsonNode item = schema.at("/properties/items/items/properties");
        assertEquals(TOOL_MAPPER.readTree("[\"string\", \"null\"]"), item.at("/label/type"));
        assertTrue(item.at("/scope/enum").get(item.at("/scope/enum").size() - 1).isNull(), item.toString());
        assertEquals(TOOL_MAPPER.readTree("[\"string\", \"number\", \"boolean\"]"),
                item.at("/attributes/additionalProperties/type"));
        CompiledSchema compiled = CompiledSchema.compile(schema);
        assertEquals(List.of(), compiled.validate(TOOL_MAPPER.readTree(
                """
                        {"items": [{"label": null, "scope": null, "attributes": null}, {"attributes": {"a": 1, "b": "x", "c": true}}]}""")));
        assertEquals(List.of(new Violation("items[0].attributes.a", "must be a string, a number or a boolean, not an object")),
                compiled.validate(TOOL_MAPPER.readTree("{\"items\": [{\"attributes\": {\"a\": {}}}]}")));
        Outer bound = SnakeCaseJson.MAPPER.treeToValue(SnakeCaseJson.MAPPER.readTree("""
                {"items": [{"label": null, "attributes": {"a": 1}}]}"""), Outer.class);
        assertEquals(Optional.empty(), bound.items().get(0).label());
        assertEquals(1, bound.items().get(0).attributes().orElseThrow().get("a").intValue());
    }
}
