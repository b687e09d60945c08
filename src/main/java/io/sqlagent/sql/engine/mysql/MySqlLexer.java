package io.sqlagent.sql.engine.mysql;

import java.util.ArrayList;
import java.util.List;

import io.sqlagent.sql.guard.LexException;

/**
 * Cuts SQL into tokens where MySQL's and MariaDB's lexer would, with {@code ANSI_QUOTES} and
 * {@code NO_BACKSLASH_ESCAPES} off (the service pins that {@code sql_mode}, see {@link MySqlSession}).
 * The guard trusts this, not JSqlParser, for where strings, backtick names and comments begin and
 * end: MySQL's {@code #} comments, {@code --} that is a comment only before a blank, backslash
 * escapes and double-quoted strings are read differently by a parser of many dialects. Executable
 * comments ({@code /*! … *}{@code /}, MariaDB's {@code /*M! … *}{@code /}) and optimizer hints
 * ({@code /*+ … *}{@code /}, which can set variables on MySQL) are comments the server runs: they are
 * refused here, before anything else looks at the text.
 */
final class MySqlLexer {

    private static final String PUNCTUATION = "(),;.";

    private final String sql;
    private final List<MySqlToken> tokens = new ArrayList<>();
    private int pos;

    private MySqlLexer(String sql) {
        this.sql = sql;
    }

    /** The tokens of {@code sql}, comments included, blanks left out. */
    static List<MySqlToken> lex(String sql) throws LexException {
        MySqlLexer lexer = new MySqlLexer(sql);
        lexer.run();
        return lexer.tokens;
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000B';
    }

