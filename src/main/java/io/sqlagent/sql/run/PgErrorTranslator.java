package io.sqlagent.sql.run;

import java.util.Optional;

import io.sqlagent.sql.engine.postgres.PgRefusal;
import io.vertx.pgclient.PgException;

/**
 * PostgreSQL's refusal of a statement as a {@link SqlExecutionException} the model can act on: the server's
 * message and SQLSTATE, the position in the statement as the caller wrote it (the service often sends it wrapped
 * in text of its own) with the words around it, and the server's detail and hint.
 */
final class PgErrorTranslator {

    private PgErrorTranslator() {
    }

    static SqlExecutionException translate(PgException failure, String sql) {
        return translate(failure, sql, 0);
    }

    /** {@code refusal} of a statement the engine's reader sent for {@code sql}, at the caller's character. */
    static SqlExecutionException translate(PgRefusal refusal, String sql) {
        return translate(refusal.failure(), sql, refusal.shift());
    }

    /** {@code shift} moves PostgreSQL's position into {@code sql} when the server saw a different text. */
    static SqlExecutionException translate(PgException failure, String sql, int shift) {
        Optional<Integer> shifted = Optional.ofNullable(failure.getPosition()).flatMap(PgErrorTranslator::integer)
                .map(p -> p + shift);
        Optional<Integer> position = shifted.filter(p -> p >= 1 && p <= sql.length() + 1);
        String text = failure.getErrorMessage();
        if (shift < 0 && "42601".equals(failure.getSqlState()) && shifted.filter(p -> p > sql.length()).isPresent()) {
            // The parser reached the text the service wrapped the statement in: for the writer, the statement ended too soon.
            text = "syntax error at end of input";
            position = Optional.of(sql.length() + 1);
        }
        StringBuilder message = new StringBuilder(text);
        message.append(" (SQLSTATE ").append(failure.getSqlState()).append(')');
        position.ifPresent(p -> message.append(" at character ").append(p).append(": ").append(near(sql, p)));
        if (failure.getDetail() != null) {
            message.append(". Detail: ").append(failure.getDetail());
        }
        if (failure.getHint() != null) {
            message.append(". Hint: ").append(failure.getHint());
        }
        return new SqlExecutionException(message.toString(), failure.getSqlState(), position, sql);
    }

    /** A short excerpt of the statement around a 1-based position, to show the model where it went wrong. */
    private static String near(String sql, int position) {
        int index = Math.max(0, Math.min(sql.length(), position - 1));
        int from = Math.max(0, index - 20);
        int to = Math.min(sql.length(), index + 20);
        return "'" + sql.substring(from, to).replaceAll("\\s+", " ") + "'";
    }

    private static Optional<Integer> integer(String text) {
        try {
            return Optional.of(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
