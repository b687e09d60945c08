package io.sqlagent.sql.engine.mysql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.sqlagent.MessageText;
import io.sqlagent.sql.guard.LexException;
import io.sqlagent.sql.guard.NamedParameters;

/**
 * The {@code :name} placeholders of a declared statement written for MySQL or MariaDB, found with the lexer the
 * statement check uses ({@link MySqlLexer}): a {@code :name} inside a string (single or double quotes, backslash
 * escapes), a backticked name or a comment ({@code #}, {@code -- }, block) is text. A colon directly before a name is
 * a placeholder; {@code :=} (a user variable written) is not, and the statement check refuses it anyway.
 */
final class MySqlPlaceholders {

    private MySqlPlaceholders() {
    }

    /**
     * Reads {@code sql}.
     *
     * @throws IllegalArgumentException when the statement cannot be cut into tokens (an unterminated string, an
     *         executable comment), with the line and column
     */
    static NamedParameters of(String sql) {
        List<MySqlToken> tokens;
        try {
            tokens = MySqlLexer.lex(sql);
        } catch (LexException e) {
            throw new IllegalArgumentException(e.getMessage() + " at " + MessageText.lineAndColumn(sql, e.position()));
        }
        List<NamedParameters.Placeholder> found = new ArrayList<>();
        List<String> words = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            MySqlToken token = tokens.get(i);
            if (token.kind() == MySqlToken.Kind.WORD) {
                words.add(token.text(sql).toUpperCase(Locale.ROOT));
                continue;
            }
            MySqlToken next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            if (token.kind() == MySqlToken.Kind.OPERATOR && sql.charAt(token.start()) == ':' && next != null
                    && next.kind() == MySqlToken.Kind.WORD && next.start() == token.end()) {
                found.add(new NamedParameters.Placeholder(next.text(sql), token.start(), next.end()));
                i++;
            }
        }
        return NamedParameters.of(sql, found, words);
    }
}
