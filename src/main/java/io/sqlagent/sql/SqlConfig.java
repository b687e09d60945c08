package io.sqlagent.sql;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the agent's SQL is checked and run on a source. */
@ConfigMapping(prefix = "sqlagent.sql")
public interface SqlConfig {

    /** The source the SQL tools query when their {@code source} argument is left out. */
    @WithDefault("default")
    String source();

    /**
     * If set, the configured sources ({@code sqlagent.sources.<name>}) the SQL tools' {@code source} argument may
     * name, besides {@link #source()}; unset: every configured source. A name that is not configured stops the start.
     */
    Optional<List<String>> sources();

    /** Statement kinds {@code run_sql} accepts: any of select (including WITH … SELECT), values, explain. */
    @WithDefault("select,values,explain")
    List<String> allowedStatements();

    /**
     * If set, the only tables and views the SQL tools may use: {@code table} (schema public),
     * {@code schema.table} or {@code schema.*}. The system catalogs stay readable.
     */
    Optional<List<String>> allowedTables();

    /** Tables and views the SQL tools may never use (same forms); wins over {@code allowed-tables}. */
    Optional<List<String>> deniedTables();

    /**
     * Columns the SQL tools never read or show: {@code table.column} (schema public),
     * {@code schema.table.column}, {@code *.column} (in every table) or {@code schema.*.column}.
     */
    Optional<List<String>> hiddenColumns();

    /** Longest a statement may run; PostgreSQL cancels it after this ({@code statement_timeout}). */
    @WithDefault("30s")
    Duration timeout();

    /** Most rows a statement returns; one more is read to tell whether there were more. */
    @WithDefault("1000")
    int maxRows();

    /** Longest text of one value; longer values are cut with a marker. */
    @WithDefault("2000")
    int maxCellChars();

    /** Largest result, as JSON; rows past it are left out and the result marked truncated. */
    @WithDefault("256K")
    MemorySize maxResultSize();
}
