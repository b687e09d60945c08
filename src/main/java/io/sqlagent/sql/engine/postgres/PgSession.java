package io.sqlagent.sql.engine.postgres;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The statements PostgreSQL sends around a caller's statement, all the service's own text: the transaction's
 * opening with its settings in one text (a simple query may hold several statements: one round trip), the
 * caller's identity for the transaction only, and its end. The PostgreSQL {@code SessionPlan} of
 * docs/engines.md is made of these; {@code SessionTransaction} sends them today.
 */
public final class PgSession {

    /**
     * {@code set_config(..., true)} is {@code SET LOCAL} with the values bound as data ($1 the role, $2 the
     * application name), as PostgREST sets its role.
     */
    public static final String ROLE_AND_NAME = """
            SELECT set_config('role', $1, true), set_config('application_name', $2, true)""";

    /** {@link #ROLE_AND_NAME} for a caller without a role of its own: the application name ($1) only. */
    public static final String NAME = """
            SELECT set_config('application_name', $1, true)""";

    /**
     * Set on every new source connection before the pool hands it out: transactions are read-only unless one asks
     * otherwise ({@code BEGIN TRANSACTION READ WRITE}, as a declared tool that writes does), and strings are read as
     * the guard reads them. Every statement already runs in a transaction that sets both; these defaults are what
     * holds if that opening failed while the statement behind it was on its way (the two are sent together). Session
     * settings, not startup parameters, which connection poolers such as PgBouncer refuse.
     */
    public static final String SESSION_DEFAULTS = "SET SESSION default_transaction_read_only = on; "
            + "SET SESSION standard_conforming_strings = on";

    /** Ends a transaction without keeping anything: every read-only one, and a writing one that failed. */
    public static final String ROLLBACK = "ROLLBACK";

    /** Ends a writing transaction whose work succeeded. */
    public static final String COMMIT = "COMMIT";

    /**
     * See {@link #opening}: the transaction with its access mode, then the statement and lock timeouts in
     * milliseconds.
     */
    private static final String SESSION_SETTINGS = """
            BEGIN TRANSACTION %s; SET LOCAL statement_timeout = %d; SET LOCAL lock_timeout = %d; \
            SET LOCAL standard_conforming_strings = on""";

    /** {@link #opening}'s texts, by twice the timeout in milliseconds plus one when read-only. */
    private static final Map<Long, String> OPENINGS = new ConcurrentHashMap<>();

    private PgSession() {
    }

    /**
     * The transaction and its settings in one text (these are the service's own statements, never the model's):
     * read-only or not, the statement and lock timeouts, and the string syntax the guard assumes, pinned to
     * PostgreSQL's default. A failure of any of them fails the whole text, and the work never starts.
     */
    public static String opening(boolean readOnly, Duration timeout) {
        // Written once per access mode and timeout (configured values, so a handful), not formatted on every call.
        return OPENINGS.computeIfAbsent(timeout.toMillis() * 2 + (readOnly ? 1 : 0),
                key -> SESSION_SETTINGS.formatted(readOnly ? "READ ONLY" : "READ WRITE", timeout.toMillis(),
                        Math.min(timeout.toMillis(), 5000)));
    }
}
