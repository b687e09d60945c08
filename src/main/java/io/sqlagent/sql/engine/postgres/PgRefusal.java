package io.sqlagent.sql.engine.postgres;

import io.vertx.pgclient.PgException;

/**
 * PostgreSQL refused a statement {@link PgResults} sent for a caller's: the server's failure, and how far its position
 * is from the caller's text (the service sends the statement wrapped in text of its own), so the refusal can be shown
 * at the caller's character.
 */
public final class PgRefusal extends RuntimeException {

    private final transient PgException failure;
    private final int shift;

    PgRefusal(PgException failure, int shift) {
        super(failure.getMessage(), failure, false, false);
        this.failure = failure;
        this.shift = shift;
    }

    /** The server's failure. */
    public PgException failure() {
        return failure;
    }

    /** What moves the server's position into the caller's statement. */
    public int shift() {
        return shift;
    }
}
