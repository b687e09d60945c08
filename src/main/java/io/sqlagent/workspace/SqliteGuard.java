package io.sqlagent.workspace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The first layer of {@code sql_query}'s safety: reads the SQL with SQLite's own token rules
 * (strings, the three kinds of quoted names, comments) and lets through only a single
 * {@code SELECT}, {@code WITH … SELECT} or {@code VALUES}, with no statement keyword that writes
 * or changes the connection (also inside {@code WITH}), no parameter and no function that reaches
 * outside the database. Words inside strings and quoted names never count. The second layer is
 * the connection itself: opened read-only, {@code query_only}, no attached databases, no
 * extensions.
 */
final class SqliteGuard {

    private static final Set<String> STARTS = Set.of("select", "with", "values");
    private static final Set<String> WRITING = Set.of("insert", "update", "delete", "create", "drop", "alter", "attach",
            "detach", "pragma", "vacuum", "reindex", "analyze", "begin", "commit", "rollback", "savepoint", "release");
    private static final Set<String> FUNCTIONS = Set.of("load_extension", "readfile", "writefile", "edit", "fts3_tokenizer",
            "sqlite_dbpage");

    private enum Kind {
        WORD,
        STRING,
        QUOTED,
        NUMBER,
        PARAMETER,
        SEMICOLON,
        OTHER
    }

    private record Token(Kind kind, String text) {
    }

    private SqliteGuard() {
    }

    /** Why {@code sql} may not run, or empty when it may. */
    static Optional<String> refusal(String sql) {
        List<Token> tokens;
        try {
            tokens = lex(sql);
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
        int statements = 0;
        boolean inStatement = false;
        for (Token token : tokens) {
            if (token.kind() == Kind.SEMICOLON) {
                inStatement = false;
            } else if (!inStatement) {
                inStatement = true;
                statements++;
            }
        }
        if (statements == 0) {
            return Optional.of("No SQL statement was given");
        }
        if (statements > 1) {
            return Optional.of("Only one statement is allowed; found " + statements);
        }
        Token first = tokens.stream().filter(t -> t.kind() != Kind.SEMICOLON).findFirst().orElseThrow();
        String firstWord = first.text().toLowerCase(Locale.ROOT);
        if (first.kind() != Kind.WORD || !STARTS.contains(firstWord)) {
            return Optional.of("Only SELECT, WITH … SELECT and VALUES statements are allowed; found "
                    + (first.kind() == Kind.WORD ? first.text().toUpperCase(Locale.ROOT) : "'" + first.text() + "'"));
        }
        for (int i = 0; i < tokens.size(); i++) {
            Token token = tokens.get(i);
            if (token.kind() == Kind.PARAMETER) {
                return Optional.of("Parameters (" + token.text() + ") are not supported; write the values into the query");
            }
            if (token.kind() != Kind.WORD) {
                continue;
            }
            String word = token.text().toLowerCase(Locale.ROOT);
            boolean call = i + 1 < tokens.size() && tokens.get(i + 1).text().equals("(");
            if (WRITING.contains(word) || (word.equals("replace") && !call)) {
                return Optional
                        .of(word.toUpperCase(Locale.ROOT) + " is not allowed: sql_query only reads (quote a column named "
                                + word + " as \"" + word + "\")");
            }
            if (FUNCTIONS.contains(word) && call) {
                return Optional.of("Function " + word + " is not allowed: it reaches outside the database");
            }
        }
        return Optional.empty();
    }

    /** SQLite's tokenizer ({@code tokenize.c}), as far as the guard needs it; comments are dropped. */
    private static List<Token> lex(String sql) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                // SQLite does not nest block comments, and an unclosed one runs to the end.
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '\'' || c == '"' || c == '`') {
                int end = closing(sql, i, c);
                tokens.add(new Token(c == '\'' ? Kind.STRING : Kind.QUOTED, sql.substring(i, end)));
                i = end;
            } else if (c == '[') {
                int end = sql.indexOf(']', i);
                if (end < 0) {
                    throw new IllegalArgumentException("Unclosed [ name at character " + (i + 1));
                }
                tokens.add(new Token(Kind.QUOTED, sql.substring(i, end + 1)));
                i = end + 1;
            } else if ((c == 'x' || c == 'X') && i + 1 < n && sql.charAt(i + 1) == '\'') {
                int end = closing(sql, i + 1, '\'');
                tokens.add(new Token(Kind.STRING, sql.substring(i, end)));
                i = end;
            } else if (Character.isLetter(c) || c == '_' || c > 0x7f) {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$'
                        || sql.charAt(i) > 0x7f)) {
                    i++;
                }
                tokens.add(new Token(Kind.WORD, sql.substring(start, i)));
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    i++;
                }
                tokens.add(new Token(Kind.NUMBER, sql.substring(start, i)));
            } else if (c == '?' || ((c == ':' || c == '@' || c == '$' || c == '#') && i + 1 < n
                    && (Character.isLetterOrDigit(sql.charAt(i + 1)) || sql.charAt(i + 1) == '_'))) {
                int start = i++;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
                    i++;
                }
                tokens.add(new Token(Kind.PARAMETER, sql.substring(start, i)));
            } else if (c == ';') {
                tokens.add(new Token(Kind.SEMICOLON, ";"));
                i++;
            } else {
                tokens.add(new Token(Kind.OTHER, String.valueOf(c)));
                i++;
            }
        }
        return tokens;
    }

    /** The index after the quote closing the one at {@code start} (a doubled quote is part of the text). */
    private static int closing(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        throw new IllegalArgumentException("Unclosed " + quote + " at character " + (start + 1));
    }
}
