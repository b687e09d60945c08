package io.sqlagent.sql.engine;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The statements an engine sends around a caller's statement, all the service's own text (never the
 * caller's): the transaction's opening with its access mode and the settings the statement check
 * assumes, the per-statement time limit, the caller's identity, and the end. Everything returned here
 * is sent as written; values a caller influences are bound ({@link #identity}).
 */
public interface SessionPlan {

    /**
     * The statements that open a transaction, in order: read-only or not, with the settings the
     * engine's statement check assumes (PostgreSQL's {@code standard_conforming_strings}, MySQL's
     * {@code sql_mode}) and, where the engine limits time per transaction, the time limit.
     */
    List<String> open(boolean readOnly, Duration timeout);

    /**
     * {@code sql} as sent with its time limit: unchanged where {@link #open} set the limit for the
     * transaction (PostgreSQL's {@code SET LOCAL statement_timeout}), prefixed where the engine limits
     * one statement at a time (MariaDB's {@code SET STATEMENT max_statement_time = … FOR}).
     */
    String timed(String sql, Duration timeout);

    /**
     * The statement that takes on a caller's role for this transaction only, with the role bound as
     * its one parameter; empty when the engine cannot do that per transaction (see
     * {@link Guarantee#CALLER_ROLE}).
     */
    Optional<String> identity();

    /** The statement that ends a read-only transaction, whatever happened in it. */
    String rollback();

    /**
     * For engines whose role lasts for the connection, not the transaction (MySQL's and MariaDB's {@code SET ROLE}):
     * the statement that takes on {@code role}, spliced in as a quoted name, since such servers bind no names. The
     * role is one of the source's {@code allowed-roles}, compared exactly, never the caller's free text. Empty where
     * {@link #identity()} sets the role for the transaction.
     */
    default Optional<String> takeRole(String role) {
        return Optional.empty();
    }

    /**
     * The statement that drops what {@link #takeRole} took, sent after the {@link #rollback()} and before the
     * connection goes back to the pool, whatever happened; when it fails, {@link #discard()} follows.
     */
    default String dropRole() {
        throw new UnsupportedOperationException("roles last for the transaction on this engine");
    }

    /**
     * The statement a connection sends to have the server close it: one whose role could not be dropped must never
     * serve another caller, and the pool drops a connection the server closed.
     */
    default String discard() {
        throw new UnsupportedOperationException("roles last for the transaction on this engine");
    }
}
