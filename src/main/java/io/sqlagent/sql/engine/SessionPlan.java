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
}
