package io.sqlagent.sql.engine;

/**
 * What a source promises, whatever its engine; each {@link Engine} says how it gives each one
 * ({@link Support}). The table of engines in docs/engines.md lists them.
 */
public enum Guarantee {

    /** One statement per call, of an allowed kind, calling allowed functions only, in the engine's dialect. */
    STATEMENT_CHECK,
    /** The statement runs in a read-only transaction that is always rolled back. */
    READ_ONLY_TRANSACTION,
    /** The server stops the statement at the configured time limit. */
    TIME_LIMIT,
    /** A caller that goes away stops the statement on the server, not only in the service. */
    CANCELLATION,
    /** Denied tables are refused on what the server will read (views and all), not only by name. */
    TABLE_POLICY_ON_PLAN,
    /** Hidden columns are refused on the columns the server will read. */
    HIDDEN_COLUMNS,
    /** The caller's role is taken on for the transaction ({@code role-claim}, {@code allowed-roles}). */
    CALLER_ROLE,
    /** Values as the server holds them: decimals' digits, dates, unsigned 64-bit, binary as hex, JSON as JSON. */
    EXACT_VALUES;

    /** How an engine gives a guarantee. */
    public enum Support {
        /** Given as for PostgreSQL. */
        HOLDS,
        /** Not given: a configuration that relies on it is refused at start, naming the source. */
        REFUSED_AT_START,
        /** Not given: the service starts, and says so at start and in the source's readiness details. */
        WARNED,
        /** Not built yet for this engine (docs/engines.md, status). */
        NOT_YET
    }
}
