package io.sqlagent.sql.guard;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the values out of SQL and of PostgreSQL's error messages, for text the service keeps and shows to other
 * principals (auto-learnings): a statement or an error can carry a value its caller read under row-level security
 * ({@code invalid input syntax for type integer: "Acme Corp"}, {@code WHERE company = 'Acme Corp'}). SQL is cut by
 * {@link PgLexer}, so a quote inside a comment or a dollar-quoted string is read as PostgreSQL reads it; every string
 * and number literal becomes {@code ?} and comments are dropped. Error messages have no grammar: every quoted part
 * ({@code "…"}, {@code '…'}) and every {@code Key (…)=(…)} detail loses its value.
 */
public final class SqlLiterals {

    /** A {@code Key (col)=(value)} detail (unique and foreign key violations): the value after the equals sign. */
    private static final Pattern KEY_VALUE = Pattern.compile("=\\((?:[^()]|\\([^()]*\\))*\\)");
    /** A double- or single-quoted part of a message. */
    private static final Pattern QUOTED = Pattern.compile("\"[^\"]*\"|'[^']*'");
    /** The words after which PostgreSQL's messages quote an object's name, not a value. */
    private static final Pattern NAMED = Pattern.compile(
            "(?i)\\b(column|relation|table|function|type|schema|constraint|index|view|sequence|role|database|extension|"
                    + "operator|aggregate|collation|trigger|policy|alias|parameter) $");

    private SqlLiterals() {
    }

    /** {@code sql} with every literal as {@code ?} and no comments; text the lexer cannot read is kept as {@code ?}. */
    public static String mask(String sql) {
        if (sql == null) {
            return null;
        }
        List<PgToken> tokens;
        try {
            tokens = PgLexer.lex(sql);
        } catch (PgLexer.LexException e) {
            return "?";
        }
        StringBuilder masked = new StringBuilder(sql.length());
        int from = 0;
        for (PgToken token : tokens) {
            boolean literal = switch (token.kind()) {
                case STRING, ESCAPE_STRING, UNICODE_STRING, DOLLAR_STRING, NUMBER -> true;
                default -> false;
            };
            if (literal || token.kind() == PgToken.Kind.COMMENT) {
                masked.append(sql, from, token.start()).append(literal ? "?" : "");
                from = token.end();
            }
        }
        return masked.append(sql.substring(from)).toString();
    }

    /** An error message with its quoted values and key values as {@code ?}. */
    public static String maskMessage(String message) {
        if (message == null) {
            return null;
        }
        String keys = KEY_VALUE.matcher(message).replaceAll("=(?)");
        Matcher quoted = QUOTED.matcher(keys);
        StringBuilder masked = new StringBuilder(keys.length());
        while (quoted.find()) {
            boolean name = keys.charAt(quoted.start()) == '"' && NAMED.matcher(keys.substring(0, quoted.start())).find();
            quoted.appendReplacement(masked, Matcher.quoteReplacement(name ? quoted.group() : "\"?\""));
        }
        return quoted.appendTail(masked).toString();
    }
}
