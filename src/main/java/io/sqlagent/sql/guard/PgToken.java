package io.sqlagent.sql.guard;

/**
 * One token as PostgreSQL's lexer would cut it: its kind and where it lies in the text
 * ({@code start} inclusive, {@code end} exclusive).
 */
record PgToken(Kind kind, int start, int end) {

    /** Token kinds; the string kinds are kept apart because each needs its own treatment before JSqlParser sees it. */
    enum Kind {
        /** An unquoted identifier or keyword. */
        WORD,
        /** A {@code "quoted identifier"}. */
        QUOTED_IDENTIFIER,
        /** A {@code U&"identifier"} with Unicode escapes. */
        UNICODE_IDENTIFIER,
        /** A {@code 'string'}, also with a {@code B}, {@code X} or {@code N} prefix. */
        STRING,
        /** An {@code E'string'}, where backslash escapes. */
        ESCAPE_STRING,
        /** A {@code U&'string'} with Unicode escapes. */
        UNICODE_STRING,
        /** A {@code $$string$$} or {@code $tag$string$tag$}. */
        DOLLAR_STRING,
        NUMBER,
        /** A positional parameter such as {@code $1}. */
        PARAMETER,
        /** One operator character, or {@code :}. */
        OPERATOR,
        /** One of {@code ( ) [ ] , ; .}. */
        PUNCTUATION,
        /** A {@code --} or (possibly nested) block comment. */
        COMMENT
    }

    String text(String sql) {
        return sql.substring(start, end);
    }

    boolean is(String sql, String expected) {
        return end - start == expected.length() && sql.regionMatches(true, start, expected, 0, expected.length());
    }
}
