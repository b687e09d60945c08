package io.sqlagent.sql.guard;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.sqlagent.MessageText;

/**
 * Reads PostgreSQL's {@code EXPLAIN} header ({@code EXPLAIN [ANALYZE] [VERBOSE]} or
 * {@code EXPLAIN (option [value], …)}) from the tokens, because JSqlParser knows only another
 * dialect's options; the statement after it is then checked like any other.
 */
final class ExplainHeader {

    static final String ANALYZE_REFUSED = "EXPLAIN ANALYZE is not allowed because it executes the statement; use plain EXPLAIN";

    // PostgreSQL turns an option off only with these values; anything else either turns ANALYZE on or is an error.
    private static final Set<String> OFF = Set.of("false", "off", "0");

    private ExplainHeader() {
    }

    /** True when the statement starts with EXPLAIN. */
    static boolean isExplain(LexedSql lexed) {
        List<PgToken> code = lexed.code();
        return !code.isEmpty() && code.get(0).kind() == PgToken.Kind.WORD && code.get(0).is(lexed.sql(), "explain");
    }

    /**
     * The index in {@code lexed.code()} of the first token of the explained statement.
     *
     * @throws Refusal for EXPLAIN ANALYZE in any spelling, or a header PostgreSQL would not accept
     */
    static int statementStart(LexedSql lexed) throws Refusal {
        String sql = lexed.sql();
        List<PgToken> code = lexed.code();
        int i = 1;
        if (i < code.size() && isPunctuation(sql, code.get(i), "(")) {
            i = options(sql, code, i + 1);
        } else {
            if (i < code.size() && isAnalyze(sql, code.get(i))) {
                throw new Refusal(ANALYZE_REFUSED);
            }
            if (i < code.size() && code.get(i).is(sql, "verbose")) {
                i++;
            }
            // PostgreSQL would not accept ANALYZE here, but the reason to give is the same.
            if (i < code.size() && isAnalyze(sql, code.get(i))) {
                throw new Refusal(ANALYZE_REFUSED);
            }
        }
        if (i >= code.size() || lexed.isSemicolon(code.get(i))) {
            throw Refusal.unparseable("EXPLAIN needs a statement to explain");
        }
        return i;
    }

    /** Reads {@code name [value], …)} from {@code i}; returns the index after the closing parenthesis. */
    private static int options(String sql, List<PgToken> code, int i) throws Refusal {
        while (true) {
            if (i >= code.size() || code.get(i).kind() != PgToken.Kind.WORD) {
                throw Refusal.unparseable("expected an EXPLAIN option name at " + where(sql, code, i));
            }
            PgToken name = code.get(i++);
            StringBuilder value = new StringBuilder();
            while (i < code.size() && !isPunctuation(sql, code.get(i), ",") && !isPunctuation(sql, code.get(i), ")")) {
                value.append(unquote(sql, code.get(i++)));
            }
            if (i >= code.size()) {
                throw Refusal.unparseable("unclosed EXPLAIN option list at " + where(sql, code, i));
            }
            if (isAnalyze(sql, name) && !OFF.contains(value.toString().toLowerCase(Locale.ROOT))) {
                throw new Refusal(ANALYZE_REFUSED);
            }
            if (isPunctuation(sql, code.get(i++), ")")) {
                return i;
            }
        }
    }

    private static boolean isAnalyze(String sql, PgToken token) {
        return token.kind() == PgToken.Kind.WORD && (token.is(sql, "analyze") || token.is(sql, "analyse"));
    }

    private static boolean isPunctuation(String sql, PgToken token, String text) {
        return token.kind() == PgToken.Kind.PUNCTUATION && token.is(sql, text);
    }

    private static String unquote(String sql, PgToken token) {
        String text = token.text(sql);
        return switch (token.kind()) {
            case STRING, ESCAPE_STRING -> text.substring(text.indexOf('\'') + 1, text.length() - 1);
            case QUOTED_IDENTIFIER -> text.substring(1, text.length() - 1);
            default -> text;
        };
    }

    private static String where(String sql, List<PgToken> code, int i) {
        return MessageText.lineAndColumn(sql, i < code.size() ? code.get(i).start() : sql.length());
    }
}
