package io.sqlagent.tool;

import java.time.Duration;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How tools are executed, whoever calls them. */
@ConfigMapping(prefix = "sqlagent.tools")
public interface ToolsConfig {

    /** How long one tool call may run before it fails. */
    @WithDefault("60s")
    Duration timeout();

    /** Run consecutive read-only calls of one batch concurrently. */
    @WithDefault("true")
    boolean concurrent();

    /** Skip the rest of a batch after a call a hook blocked. */
    @WithDefault("false")
    boolean stopOnBlock();

    /** Largest request body {@code POST /api/tools/{name}} accepts. */
    @WithDefault("1M")
    MemorySize maxRequestSize();

    /** The executor options these settings describe. */
    default ExecutorOptions executorOptions() {
        return new ExecutorOptions(false, stopOnBlock(), concurrent(), timeout());
    }
}
