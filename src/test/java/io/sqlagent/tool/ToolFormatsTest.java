package io.sqlagent.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

class ToolFormatsTest {

    private final ToolDescriptor descriptor = new ToolDescriptor("run_sql",
            "Execute a SQL query against the database. Only SELECT and WITH statements are allowed.",
            FakeTool.schema(Map.of("type", "object",
                    "properties", Map.of("sql", Map.of("type", "string", "description", "The SQL query to execute.")),
                    "required", List.of("sql"))),
            Optional.of("{\"rows\":[...]}"), Optional.of("Inspect the schema first."),
            new ToolMetadata("Run SQL", List.of("sql"), Optional.of("sql"), true, false, Map.of()));

    @Test
    void openAiAndOllamaFormWrapsTheSchemaAsParameters() {
        ObjectNode openAi = ToolFormats.openAi(descriptor);

        assertEquals("function", openAi.path("type").asText());
        assertEquals("run_sql", openAi.at("/function/name").asText());
        assertEquals(descriptor.description(), openAi.at("/function/description").asText());
        assertEquals(descriptor.parameters(), openAi.at("/function/parameters"));
        assertEquals(3, openAi.path("function").size());
    }

    @Test
    void anthropicFormCarriesTheIdenticalSchemaAsInputSchema() {
        ObjectNode anthropic = ToolFormats.anthropic(descriptor);

        assertEquals(List.of("name", "description", "input_schema"), List.copyOf(iterable(anthropic)));
        assertEquals(ToolFormats.openAi(descriptor).at("/function/parameters"), anthropic.path("input_schema"));
    }

    @Test
    void shortFormIsNameSummaryAndNamespace() {
        ObjectNode shortForm = ToolFormats.shortForm(descriptor);

        assertEquals("Execute a SQL query against the database.", shortForm.path("summary").asText());
        assertEquals("sql", shortForm.path("namespace").asText());
        assertFalse(shortForm.has("parameters"));
    }

    @Test
    void fullFormHasParametersReturnsUsageAndMetadata() {
        ObjectNode full = ToolFormats.fullForm(descriptor);

        assertEquals(descriptor.parameters(), full.path("parameters"));
        assertEquals("{\"rows\":[...]}", full.path("returns").asText());
        assertEquals("Inspect the schema first.", full.path("usage").asText());
        assertEquals("Run SQL", full.path("title").asText());
        assertEquals(true, full.path("read_only").asBoolean());
    }

    private static List<String> iterable(ObjectNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
