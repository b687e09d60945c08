package io.sqlagent.workspace.vector;

import java.nio.file.Path;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where vector collections live and how text is embedded. */
@ConfigMapping(prefix = "sqlagent.vector")
public interface VectorConfig {

    /** The directory holding one Lucene index per collection. */
    @WithDefault(".sqlagent/vectors")
    Path path();

    /**
     * {@code local}: all-MiniLM-L6-v2 in-process (384 dimensions, offline); {@code openai}: the
     * OpenAI-compatible embedding endpoint of {@code quarkus.langchain4j.openai.*}.
     */
    @WithDefault("local")
    String embedding();
}
