package io.sqlagent.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class ToolDescriptorTest {

    private final FakeTool shape = FakeTool.returning("x", 1);

    private ToolDescriptor named(String name, String description) {
        return new ToolDescriptor(name, description, shape.descriptor().parameters(), Optional.empty(), Optional.empty(),
                ToolMetadata.titled(name));
    }

    @Test
    void summaryIsTheFirstSentence() {
        assertEquals("Execute a query.", named("a", "Execute a query. Only SELECT is allowed.").summary());
        assertEquals("No full stop", named("a", "No full stop").summary());
        assertEquals("First line", named("a", "First line\nsecond line").summary());
        assertEquals("Version 1.5 works.", named("a", "Version 1.5 works. Really.").summary());
    }

    @Test
    void rejectsNamesModelApisRefuse() {
        for (String bad : new String[] { "", "1tool", "has space", "dots.are.out", "x".repeat(65) }) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> named(bad, "Does things."),
                    bad);
            assertEquals("Tool name '" + bad + "' is invalid: use 1-64 letters, digits, '_' or '-', starting with a letter",
                    error.getMessage());
        }
    }

    @Test
    void requiresADescriptionAndAnObjectSchema() {
        assertThrows(IllegalArgumentException.class, () -> named("a", " "));
        assertThrows(IllegalArgumentException.class, () -> new ToolDescriptor("a", "Does.",
                FakeTool.schema(java.util.Map.of("type", "array")), Optional.empty(), Optional.empty(),
                ToolMetadata.titled("a")));
    }
}
