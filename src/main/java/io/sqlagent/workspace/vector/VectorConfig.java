package io.sqlagent.workspace.vector;

import java.nio.file.Path;
import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where vector collections live, how text is embedded and how a replica follows the store. */
@ConfigMapping(prefix = "sqlagent.vector")
public interface VectorConfig {

    /**
     * The directory holding this replica's Lucene index of each collection (a copy of the store's
     * documents, rebuilt from the store when missing).
     */
    @WithDefault(".sqlagent/vectors")
    Path path();

    /**
     * {@code local}: all-MiniLM-L6-v2 in-process (384 dimensions, offline); {@code openai}: the
     * OpenAI-compatible embedding endpoint of {@code quarkus.langchain4j.openai.*}.
     */
    @WithDefault("local")
    String embedding();

    /**
     * How often a replica looks for changes other replicas wrote to the store: a document written
     * on one is searchable on every other within about this long.
     */
    @WithDefault("1s")
    Duration syncInterval();

    /**
     * How long the store keeps its record of changes; a replica whose local indexes are older
     * rebuilds them from the store's documents.
     */
    @WithDefault("7d")
    Duration changeRetention();
}
