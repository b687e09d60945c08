package io.sqlagent.declarative;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where declared SQL tools come from and how they run. */
@ConfigMapping(prefix = "sqlagent.tools")
public interface DeclarativeToolsConfig {

    /**
     * Tool files ({@code *.yaml}, {@code *.yml}) and directories of them, comma-separated. Unset:
     * the shipped {@code chinook.yaml}, when source {@code default} is the embedded Chinook demo.
     */
    Optional<List<String>> paths();

    /** Whether the shipped {@code chinook.yaml} loads when {@code paths} is unset and the demo source is in use. */
    @WithDefault("true")
    boolean shipped();

    /** Watch the files and reload the tools when they change (a bad change keeps the previous tools). */
    @WithDefault("false")
    boolean watch();

    /** How often watched files are checked for changes. */
    @WithDefault("2s")
    Duration watchInterval();

    /**
     * Most rows a {@code fetchAllRows} tool returns (and the ceiling of {@code rowsToFetch}); past it the result is marked
     * truncated.
     */
    @WithDefault("30000")
    int maxFetchRows();
}
