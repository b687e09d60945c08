package io.sqlagent.mcp;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The service's own MCP settings (quarkus-mcp-server's are under {@code quarkus.mcp.server}). */
@ConfigMapping(prefix = "sqlagent.mcp")
public interface McpConfig {

    /** Most JSON-RPC messages one request may carry as a batch; at least 1. */
    @WithDefault("10")
    int maxBatchSize();

    /** Most MCP sessions one principal may hold at once; a new one beyond it closes the principal's oldest. */
    @WithDefault("1000")
    int maxSessionsPerPrincipal();
}
