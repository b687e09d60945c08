package io.sqlagent.knowledge.schema;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the agent finds its way around a large schema: the search index, the paged listing and the value hints. */
@ConfigMapping(prefix = "sqlagent.schema")
public interface SchemaSearchConfig {

    /** The schema search index ({@code search_schema}). */
    Index index();

    /** The listing {@code introspect_schema} gives without a table. */
    Listing listing();

    /** The distinct values {@code introspect_schema} shows for low-cardinality text columns. */
    ValueHints valueHints();

    /** The schema search index. */
    interface Index {

        /**
         * Build the index in the background as the service starts; when false it is built on the first search (or
         * listing). Readiness never waits for it either way.
         */
        @WithDefault("true")
        boolean buildAtStart();

        /**
         * How long after the start the start's build begins: the start itself (until ready) does not share the CPU with
         * it, nor hold its memory. A search or listing before then builds at once. 0 builds as the start ends.
         */
        @WithDefault("2s")
        Duration startDelay();

        /**
         * Add the vectors as soon as the word index is built; when false they are added from the first search on (that
         * search and those until the vectors are in rank by words), so a replica nobody searches does not hold the
         * in-process embedding model (about 400 MB of RSS).
         */
        @WithDefault("false")
        boolean embedAtStart();

        /** How often the index is rebuilt from the catalog (and the knowledge base); 0 turns the schedule off. */
        @WithDefault("10m")
        Duration refreshInterval();

        /**
         * Embed tables with the in-process all-MiniLM-L6-v2 model and rank by meaning as well as by words; when false
         * the ranking is by words (BM25) and the knowledge base only.
         */
        @WithDefault("true")
        boolean semantic();

        /** Most tables the index holds; tables past it (in catalog order, {@code public} first) are left out. */
        @WithDefault("20000")
        int maxTables();

        /**
         * Index the values of low-cardinality text columns as PostgreSQL's planner statistics ({@code pg_stats}) hold
         * them, so a question naming a value ({@code French}, {@code horror}) finds the column's table. Read in one
         * statement at each build, no table is scanned; tables never analysed contribute none (the service never runs
         * {@code ANALYZE}), nor do hidden columns, refused tables and tables with row-level security.
         */
        @WithDefault("true")
        boolean columnValues();

        /**
         * A text column with more distinct values than this (by the statistics) contributes none. Up to the statistics
         * target (PostgreSQL's {@code default_statistics_target}, 100) the statistics hold every value of a column.
         */
        @WithDefault("100")
        int columnValuesMaxDistinct();
    }

    /** The listing without a table. */
    interface Listing {

        /** Up to this many tables, {@code introspect_schema} lists every name at once; above, it pages a summary. */
        @WithDefault("100")
        int maxNames();

        /** Tables per page of the paged summary. */
        @WithDefault("50")
        int pageSize();
    }

    /** Value hints. */
    interface ValueHints {

        /** Show the distinct values of low-cardinality text columns when a table is described. */
        @WithDefault("true")
        boolean enabled();

        /** A column with more distinct values than this (in the sample) gets no hint. */
        @WithDefault("20")
        int maxValues();

        /** Values longer than this are cut (and marked with …). */
        @WithDefault("60")
        int maxLength();

        /** Rows read to find the values (the first rows of the table). */
        @WithDefault("10000")
        int sampleRows();

        /** Longest the sampling may take; past it the statement is cancelled and the table is described without hints. */
        @WithDefault("2s")
        Duration timeout();
    }
}
