package io.sqlagent.declarative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.vertx.core.json.JsonObject;

/**
 * A YAML file changed and reloaded reaches a connected MCP client: list_changed, the new tool listed and callable, a bad file
 * changes nothing.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class DeclaredToolsOverMcpTest {

    private static final Path FILE = DeclaredToolsFiles.RELOAD_DIR.resolve("reload.yaml");

    @Inject
    DeclarativeTools tools;

    @AfterEach
    void restoreTheFirstVersion() throws IOException {
        Files.writeString(FILE, DeclaredToolsFiles.FIRST_VERSION);
        assertTrue(tools.reload().applied());
    }

    @Test
    void aReloadedFileIsAnnouncedToMcpClientsAndItsToolsServed() throws Exception {
        McpStreamableTestClient client = McpAssured.newStreamableClient().setOpenSubsidiarySse(true).build().connect();
        int seen = client.snapshot().notifications().size();

        Files.writeString(FILE, """
                tools:
                  reload_probe:
                    source: default
                    description: Says which version of the file is in effect.
                    statement: SELECT 2 AS version
                  mcp_artist_count:
                    source: default
                    description: Counts the artists whose name starts with a prefix.
                    statement: SELECT count(*) AS artists FROM artist WHERE name LIKE :prefix || '%'
                    parameters:
                      - { name: prefix, type: string, required: true, maxLength: 20 }
                """);
        assertTrue(tools.reload().applied());

        List<JsonObject> notifications = client.waitForNotifications(seen + 1).notifications();
        assertEquals("notifications/tools/list_changed", notifications.get(notifications.size() - 1).getString("method"));
        client.when().toolsList(page -> assertEquals(List.of("prefix"),
                page.findByName("mcp_artist_count").inputSchema().getJsonArray("required").getList())).thenAssertResults();
        client.when().toolsCall("mcp_artist_count").withArguments(Map.of("prefix", "The "))
                .withAssert(response -> {
                    assertFalse(response.isError());
                    assertTrue(response.content().get(0).asText().text().contains("\"artists\":"), response.toString());
                }).send()
                .toolsCall("mcp_artist_count").withArguments(Map.of("prefix", "x".repeat(21)))
                .withAssert(response -> {
                    assertTrue(response.isError());
                    assertTrue(response.content().get(0).asText().text().contains("prefix"), response.toString());
                }).send()
                .thenAssertResults();

        Thread.sleep(300);
        int before = client.snapshot().notifications().size();
        Files.writeString(FILE,
                "tools:\n  mcp_artist_count:\n    source: nowhere\n    description: broken\n    statement: SELECT 1\n");
        assertFalse(tools.reload().applied());
        Thread.sleep(300);
        assertEquals(before, client.snapshot().notifications().size(), "a bad file changes nothing, so nothing is announced");
        client.when().toolsList(page -> page.findByName("mcp_artist_count")).thenAssertResults();
        client.disconnect();
    }
}
