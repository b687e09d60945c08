package io.sqlagent.store;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the service's own store database ({@code sqlagent.store.*}). */
@ConfigMapping(prefix = "sqlagent.store")
public interface StoreConfig {

    /**
     * How long a request waits for the store to answer a lookup (a conversation, the start of a
     * chat) before it is answered 503 {@code store_unavailable}.
     */
    @WithDefault("10s")
    Duration timeout();
}
