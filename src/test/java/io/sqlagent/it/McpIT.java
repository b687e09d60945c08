package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;

/**
 * The packaged service, started as the README's run command starts it, serves its tools to an MCP
 * client at {@code /mcp}: what a desktop client connects to.
 */
class McpIT {

    @TempDir
    Path workDir;

    @Test
    void thePackagedServiceAnswersAnMcpClientAtSlashMcp() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of())) {
            service.awaitStatus("/q/health/ready", 200, Duration.ofSeconds(60));

            McpStreamableTestClient client = McpAssured.newStreamableClient()
                    .setBaseUri(URI.create("http://localhost:" + service.httpPort))
                    .build()
                    .connect(init -> assertEquals("sqlagent", init.serverName()));
            client.when()
                    .toolsList(page -> {
                        assertTrue(page.findByName("run_sql").annotations().orElseThrow().readOnlyHint());
                        assertEquals("sql", page.findByName("run_sql").inputSchema().getJsonArray("required").getString(0));
                    })
                    .toolsCall("run_sql").withArguments(Map.of("sql", "SELECT count(*) AS n FROM track"))
                    .withAssert(response -> {
                        assertFalse(response.isError());
                        assertTrue(response.firstContent().asText().text().contains("\"n\":3503"),
                                response.firstContent().asText().text());
                    }).send()
                    .thenAssertResults();
            client.disconnect();

            assertFalse(service.logText().contains("ERROR"), service.logText());
        }
    }
}
