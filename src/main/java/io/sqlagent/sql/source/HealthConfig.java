package io.sqlagent.sql.source;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How readiness probes the sources ({@code sqlagent.health.*}). */
@ConfigMapping(prefix = "sqlagent.health")
public interface HealthConfig {

    /** How long readiness waits for each source to answer before reporting it DOWN. */
    @WithDefault("3s")
    Duration sourceTimeout();

    /**
     * How often every source is probed for the gauge {@code sqlagent_source_up}, besides each
     * readiness check.
     */
    @WithDefault("15s")
    Duration probeInterval();
}
