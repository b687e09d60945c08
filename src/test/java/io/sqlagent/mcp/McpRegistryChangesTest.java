package io.sqlagent.mcp;

import static io.sqlagent.mcp.McpServerTest.call;
import static io.sqlagent.mcp.McpServerTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkiverse.mcp.server.test.McpAssured.ToolInfo;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.tool.FakeTool;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolMetadata;
import io.sqlagent.tool.ToolRegistration;
import io.sqlagent.tool.ToolRegistry;
import io.vertx.core.json.JsonObject;

/** Tools added, replaced and removed in the registry reach connected MCP clients with {@code list_changed}. */
@QuarkusTest
@ScriptedModel
class McpRegistryChangesTest {

    private static final String GROUP = "mcp-changes-test";
    private static final String LIST_CHANGED = "notifications/tools/list_changed";

    @Inject
    ToolRegistry registry;

    @AfterEach
    void removeTestGroup() {
        registry.replaceGroup(GROUP, List.of(), List.of());
    }

    @Test
    void anAddedToolIsAnnouncedListedAndCallableAndARemovedOneIsGone() {
        McpStreamableTestClient client = McpAssured.newStreamableClient().setOpenSubsidiarySse(true).build().connect();
        int seen = client.snapshot().notifications().size();

        registry.replaceGroup(GROUP, List.of(greeter("Says hello. Added by a test.")), List.of());

        assertEquals(LIST_CHANGED, lastNotification(client, seen + 1));
        client.when().toolsList(page -> {
            ToolInfo added = page.findByName("mcp_greeter");
            assertEquals("Says hello. Added by a test.", added.description());
            assertEquals(List.of("name"), added.inputSchema().getJsonArray("required").getList());
        }).thenAssertResults();
        ToolResponse hello = call(client, "mcp_greeter", Map.of("name", "Ada"));
        assertFalse(hello.isError());
        assertEquals("{\"greeting\":\"hello Ada\"}", text(hello));
        ToolResponse invalid = call(client, "mcp_greeter", Map.of());
        assertTrue(invalid.isError());
        assertEquals("Invalid arguments for tool 'mcp_greeter': name is required", text(invalid));

        seen = client.snapshot().notifications().size();
        registry.replaceGroup(GROUP, List.of(), List.of());

        assertEquals(LIST_CHANGED, lastNotification(client, seen + 1));
        client.when().toolsList(page -> assertTrue(page.tools().stream().noneMatch(t -> t.name().equals("mcp_greeter"))))
                .thenAssertResults();
        client.when().toolsCall("mcp_greeter").withArguments(Map.of("name", "Ada"))
                .withErrorAssert(error -> assertEquals("Invalid tool name: mcp_greeter", error.message()))
                .send().thenAssertResults();
        client.disconnect();
    }

    @Test
    void aReloadThatChangesAToolIsAnnouncedAndOneThatChangesNothingIsNot() throws Exception {
        registry.replaceGroup(GROUP, List.of(greeter("Says hello.")), List.of());
        McpStreamableTestClient client = McpAssured.newStreamableClient().setOpenSubsidiarySse(true).build().connect();
        int seen = client.snapshot().notifications().size();

        registry.replaceGroup(GROUP, List.of(greeter("Says hello, politely.")), List.of());

        assertEquals(LIST_CHANGED, lastNotification(client, seen + 1));
        client.when().toolsList(page -> assertEquals("Says hello, politely.", page.findByName("mcp_greeter").description()))
                .thenAssertResults();

        // Let the replacement's notifications (removal, then registration) all arrive first.
        Thread.sleep(300);
        seen = client.snapshot().notifications().size();
        registry.replaceGroup(GROUP, List.of(greeter("Says hello, politely.")), List.of());
        client.when().toolsList(page -> page.findByName("mcp_greeter")).thenAssertResults();
        Thread.sleep(300);
        assertEquals(seen, client.snapshot().notifications().size(), client.snapshot().notifications().toString());
        client.disconnect();
    }

    private static String lastNotification(McpStreamableTestClient client, int count) {
        List<JsonObject> notifications = client.waitForNotifications(count).notifications();
        return notifications.get(notifications.size() - 1).getString("method");
    }

    /** A small tool as a declarative loader would register it: a descriptor and a lazy factory. */
    static ToolRegistration greeter(String description) {
        ObjectNode schema = FakeTool.schema(Map.of(
                "type", "object",
                "properties", Map.of("name", Map.of("type", "string", "description", "Who to greet")),
                "required", List.of("name"),
                "additionalProperties", false));
        ToolDescriptor descriptor = new ToolDescriptor("mcp_greeter", description, schema, Optional.empty(), Optional.empty(),
                ToolMetadata.titled("Greeter").withReadOnly(true));
        return new ToolRegistration(descriptor,
                () -> FakeTool.computing("mcp_greeter",
                        arguments -> Map.of("greeting", "hello " + arguments.path("name").asText())));
    }
}
