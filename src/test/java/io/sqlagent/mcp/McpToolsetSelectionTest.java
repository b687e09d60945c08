package io.sqlagent.mcp;

import static io.sqlagent.mcp.McpServerTest.call;
import static io.sqlagent.mcp.McpServerTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkiverse.mcp.server.test.McpAssured.ToolInfo;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.tool.FakeTool;
import io.sqlagent.tool.ToolRegistration;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.Toolset;
import io.vertx.core.json.JsonObject;

/** MCP clients pick toolsets with {@code ?toolsets=} on the endpoint URL. */
@QuarkusTest
@ScriptedModel
class McpToolsetSelectionTest {

    private static final String GROUP = "mcp-toolsets-test";
    private static final List<ToolRegistration> TOOLS = List.of(
            ToolRegistration.of(FakeTool.returning("mcp_alpha_tool", Map.of("from", "alpha"))),
            ToolRegistration.of(FakeTool.returning("mcp_beta_tool", Map.of("from", "beta"))));
    private static final List<Toolset> TOOLSETS = List.of(
            new Toolset("mcp_alpha", "Alpha", "The alpha tool", List.of("mcp_alpha_tool"), GROUP),
            new Toolset("mcp_beta", "Beta", "The beta tool and SQL", List.of("mcp_beta_tool", "run_sql"), GROUP));

    @Inject
    ToolRegistry registry;

    @BeforeEach
    void registerToolsets() {
        registry.replaceGroup(GROUP, TOOLS, TOOLSETS);
    }

    @AfterEach
    void removeToolsets() {
        registry.replaceGroup(GROUP, List.of(), List.of());
    }

    @Test
    void aClientSeesOnlyTheToolsOfTheToolsetsItNames() {
        assertEquals(Set.of("mcp_alpha_tool"), listedBy("/mcp?toolsets=mcp_alpha"));
        assertEquals(Set.of("mcp_alpha_tool", "mcp_beta_tool", "run_sql"), listedBy("/mcp?toolsets=mcp_alpha,mcp_beta"));
        assertEquals(Set.of("mcp_alpha_tool", "mcp_beta_tool", "run_sql"),
                listedBy("/mcp?toolsets=mcp_alpha&toolsets=%20mcp_beta,,"));
    }

    @Test
    void clientsOfTheOlderSseTransportChooseToolsetsTheSameWay() {
        var client = McpAssured.newSseClient().setSsePath("/mcp/sse?toolsets=mcp_alpha").build().connect();

        client.when()
                .toolsList(page -> assertEquals(List.of("mcp_alpha_tool"), page.tools().stream().map(ToolInfo::name).toList()))
                .toolsCall("run_sql").withArguments(Map.of("sql", "SELECT 1")).withAssert(response -> {
                    assertTrue(response.isError());
                    assertTrue(text(response).startsWith("Tool 'run_sql' is not in the selected toolsets (mcp_alpha)"));
                }).send()
                .thenAssertResults();
        client.disconnect();
    }

    @Test
    void withoutAToolsetEveryToolIsServed() {
        Set<String> all = registry.list().stream().map(d -> d.name()).collect(Collectors.toSet());
        assertEquals(all, listedBy("/mcp"));
        assertEquals(all, listedBy("/mcp?toolsets="));
    }

    @Test
    void aClientCallsOnlyTheToolsOfItsToolsets() throws Exception {
        McpStreamableTestClient client = McpAssured.newStreamableClient().setMcpPath("/mcp?toolsets=mcp_beta").build()
                .connect();

        ToolResponse beta = call(client, "mcp_beta_tool", Map.of());
        assertFalse(beta.isError());
        assertEquals("{\"from\":\"beta\"}", text(beta));
        ToolResponse sql = call(client, "run_sql", Map.of("sql", "SELECT count(*) AS n FROM artist"));
        assertFalse(sql.isError(), text(sql));

        ToolResponse outside = call(client, "mcp_alpha_tool", Map.of());
        assertTrue(outside.isError());
        assertEquals("Tool 'mcp_alpha_tool' is not in the selected toolsets (mcp_beta); connect without ?toolsets= or add a"
                + " toolset that contains it.", text(outside));
        client.disconnect();
    }

    @Test
    void anUnknownToolsetFailsTheConnectionNamingIt() throws Exception {
        JsonObject answer = initialize("/mcp?toolsets=mcp_alpha,nope,nada");

        assertNull(answer.getJsonObject("result"));
        // catalog and sales are the shipped Chinook tools' toolsets.
        assertEquals(
                "Unknown toolsets nada, nope; known: catalog, mcp_alpha, mcp_beta, sales. Choose toolsets with ?toolsets=name1,name2"
                        + " on the MCP URL, or leave it out for all tools.",
                answer.getJsonObject("error").getString("message"));
    }

    @Test
    void aToolsetRemovedWhileConnectedLeavesNothingToListAndCallsSayWhy() {
        McpStreamableTestClient client = McpAssured.newStreamableClient().setMcpPath("/mcp?toolsets=mcp_alpha").build()
                .connect();

        registry.replaceGroup(GROUP, TOOLS, List.of());

        client.when().toolsList(page -> assertEquals(List.of(), page.tools())).thenAssertResults();
        ToolResponse response = call(client, "mcp_alpha_tool", Map.of());
        assertTrue(response.isError());
        assertTrue(text(response).startsWith("Unknown toolset mcp_alpha; known: catalog, sales."),
                text(response));
        client.disconnect();
    }

    private static Set<String> listedBy(String path) {
        McpStreamableTestClient client = McpAssured.newStreamableClient().setMcpPath(path).build().connect();
        Set<String> names = new java.util.HashSet<>();
        client.when().toolsList(page -> page.tools().stream().map(ToolInfo::name).forEach(names::add)).thenAssertResults();
        client.disconnect();
        return names;
    }

    /** An {@code initialize} request as any client sends it, read as the JSON-RPC answer. */
    private static JsonObject initialize(String path) throws Exception {
        String body = new JsonObject()
                .put("jsonrpc", "2.0").put("id", 1).put("method", "initialize")
                .put("params", new JsonObject()
                        .put("protocolVersion", "2025-06-18")
                        .put("capabilities", new JsonObject())
                        .put("clientInfo", new JsonObject().put("name", "toolset-test").put("version", "1")))
                .encode();
        HttpRequest request = HttpRequest.newBuilder(URI.create(McpAssured.baseUri.toString().replaceAll("/$", "") + path))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Mcp-Session-Id").isEmpty(), "a session was opened");
        return new JsonObject(response.body());
    }
}
