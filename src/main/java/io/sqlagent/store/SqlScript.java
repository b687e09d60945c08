package io.sqlagent.store;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a trusted SQL script (such as the Chinook sample script) into single statements, the way
 * {@code psql} reads it: semicolons inside string literals, quoted identifiers, dollar-quoted bodies
 * and comments do not end a statement, and psql meta-commands ({@code \c chinook}) are dropped.
 *
 * <p>
 * This is a loader for scripts we ship, not a guard for untrusted SQL: the agent's SQL goes
 * through the parser-based guard of the {@code sql} package.
 */
public final class SqlScript {

    private SqlScript() {
    }

    /**
     * Returns the statements of {@code script} in order, each without its terminating semicolon,
     * without the comments before it, and trimmed; empty statements and psql meta-commands are left out.
     *
     * @throws IllegalArgumentException if a literal, identifier, dollar quote or block comment is
     *         never closed, naming the line where it starts
     */
    public static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int length = script.length();
        int i = 0;
        while (i < length) {
            char c = script.charAt(i);
            if (c == '\\' && isLineStart(script, i) && current.toString().isBlank()) {
                i = endOfLine(script, i);
                continue;
            }
            if (c == ';') {
                add(statements, current);
                current.setLength(0);
                i++;
                continue;
            }
            int end = endOfToken(script, i);
            current.append(script, i, end);
            i = end;
        }
        add(statements, current);
        return statements;
    }

    private static void add(List<String> statements, StringBuilder current) {
        String statement = current.substring(codeStart(current)).trim();
        if (!statement.isEmpty()) {
            statements.add(statement);
        }
    }

    /** Returns the index just past the token that starts at {@code i}: a quoted run, a comment, or one character. */
    private static int endOfToken(String s, int i) {
        char c = s.charAt(i);
        char next = i + 1 < s.length() ? s.charAt(i + 1) : '\0';
        if (c == '-' && next == '-') {
            return endOfLine(s, i);
        }
        if (c == '/' && next == '*') {
            return endOfBlockComment(s, i);
        }
        if (c == '\'') {
            boolean escapes = i > 0 && (s.charAt(i - 1) == 'E' || s.charAt(i - 1) == 'e')
                    && (i < 2 || !Character.isLetterOrDigit(s.charAt(i - 2)));
            return endOfQuoted(s, i, '\'', escapes);
        }
        if (c == '"') {
            return endOfQuoted(s, i, '"', false);
        }
        if (c == '$') {
            String tag = dollarTag(s, i);
            if (tag != null) {
                int close = s.indexOf(tag, i + tag.length());
                if (close < 0) {
                    throw unterminated("dollar-quoted string " + tag, s, i);
                }
                return close + tag.length();
            }
        }
        return i + 1;
    }

    private static int endOfQuoted(String s, int start, char quote, boolean backslashEscapes) {
        int i = start + 1;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
                continue;
            }
            if (c == quote) {
                if (i + 1 < s.length() && s.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        throw unterminated(quote == '"' ? "quoted identifier" : "string literal", s, start);
    }

    private static int endOfBlockComment(String s, int start) {
        int depth = 0;
        int i = start;
        while (i < s.length() - 1) {
            if (s.charAt(i) == '/' && s.charAt(i + 1) == '*') {
                depth++;
                i += 2;
            } else if (s.charAt(i) == '*' && s.charAt(i + 1) == '/') {
                depth--;
                i += 2;
                if (depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        throw unterminated("block comment", s, start);
    }

    /** A dollar-quote opener is {@code $$} or {@code $tag$} where tag is an identifier not starting with a digit. */
    private static String dollarTag(String s, int start) {
        if (start > 0 && (Character.isLetterOrDigit(s.charAt(start - 1)) || s.charAt(start - 1) == '_')) {
            return null;
        }
        int i = start + 1;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
            i++;
        }
        if (i >= s.length() || s.charAt(i) != '$') {
            return null;
        }
        if (i > start + 1 && Character.isDigit(s.charAt(start + 1))) {
            return null;
        }
        return s.substring(start, i + 1);
    }

    private static int endOfLine(String s, int i) {
        int newline = s.indexOf('\n', i);
        return newline < 0 ? s.length() : newline + 1;
    }

    private static boolean isLineStart(String s, int i) {
        int j = i - 1;
        while (j >= 0 && (s.charAt(j) == ' ' || s.charAt(j) == '\t')) {
            j--;
        }
        return j < 0 || s.charAt(j) == '\n';
    }

    /**
     * Index of the first character that is neither whitespace nor part of a comment: comments before a statement are not part
     * of it.
     */
    private static int codeStart(CharSequence statement) {
        String s = statement.toString();
        int i = 0;
        while (i < s.length()) {
            if (Character.isWhitespace(s.charAt(i))) {
                i++;
            } else if (s.startsWith("--", i)) {
                i = endOfLine(s, i);
            } else if (s.startsWith("/*", i)) {
                i = endOfBlockComment(s, i);
            } else {
                return i;
            }
        }
        return s.length();
    }

    private static IllegalArgumentException unterminated(String what, String s, int start) {
        int line = 1;
        for (int i = 0; i < start; i++) {
            if (s.charAt(i) == '\n') {
                line++;
            }
        }
        return new IllegalArgumentException("Unterminated " + what + " starting on line " + line);
    }
}
