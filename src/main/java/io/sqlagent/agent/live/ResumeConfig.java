package io.sqlagent.agent.live;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Resumable chat streams ({@code GET /api/chat/runs/{id}/events} with {@code Last-Event-ID}): every
 * event of a run is kept in the store for a while, so any replica can replay it.
 */
@ConfigMapping(prefix = "sqlagent.chat.resume")
public interface ResumeConfig {

    /**
     * Most events of one run kept for a resumed stream; later ones are streamed live but not
     * kept, except the final {@code done} or {@code error}, which always is.
     */
    @WithDefault("5000")
    int maxEvents();

    /** How long a run's events are kept after it started; older runs are deleted. */
    @WithDefault("1h")
    Duration retention();

    /**
     * How long a run goes on after its client's connection dropped, for the client to come
     * back with {@code Last-Event-ID}; as long as a resumed stream reads it, it goes on. 0
     * cancels the run when its connection drops.
     */
    @WithDefault("30s")
    Duration detachedTimeout();

    /** How often a resumed stream of a live run looks for new events in the store. */
    @WithDefault("250ms")
    Duration pollInterval();

    /** How long a run's events may wait before they are written to the store together. */
    @WithDefault("100ms")
    Duration flushInterval();
}
