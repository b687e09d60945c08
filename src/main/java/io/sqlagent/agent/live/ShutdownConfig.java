package io.sqlagent.agent.live;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Graceful shutdown (SIGTERM): how long running chats may go on. */
@ConfigMapping(prefix = "sqlagent.shutdown")
public interface ShutdownConfig {

    /**
     * How long running chats may go on once the service is asked to stop (readiness is DOWN and
     * new chats are refused meanwhile); those still running then end with an {@code error}
     * event {@code shutting_down}. It, plus {@code quarkus.shutdown.timeout} and a few seconds to
     * store the last events, must stay below the pod's {@code terminationGracePeriodSeconds}
     * (30 s unless set), after which Kubernetes kills the process.
     */
    @WithDefault("20s")
    Duration gracePeriod();
}
