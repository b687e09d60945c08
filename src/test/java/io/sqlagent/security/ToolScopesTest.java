package io.sqlagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.sqlagent.Caller;
import io.sqlagent.tool.FakeTool;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolMetadata;
import io.sqlagent.tool.ToolRegistration;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.ToolScopes;
import io.sqlagent.tool.Toolset;

/** The scopes each kind of tool needs, and who holds them. */
class ToolScopesTest {

    private final ToolRegistry registry = new ToolRegistry();
    private final ToolScopes scopes = new ToolScopes(registry);

    private static ToolDescriptor tool(String name, ToolMetadata metadata) {
        return FakeTool.returning(name, "ok").withMetadata(metadata).descriptor();
    }

    private static ToolMetadata in(String namespace, boolean readOnly) {
        return ToolMetadata.titled("t").withNamespace(namespace).withReadOnly(readOnly);
    }

    @Test
    void builtInToolsNeedTheirDefaultScopes() {
        assertEquals(Set.of("sql:read"), scopes.required(tool("run_sql", in("sql", true))));
        assertEquals(Set.of("sql:read"), scopes.required(tool("introspect_schema", in("sql", true))));
        assertEquals(Set.of("knowledge:read"), scopes.required(tool("search_knowledge", in("knowledge", true))));
        assertEquals(Set.of("knowledge:write"), scopes.required(tool("save_learning", in("knowledge", false))));
        assertEquals(Set.of("knowledge:write"), scopes.required(tool("save_validated_query", in("knowledge", false))));
        assertEquals(Set.of("workspace:read"), scopes.required(tool("read_file", in("workspace", true))));
        assertEquals(Set.of("workspace:write"), scopes.required(tool("write_file", in("workspace", false))));
        assertEquals(Set.of(), scopes.required(tool("browse_tools", in("tools", true))));
        // A tool of no known kind is for administrators only.
        assertEquals(Set.of("admin"), scopes.required(tool("mystery", ToolMetadata.titled("t"))));
    }

    @Test
    void aDeclaredToolsOwnScopesReplaceTheDefault() {
        ToolMetadata declared = new ToolMetadata("Top", List.of(), Optional.of("declarative"), true, false,
                Map.of("scopes", List.of("sales:read", "customers:read"), "required_authority", "reporting"));
        assertEquals(Set.of("sales:read", "customers:read", "reporting"), scopes.required(tool("top_customers", declared)));
        assertEquals(Set.of("sql:read"), scopes.required(tool("genre_summary", in("declarative", true))));
    }

    @Test
    void aCallerNeedsEveryScopeOrTheToolsetOrAdmin() {
        ToolMetadata declared = new ToolMetadata("Top", List.of(), Optional.of("declarative"), true, false,
                Map.of("scopes", List.of("sales:read", "customers:read")));
        FakeTool top = FakeTool.returning("top_customers", "ok").withMetadata(declared);
        registry.replaceGroup("declarative", List.of(ToolRegistration.of(top)),
                List.of(new Toolset("sales", "Sales", "", List.of("top_customers"), "declarative")));
        ToolDescriptor descriptor = top.descriptor();

        Caller half = Caller.of("ann", Set.of("sales:read"), Map.of());
        assertFalse(scopes.allows(half, descriptor));
        assertEquals("Tool 'top_customers' needs scope 'customers:read', which caller 'ann' does not have (it has sales:read)",
                scopes.refusal(half, descriptor).orElseThrow());
        assertEquals("Tool 'top_customers' needs scopes 'customers:read', 'sales:read', which caller 'bo' does not have "
                + "(it has no scopes)", scopes.refusal(Caller.of("bo", Set.of(), Map.of()), descriptor).orElseThrow());

        assertTrue(scopes.allows(Caller.of("cy", Set.of("sales:read", "customers:read"), Map.of()), descriptor));
        assertTrue(scopes.allows(Caller.of("di", Set.of("toolset:sales"), Map.of()), descriptor));
        assertFalse(scopes.allows(Caller.of("ed", Set.of("toolset:catalog"), Map.of()), descriptor));
        assertTrue(scopes.allows(Caller.of("fi", Set.of("admin"), Map.of()), descriptor));
        assertTrue(scopes.allows(Caller.anonymous(), descriptor));
        assertFalse(scopes.allows(Caller.unauthenticated(), descriptor));
    }
}
