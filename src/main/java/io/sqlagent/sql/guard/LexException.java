package io.sqlagent.sql.guard;

/**
 * Text a lexer refuses to cut into tokens (an unterminated string or comment, a character the server would refuse, a
 * comment the server would run): the message says what, {@link #position()} where. One type for every engine's lexer
 * ({@code PgLexer} here, {@code MySqlLexer} in the MySQL engine), which its guard turns into a refusal pointing into
 * the SQL ({@link io.sqlagent.MessageText#lineAndColumn}). No stack trace: it is an answer, not a fault.
 */
public final class LexException extends Exception {

    private final int position;

    /** @param position the offset in the SQL where the refused text begins */
    public LexException(String message, int position) {
        super(message, null, false, false);
        this.position = position;
    }

    /** The offset in the SQL where the refused text begins. */
    public int position() {
        return position;
    }
}