    // MySQL takes U+0080 and above as letters in unquoted names, and $ anywhere in them.
    static boolean isNamePart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$'
                || c >= 0x80;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private void run() throws LexException {
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            int start = pos;
            if (isSpace(c)) {
                pos++;
            } else if (c == '#') {
                lineComment(start);
            } else if (c == '-' && at(pos + 1) == '-' && (pos + 2 >= sql.length() || sql.charAt(pos + 2) <= ' ')) {
                // "--" is a comment only before a blank or a control character; "1--1" is 1 - (-1).
                lineComment(start);
            } else if (c == '/' && at(pos + 1) == '*') {
                blockComment(start);
            } else if (c == '\'' || c == '"') {
                string(start, start);
            } else if (c == '`') {
                quoted(start);
                add(MySqlToken.Kind.QUOTED_IDENTIFIER, start);
            } else if (c == '@') {
                variable(start);
            } else if (c == '.' && isDigit(at(pos + 1)) && !afterName()) {
                pos++;
                digits();
                exponent();
                add(MySqlToken.Kind.NUMBER, start);
            } else if (isNamePart(c)) {
                nameOrNumber(start);
            } else if (PUNCTUATION.indexOf(c) >= 0) {
                pos++;
                add(MySqlToken.Kind.PUNCTUATION, start);
            } else {
                pos++;
                add(MySqlToken.Kind.OPERATOR, start);
            }
        }
    }

    private char at(int index) {
        return index < sql.length() ? sql.charAt(index) : '\0';
    }

    private void add(MySqlToken.Kind kind, int start) {
        tokens.add(new MySqlToken(kind, start, pos));
    }

    private boolean afterName() {
        if (tokens.isEmpty()) {
            return false;
        }
        MySqlToken last = tokens.get(tokens.size() - 1);
        return last.end() == pos && (last.kind() == MySqlToken.Kind.WORD
                || last.kind() == MySqlToken.Kind.QUOTED_IDENTIFIER || last.isPunctuation(sql, ')'));
    }

    private void lineComment(int start) {
        while (pos < sql.length() && sql.charAt(pos) != '\n') {
            pos++;
        }
        add(MySqlToken.Kind.COMMENT, start);
    }

    private void blockComment(int start) throws LexException {
        char third = at(pos + 2);
        if (third == '!' || ((third == 'M' || third == 'm') && at(pos + 3) == '!')) {
            throw new LexException("executable comments (/*! … */, /*M! … */) are not allowed: the server runs "
                    + "what they hold", start);
        }
        if (third == '+') {
            throw new LexException("optimizer hints (/*+ … */) are not allowed: they can change the server's "
                    + "settings for the statement", start);
        }
        int end = sql.indexOf("*/", pos + 2);
        if (end < 0) {
            throw new LexException("unterminated comment", start);
        }
        pos = end + 2;
        add(MySqlToken.Kind.COMMENT, start);
    }

    /** A string from its opening quote at {@code quote}; {@code start} is where the token starts (a prefix). */
    private void string(int start, int quote) throws LexException {
        char delimiter = sql.charAt(quote);
        pos = quote + 1;
        while (true) {
            if (pos >= sql.length()) {
                throw new LexException("unterminated string", start);
            }
            char c = sql.charAt(pos);
            if (c == '\\') {
                pos += 2;
            } else if (c == delimiter && at(pos + 1) == delimiter) {
                pos += 2;
            } else if (c == delimiter) {
                pos++;
                break;
            } else {
                pos++;
            }
        }
        add(MySqlToken.Kind.STRING, start);
    }

    private void quoted(int start) throws LexException {
        pos = start + 1;
        while (true) {
            int close = sql.indexOf('`', pos);
            if (close < 0) {
                throw new LexException("unterminated quoted name", start);
            }
            if (at(close + 1) == '`') {
                pos = close + 2;
            } else {
                pos = close + 1;
                return;
            }
        }
    }

    private void variable(int start) throws LexException {
        boolean system = at(pos + 1) == '@';
        pos += system ? 2 : 1;
        char c = at(pos);
        if (!system && (c == '\'' || c == '"')) {
            string(start, pos);
            tokens.set(tokens.size() - 1, new MySqlToken(MySqlToken.Kind.USER_VARIABLE, start, pos));
            return;
        }
        if (c == '`') {
            quoted(pos);
        } else {
            while (pos < sql.length() && (isNamePart(sql.charAt(pos)) || sql.charAt(pos) == '.')) {
                pos++;
            }
        }
        add(system ? MySqlToken.Kind.SYSTEM_VARIABLE : MySqlToken.Kind.USER_VARIABLE, start);
    }

    private void nameOrNumber(int start) throws LexException {
        while (pos < sql.length() && isNamePart(sql.charAt(pos))) {
            pos++;
        }
        String word = sql.substring(start, pos);
        // X'1F', B'101', N'text' and charset introducers (_utf8mb4'text') are one literal.
        if (at(pos) == '\'' && (word.length() == 1 && "xXbBnN".contains(word) || word.startsWith("_"))) {
            string(start, pos);
            return;
        }
        if (!isDigit(word.charAt(0))) {
            add(MySqlToken.Kind.WORD, start);
            return;
        }
        if (word.chars().allMatch(ch -> isDigit((char) ch))) {
            if (at(pos) == '.' && !isNamePart(at(pos + 1)) || at(pos) == '.' && isDigit(at(pos + 1))) {
                pos++;
                digits();
            }
            exponent();
            add(MySqlToken.Kind.NUMBER, start);
        } else if (word.matches("0x[0-9a-fA-F]+|0b[01]+|[0-9]+[eE][0-9]+")) {
            add(MySqlToken.Kind.NUMBER, start);
        } else if (word.matches("[0-9]+[eE]") && (at(pos) == '+' || at(pos) == '-') && isDigit(at(pos + 1))) {
            pos++;
            digits();
            add(MySqlToken.Kind.NUMBER, start);
        } else {
            // MySQL names may start with digits (1st_quarter) as long as they are not numbers.
            add(MySqlToken.Kind.WORD, start);
        }
    }

    private void digits() {
        while (pos < sql.length() && isDigit(sql.charAt(pos))) {
            pos++;
        }
    }

    private void exponent() {
        if ((at(pos) == 'e' || at(pos) == 'E')
                && (isDigit(at(pos + 1)) || ((at(pos + 1) == '+' || at(pos + 1) == '-') && isDigit(at(pos + 2))))) {
            pos += 2;
            digits();
        }
    }
}
