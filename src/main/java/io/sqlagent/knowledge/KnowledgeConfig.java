package io.sqlagent.knowledge;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where the knowledge files loaded at start-up come from. */
@ConfigMapping(prefix = "sqlagent.knowledge")
public interface KnowledgeConfig {

    /**
     * A filesystem directory whose {@code *.json} knowledge files are loaded at start-up, after the
     * shipped ones (a file there may update a shipped pattern by using its name). Unset: only the
     * shipped files.
     */
    Optional<String> path();

    /** Whether the knowledge files shipped in the service ({@code knowledge/} on the classpath) are loaded. */
    @WithDefault("true")
    boolean shipped();
}
