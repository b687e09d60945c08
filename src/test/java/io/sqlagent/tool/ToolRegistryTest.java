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

        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> registry.register(lazy("run_sql", "Two.")));

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

    @Test
    void replacingAGroupSwapsItsToolsAndToolsetsAtOnceAndReportsTheChange() {
        List<ToolRegistry.Change> changes = new java.util.ArrayList<>();
        registry.register(lazy("run_sql", "Execute SQL."));
        registry.onChange(changes::add);

        registry.replaceGroup("yaml", List.of(lazy("a", "A"), lazy("b", "B")),
                List.of(new Toolset("sales", "Sales", null, List.of("a", "run_sql"), "yaml")));
        registry.replaceGroup("yaml", List.of(lazy("b", "B2"), lazy("c", "C")), List.of());

        assertEquals(List.of("b", "c", "run_sql"), registry.list().stream().map(ToolDescriptor::name).toList());
        assertEquals("B2", registry.descriptor("b").orElseThrow().description());
        assertTrue(registry.toolsets().isEmpty());
        assertEquals(new ToolRegistry.Change(java.util.Set.of("a", "b"), java.util.Set.of(), java.util.Set.of()),
                changes.get(0));
        assertEquals(new ToolRegistry.Change(java.util.Set.of("c"), java.util.Set.of("a"), java.util.Set.of("b")),
                changes.get(1));
    }

    @Test
    void aGroupCannotTakeANameOutsideItAndAFailedReplaceChangesNothing() {
        registry.register(lazy("run_sql", "Execute SQL."));
        registry.replaceGroup("yaml", List.of(lazy("a", "A")), List.of(new Toolset("s", null, null, List.of("a"), "yaml")));

        IllegalStateException clash = assertThrows(IllegalStateException.class,
                () -> registry.replaceGroup("yaml", List.of(lazy("run_sql", "again")), List.of()));
        assertTrue(clash.getMessage().contains("'run_sql' already exists outside 'yaml'"), clash.getMessage());
        assertThrows(IllegalStateException.class,
                () -> registry.replaceGroup("yaml", List.of(lazy("x", "1"), lazy("x", "2")), List.of()));

        assertEquals(List.of("a", "run_sql"), registry.list().stream().map(ToolDescriptor::name).toList());
        assertEquals(List.of("s"), List.copyOf(registry.toolsets().keySet()));
    }

    @Test
    void listingByToolsetSelectsItsToolsAndNamesUnknownToolsets() {
        registry.register(lazy("run_sql", "Execute SQL."));
        registry.replaceGroup("yaml", List.of(lazy("a", "A"), lazy("b", "B")),
                List.of(new Toolset("one", null, null, List.of("a", "run_sql"), "yaml"),
                        new Toolset("two", null, null, List.of("b"), "yaml")));

        assertEquals(List.of("a", "run_sql"), registry.list(List.of("one")).stream().map(ToolDescriptor::name).toList());
        assertEquals(List.of("a", "b", "run_sql"),
                registry.list(List.of("one", "two")).stream().map(ToolDescriptor::name).toList());
        assertEquals(3, registry.list(List.of()).size());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> registry.list(List.of("nope", "one")));
        assertEquals("Unknown toolset nope; known: one, two", unknown.getMessage());
    }
}
