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
     * The in-process model of {@code local}, also the one of schema search and of learnings' duplicate check:
     * {@code all-minilm-l6-v2-q} (8-bit quantized: a quarter of the weights, the same recall) or {@code all-minilm-l6-v2}
     * (float,
     * for collections and learnings embedded with it before).
     */
    @WithDefault(InProcessModel.QUANTIZED)
    String localModel();

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

    /**
     * How long closing the collections may hold shutdown: a Lucene merge still running is aborted (every change is
     * committed when it is made, so nothing acknowledged is lost) and one that does not stop within this is left
     * to the process's exit.
     */
    @WithDefault("2s")
    Duration closeTimeout();

    /** Bounds on documents' metadata, checked before anything is written. */
    Metadata metadata();

    /**
     * Each metadata key becomes a field of the collection's Lucene index, indexed for filters: documents with
     * thousands of distinct keys keep merges busy for minutes, so keys and values are bounded.
     */
    interface Metadata {

        /** Most metadata keys on one document. */
        @WithDefault("32")
        int maxKeys();

        /** Longest metadata key, in characters. */
        @WithDefault("64")
        int maxKeyLength();

        /** Longest metadata value (a string, or a number as written), in characters. */
        @WithDefault("1024")
        int maxValueLength();

        /**
         * Most distinct metadata keys in one collection, counted over every document it has held on this replica
         * (a key of deleted documents counts until the collection is rebuilt).
         */
        @WithDefault("256")
        int maxDistinctKeys();
    }
}
