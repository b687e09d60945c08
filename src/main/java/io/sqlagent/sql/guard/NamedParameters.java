package io.sqlagent.sql.guard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

import io.sqlagent.MessageText;

/**
 * The {@code :name} placeholders of a declared SQL statement, found with the same lexer the guard
 * uses: a {@code :name} inside a string literal, a quoted identifier, a dollar-quoted string or a
 * comment is text, and {@code ::type} is a cast. {@link #rewrite} replaces each placeholder by
 * positional parameters, so argument values never become SQL text. Immutable.
 */
public final class NamedParameters {

    /**
     * One placeholder in the statement.
     *
     * @param name the name after the colon, as written (PostgreSQL would fold it; names are case-sensitive here)
     * @param start offset of the colon
     * @param end offset just past the name
     */
    public record Placeholder(String name, int start, int end) {
    }

    private final String sql;
    private final List<Placeholder> placeholders;
    private final List<String> words;

    private NamedParameters(String sql, List<Placeholder> placeholders, List<String> words) {
        this.sql = sql;
        this.placeholders = List.copyOf(placeholders);
        this.words = List.copyOf(words);
    }

    /**
     * Reads {@code sql}.
     *
     * @throws IllegalArgumentException when PostgreSQL could not read it either (an unterminated
     *         string, say), with the line and column
     */
    public static NamedParameters of(String sql) {
        List<PgToken> tokens;
        try {
            tokens = PgLexer.lex(sql);
        } catch (LexException e) {
            throw new IllegalArgumentException(e.getMessage() + " at " + MessageText.lineAndColumn(sql, e.position()));
        }
        List<Placeholder> found = new ArrayList<>();
        List<String> words = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            PgToken token = tokens.get(i);
            if (token.kind() == PgToken.Kind.WORD) {
                words.add(token.text(sql).toUpperCase(Locale.ROOT));
            }
            if (!isColon(sql, token)) {
                continue;
            }
            PgToken previous = i > 0 ? tokens.get(i - 1) : null;
            PgToken next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            boolean castColon = (previous != null && isColon(sql, previous) && previous.end() == token.start())
                    || (next != null && isColon(sql, next) && next.start() == token.end());
            if (castColon || next == null || next.kind() != PgToken.Kind.WORD || next.start() != token.end()) {
                continue;
            }
            found.add(new Placeholder(next.text(sql), token.start(), next.end()));
            i++;
        }
        return new NamedParameters(sql, found, words);
    }

    /**
     * A statement whose placeholders another engine's lexer found (MySQL's, where {@code #} starts a comment and a
     * backslash escapes a quote), so that a {@code :name} is a placeholder exactly where that server would read one.
     *
     * @param words the unquoted words, upper-cased (see {@link #words()})
     */
    public static NamedParameters of(String sql, List<Placeholder> placeholders, List<String> words) {
        return new NamedParameters(sql, placeholders, words);
    }

    private static boolean isColon(String sql, PgToken token) {
        return token.kind() == PgToken.Kind.OPERATOR && sql.charAt(token.start()) == ':';
    }

    /** The statement as written. */
    public String sql() {
        return sql;
    }

    /** Every placeholder, in the order written. */
    public List<Placeholder> placeholders() {
        return placeholders;
    }

    /** The distinct placeholder names, in the order first written. */
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        placeholders.forEach(placeholder -> names.add(placeholder.name()));
        return names;
    }

    /**
     * The unquoted words of the statement (keywords and names, upper-cased), never the content of
     * literals, quoted names or comments: what {@code forbiddenKeywords} is checked against.
     */
    public List<String> words() {
        return words;
    }

    /**
     * The statement with every placeholder replaced by positional parameters, numbered from
     * {@code $1} in order of first use; a name used twice gets the same numbers.
     *
     * @param arity how many parameters each name takes (an expanded array takes one per element); 1 when absent
     * @param slot the text of one parameter from its name and number, for example {@code "$" + n + "::text"}
     * @return the rewritten statement and, per name, the first parameter number it took
     */
    public Rewritten rewrite(Map<String, Integer> arity, BiFunction<String, Integer, String> slot) {
        StringBuilder out = new StringBuilder(sql.length() + 16);
        Map<String, Integer> first = new LinkedHashMap<>();
        int nextNumber = 1;
        int copied = 0;
        for (Placeholder placeholder : placeholders) {
            out.append(sql, copied, placeholder.start());
            Integer number = first.get(placeholder.name());
            int count = arity.getOrDefault(placeholder.name(), 1);
            if (number == null) {
                number = nextNumber;
                first.put(placeholder.name(), number);
                nextNumber += count;
            }
            for (int k = 0; k < count; k++) {
                out.append(k == 0 ? "" : ", ").append(slot.apply(placeholder.name(), number + k));
            }
            copied = placeholder.end();
        }
        out.append(sql, copied, sql.length());
        return new Rewritten(out.toString(), first);
    }

    /**
     * The statement with each placeholder, every time it is written, replaced by {@code text}'s answer for it: for
     * engines whose parameters are marks taken in order ({@code ?}), where a name written twice needs its value
     * twice.
     */
    public String replaceEach(java.util.function.Function<Placeholder, String> text) {
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int copied = 0;
        for (Placeholder placeholder : placeholders) {
            out.append(sql, copied, placeholder.start()).append(text.apply(placeholder));
            copied = placeholder.end();
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    /**
     * A statement with positional parameters.
     *
     * @param sql the statement
     * @param firstNumber per placeholder name, the number of its first parameter
     */
    public record Rewritten(String sql, Map<String, Integer> firstNumber) {
        public Rewritten {
            firstNumber = Map.copyOf(firstNumber);
        }
    }
}
