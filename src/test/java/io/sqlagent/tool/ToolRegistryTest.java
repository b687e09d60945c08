package io.sqlagent.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

class ToolRegistryTest {

    private final ToolRegistry registry = new ToolRegistry();
    private final AtomicInteger builds = new AtomicInteger();

    private ToolRegistration lazy(String name, String description, String... tags) {
        FakeTool tool = FakeTool.returning(name, name);
        ToolDescriptor descriptor = new ToolDescriptor(name, description, tool.descriptor().parameters(), Optional.empty(),
                Optional.empty(), ToolMetadata.titled(name).withTags(tags));
        return new ToolRegistration(descriptor, () -> {
            builds.incrementAndGet();
            return tool;
        });
    }

    @Test
    void listingDescribingAndSearchingBuildNoTool() {
        registry.register(lazy("run_sql", "Execute a SQL query against the database.", "sql"));
        registry.register(lazy("read_file", "Read a text file.", "files"));

        List<String> names = registry.list().stream().map(ToolDescriptor::name).toList();
        registry.descriptor("run_sql").orElseThrow();
        registry.search("sql query", 10);

        assertEquals(List.of("read_file", "run_sql"), names);
        assertEquals(0, builds.get());
        assertFalse(registry.isBuilt("run_sql"));
    }

    @Test
    void buildsAToolOnceOnFirstRequest() {
        registry.register(lazy("run_sql", "Execute a SQL query."));

        Tool first = registry.tool("run_sql").orElseThrow();
        Tool second = registry.tool("run_sql").orElseThrow();

        assertSame(first, second);
        assertEquals(1, builds.get());
        assertTrue(registry.isBuilt("run_sql"));
    }

    @Test
    void rejectsADuplicateName() {
        registry.register(lazy("run_sql", "One."));

        IllegalStateException error = assertThrows(IllegalStateException.class, () -> registry.register(lazy("run_sql", "Two.")));

        assertEquals("Two tools are named 'run_sql'; tool names must be unique", error.getMessage());
    }

    @Test
    void rejectsASchemaTheValidatorCannotEnforceAtRegistration() {
        ObjectNode schema = FakeTool.schema(java.util.Map.of("type", "object",
                "properties", java.util.Map.of("n", java.util.Map.of("type", "integer", "minimum", "zero"))));

        assertThrows(IllegalArgumentException.class, () -> registry.register(FakeTool.returning("bad", 1).withSchema(schema)));
        assertFalse(registry.contains("bad"));
    }

    @Test
    void searchRanksNameMatchesFirstThenTagsThenDescriptions() {
        registry.register(lazy("save_learning", "Save something the agent learned about SQL errors.", "knowledge"));
        registry.register(lazy("run_sql", "Execute a query.", "database"));
        registry.register(lazy("introspect_schema", "Describe tables before writing SQL.", "sql", "schema"));
        registry.register(lazy("read_file", "Read a text file.", "files"));

        List<String> found = registry.search("sql", 10).stream().map(ToolDescriptor::name).toList();

        assertEquals(List.of("run_sql", "introspect_schema", "save_learning"), found);
        assertEquals(List.of("run_sql"), registry.search("SQL", 1).stream().map(ToolDescriptor::name).toList());
        assertTrue(registry.search("kubernetes", 10).isEmpty());
    }
}
