package io.sqlagent.sql.guard;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Cuts SQL into tokens exactly where PostgreSQL's lexer ({@code scan.l}) would, with
 * {@code standard_conforming_strings} on. The guard trusts this, not JSqlParser, for where strings,
 * quoted names and comments begin and end and for how many statements there are: JSqlParser speaks
 * several dialects and reads some text differently (Oracle {@code q'…'} strings, {@code //}
 * comments, no nested comments or tagged dollar quotes), and a difference there could hide code
 * from the checks.
 */
final class PgLexer {

    private static final String OPERATOR_CHARS = "~!@#^&|`?+-*/%<>=:";
    private static final String PUNCTUATION_CHARS = "()[],;.";

    private final String sql;
    private final List<PgToken> tokens = new ArrayList<>();
    private int pos;

    private PgLexer(String sql) {
        this.sql = sql;
    }

    /** The tokens of {@code sql}, comments included, whitespace left out. */
    static List<PgToken> lex(String sql) throws LexException {
        PgLexer lexer = new PgLexer(sql);
        lexer.run();
        checkBrackets(sql, lexer.tokens);
        return lexer.tokens;
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000B';
    }

    // PostgreSQL takes every byte >= 0x80 as a letter, so any non-ASCII character is part of a name.
    private static boolean isIdentStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    private static boolean isIdentPart(char c) {
        return isIdentStart(c) || isDigit(c) || c == '$';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private char at(int index) {
        return index < sql.length() ? sql.charAt(index) : '\0';
    }

    private void run() throws LexException {
        int n = sql.length();
        while (pos < n) {
            char c = sql.charAt(pos);
            char next = at(pos + 1);
            int start = pos;
            if (isSpace(c)) {
                pos++;
            } else if (c == '-' && next == '-') {
                while (pos < n && sql.charAt(pos) != '\n' && sql.charAt(pos) != '\r') {
                    pos++;
                }
                add(PgToken.Kind.COMMENT, start);
            } else if (c == '/' && next == '*') {
                blockComment();
            } else if (c == '\'') {
                quoted(PgToken.Kind.STRING, start, pos, '\'', false);
            } else if ((c == 'e' || c == 'E') && next == '\'') {
                quoted(PgToken.Kind.ESCAPE_STRING, start, pos + 1, '\'', true);
            } else if ("bBxXnN".indexOf(c) >= 0 && next == '\'') {
                quoted(PgToken.Kind.STRING, start, pos + 1, '\'', false);
            } else if ((c == 'u' || c == 'U') && next == '&' && at(pos + 2) == '\'') {
                quoted(PgToken.Kind.UNICODE_STRING, start, pos + 2, '\'', false);
            } else if ((c == 'u' || c == 'U') && next == '&' && at(pos + 2) == '"') {
                quoted(PgToken.Kind.UNICODE_IDENTIFIER, start, pos + 2, '"', false);
            } else if (c == '"') {
                quoted(PgToken.Kind.QUOTED_IDENTIFIER, start, pos, '"', false);
                if (pos - start == 2) {
                    throw new LexException("zero-length quoted identifier", start);
                }
            } else if (c == '$') {
                dollar();
            } else if (isIdentStart(c)) {
                while (pos < n && isIdentPart(sql.charAt(pos))) {
                    pos++;
                }
                add(PgToken.Kind.WORD, start);
            } else if (isDigit(c) || (c == '.' && isDigit(next))) {
                number();
            } else if (PUNCTUATION_CHARS.indexOf(c) >= 0) {
                pos++;
                add(PgToken.Kind.PUNCTUATION, start);
            } else if (OPERATOR_CHARS.indexOf(c) >= 0) {
                // One character at a time, so a comment starting inside an operator is seen, as PostgreSQL does.
                pos++;
                add(PgToken.Kind.OPERATOR, start);
            } else {
                throw new LexException("unexpected character " + describe(c), start);
            }
        }
    }

    private void add(PgToken.Kind kind, int start) {
        tokens.add(new PgToken(kind, start, pos));
    }

    private void blockComment() throws LexException {
        int start = pos;
        int depth = 0;
        do {
            if (pos >= sql.length()) {
                throw new LexException("unterminated /* comment", start);
            }
            if (sql.startsWith("/*", pos)) {
                depth++;
                pos += 2;
            } else if (sql.startsWith("*/", pos)) {
                depth--;
                pos += 2;
            } else {
                pos++;
            }
        } while (depth > 0);
        add(PgToken.Kind.COMMENT, start);
    }

    /** A quoted string or name whose opening quote is at {@code quote}; a doubled quote stands for itself. */
    private void quoted(PgToken.Kind kind, int start, int quote, char delimiter, boolean backslashEscapes)
            throws LexException {
        int i = quote + 1;
        while (true) {
            if (i >= sql.length()) {
                throw new LexException(delimiter == '"' ? "unterminated quoted identifier"
                        : "unterminated quoted string", start);
            }
            char c = sql.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
            } else if (c == delimiter && at(i + 1) == delimiter) {
                i += 2;
            } else if (c == delimiter) {
                pos = i + 1;
                add(kind, start);
                return;
            } else {
                i++;
            }
        }
    }

    private void dollar() throws LexException {
        int start = pos;
        int i = pos + 1;
        if (isDigit(at(i))) {
            pos = i;
            skipDigits();
            rejectJunk("parameter");
            add(PgToken.Kind.PARAMETER, start);
            return;
        }
        if (isIdentStart(at(i))) {
            while (isIdentPart(at(i)) && at(i) != '$') {
                i++;
            }
        }
        if (at(i) != '$') {
            throw new LexException("unexpected character '$'", start);
        }
        String delimiter = sql.substring(start, i + 1);
        int close = sql.indexOf(delimiter, i + 1);
        if (close < 0) {
            throw new LexException("unterminated dollar-quoted string", start);
        }
        pos = close + delimiter.length();
        add(PgToken.Kind.DOLLAR_STRING, start);
    }

    private void number() throws LexException {
        int start = pos;
        if (at(pos) == '0' && "xXoObB".indexOf(at(pos + 1)) >= 0 && isHexDigit(at(pos + 2))) {
            pos += 2;
            while (isHexDigit(at(pos)) || at(pos) == '_') {
                pos++;
            }
        } else {
            skipDigits();
            if (at(pos) == '.' && at(pos + 1) != '.') {
                pos++;
                skipDigits();
            }
            char sign = at(pos + 1);
            if ((at(pos) == 'e' || at(pos) == 'E')
                    && (isDigit(sign) || ((sign == '+' || sign == '-') && isDigit(at(pos + 2))))) {
                pos += isDigit(sign) ? 1 : 2;
                skipDigits();
            }
        }
        rejectJunk("numeric literal");
        add(PgToken.Kind.NUMBER, start);
    }

    private void skipDigits() {
        while (isDigit(at(pos)) || at(pos) == '_') {
            pos++;
        }
    }

    private static boolean isHexDigit(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    // PostgreSQL 15 and later refuse letters glued to a number (older versions split them off, even
    // into an E'…' string); refusing keeps both readings out. A '$' does not start them.
    private void rejectJunk(String what) throws LexException {
        if (isIdentStart(at(pos))) {
            throw new LexException("trailing junk after " + what, pos);
        }
    }

    private static String describe(char c) {
        return c < 0x20 || c == 0x7f ? String.format("U+%04X", (int) c) : "'" + c + "'";
    }

    /**
     * PostgreSQL refuses unbalanced brackets; finding them here keeps them from JSqlParser, which
     * can take seconds to give up on them.
     */
    private static void checkBrackets(String sql, List<PgToken> tokens) throws LexException {
        Deque<PgToken> open = new ArrayDeque<>();
        for (PgToken token : tokens) {
            if (token.kind() != PgToken.Kind.PUNCTUATION) {
                continue;
            }
            char c = sql.charAt(token.start());
            if (c == '(' || c == '[') {
                open.push(token);
            } else if (c == ')' || c == ']') {
                char expected = c == ')' ? '(' : '[';
                if (open.isEmpty() || sql.charAt(open.peek().start()) != expected) {
                    throw new LexException("unmatched '" + c + "'", token.start());
                }
                open.pop();
            }
        }
        if (!open.isEmpty()) {
            throw new LexException("unclosed '" + sql.charAt(open.peek().start()) + "'", open.peek().start());
        }
    }
}
