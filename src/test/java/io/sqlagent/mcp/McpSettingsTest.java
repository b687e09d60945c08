package io.sqlagent.mcp;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.MemorySize;

/** The service's MCP limits refuse a value that would turn them into a refusal of everything. */
class McpSettingsTest {

    private static McpConfig config(int maxBatchSize, int maxSessionsPerPrincipal) {
        return new McpConfig() {
            @Override
            public int maxBatchSize() {
                return maxBatchSize;
            }

            @Override
            public int maxSessionsPerPrincipal() {
                return maxSessionsPerPrincipal;
            }
        };
    }

    @Test
    void aBatchLimitBelowOneStopsTheStartNamingTheSetting() {
        assertThatThrownBy(() -> new McpMessageCheck("/mcp", new MemorySize(java.math.BigInteger.valueOf(1024)),
                config(0, 1000))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sqlagent.mcp.max-batch-size must be at least 1 (got 0)");
    }

    @Test
    void aSessionLimitBelowOneStopsTheStartNamingTheSetting() {
        assertThatThrownBy(() -> new McpSessionOwners("/mcp", null, null, config(10, -3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sqlagent.mcp.max-sessions-per-principal must be at least 1 (got -3)");
    }
}
