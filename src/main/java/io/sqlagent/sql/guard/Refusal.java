package io.sqlagent.sql.guard;

/**
 * Thrown inside the guard when a statement is refused; {@link SqlGuard#check(String)} turns it into
 * a {@link SqlVerdict}, so no caller ever sees it.
 */
final class Refusal extends Exception {

    Refusal(String reason) {
        // A refusal is an answer, not a failure: no stack trace to fill in.
        super(reason, null, false, false);
    }

    static Refusal unparseable(String detail) {
        return new Refusal("The SQL could not be parsed: " + detail);
    }
}
