package io.sqlagent.audit;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The tool-call audit log in the store. */
@ConfigMapping(prefix = "sqlagent.audit")
public interface AuditConfig {

    /** Record every tool call in the store's {@code tool_call_audit} table. */
    @WithDefault("true")
    boolean enabled();

    /** How often queued records are written. */
    @WithDefault("1s")
    Duration flushInterval();

    /** Most records written in one batch insert. */
    @WithDefault("500")
    int batchSize();

    /** Most records waiting to be written; beyond it new records are dropped and counted. */
    @WithDefault("10000")
    int queueCapacity();
}
