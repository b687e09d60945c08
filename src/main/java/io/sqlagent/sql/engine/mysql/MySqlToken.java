package io.sqlagent.sql.engine.mysql;

/**
 * One token as MySQL's and MariaDB's lexer would cut it (with {@code ANSI_QUOTES} and
 * {@code NO_BACKSLASH_ESCAPES} off, the modes the service pins): its kind and where it lies in the
 * text ({@code start} inclusive, {@code end} exclusive).
 */
record MySqlToken(Kind kind, int start, int end) {

    /** Token kinds. */
    enum Kind {
        /** An unquoted identifier or keyword (MySQL allows names that start with digits: {@code 1e_x}). */
        WORD,
        /** A {@code `backtick quoted`} identifier. */
        QUOTED_IDENTIFIER,
        /** A {@code 'string'} or {@code "string"} (double quotes are strings without ANSI_QUOTES), backslash escapes. */
        STRING,
        /** A number, including {@code 0x1F}, {@code 0b101}, {@code X'1F'} and {@code B'101'}. */
        NUMBER,
        /** A user variable: {@code @name}, {@code @`name`}, {@code @'name'}. */
        USER_VARIABLE,
        /** A system variable: {@code @@name}, {@code @@session.name}. */
        SYSTEM_VARIABLE,
        /** One operator character. */
        OPERATOR,
        /** One of {@code ( ) , ; .}. */
        PUNCTUATION,
        /** A comment: {@code #…}, {@code -- …} or {@code /* … *}{@code /}. */
        COMMENT
    }

    String text(String sql) {
        return sql.substring(start, end);
    }

    boolean isWord(String sql, String expected) {
        return kind == Kind.WORD && end - start == expected.length()
                && sql.regionMatches(true, start, expected, 0, expected.length());
    }

    boolean isPunctuation(String sql, char c) {
        return kind == Kind.PUNCTUATION && sql.charAt(start) == c;
    }
}
