package io.sqlagent.sql.guard;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the values out of SQL and of PostgreSQL's error messages, for text the service keeps and shows to other
 * principals (auto-learnings): a statement or an error can carry a value its caller read under row-level security
 * ({@code invalid input syntax for type integer: "Acme Corp"}, {@code WHERE company = 'Acme Corp'}). SQL is cut by
 * {@link PgLexer}, so a quote inside a comment or a dollar-quoted string is read as PostgreSQL reads it; every string
 * and number literal becomes {@code ?} and comments are dropped. Error messages have no grammar and PostgreSQL does
 * not escape the quotes inside a value it quotes, so they are masked generously: a quoted value runs to the last quote
 * of its kind, a {@code Key (…)=(…)} or {@code Failing row contains (…)} detail to the last parenthesis, a number
 * becomes {@code ?}, and the statement excerpt after {@code at character N:} goes. Only a quoted name kept its place
 * (after {@code column}, {@code relation}, ...), and only while it reads as an identifier, not as a value the statement
 * wrote where a name belongs ({@code WHERE company = "Acme Corp"} fails with {@code column "Acme Corp" does not exist}).
 */
public final class SqlLiterals {

    /** The words after which PostgreSQL's messages quote an object's name, not a value. */
    private static final Pattern NAMED = Pattern.compile(
            "(?i)\\b(column|relation|table|function|type|schema|constraint|index|view|sequence|role|database|extension|"
                    + "operator|aggregate|collation|trigger|policy|alias|parameter) $");
    /** What a name looks like: identifiers, optionally qualified, with no space, quote or punctuation in them. */
    private static final Pattern IDENTIFIER = Pattern.compile("[\\p{L}_][\\p{L}\\p{N}_$]*(\\.[\\p{L}_][\\p{L}\\p{N}_$]*)*");
    /** The excerpt of the statement that {@code PgErrorTranslator} appends to a message, up to its detail or hint. */
    private static final Pattern EXCERPT = Pattern.compile("(?s) at character \\d+: .*?(?=\\. Detail: |\\. Hint: |$)");
    /** Where a detail lists the values of a key or of a whole row. */
    private static final Pattern ROW_VALUES = Pattern.compile("(?i)=\\(|\\bcontains \\(");

    private SqlLiterals() {
    }

    /** {@code sql} with every literal as {@code ?} and no comments; text the lexer cannot read is kept as {@code ?}. */
    public static String mask(String sql) {
        return mask(sql, Set.of());
    }

    /**
     * {@code sql} with every literal as {@code ?}, no comments, and every name that is one of {@code values} (lower
     * case, as {@link #values} gives them) as {@code ?} too: a value written where a name belongs. Text the lexer
     * cannot read is kept as {@code ?}.
     */
    public static String mask(String sql, Set<String> values) {
        if (sql == null) {
            return null;
        }
        List<PgToken> tokens;
        try {
            tokens = PgLexer.lex(sql);
        } catch (LexException e) {
            return "?";
        }
        StringBuilder masked = new StringBuilder(sql.length());
        int from = 0;
        for (PgToken token : tokens) {
            boolean literal = switch (token.kind()) {
                case STRING, ESCAPE_STRING, UNICODE_STRING, DOLLAR_STRING, NUMBER -> true;
                case WORD, QUOTED_IDENTIFIER, UNICODE_IDENTIFIER -> values.contains(unquoted(token.text(sql)));
                default -> false;
            };
            if (literal || token.kind() == PgToken.Kind.COMMENT) {
                masked.append(sql, from, token.start()).append(literal ? "?" : "");
                from = token.end();
            }
        }
        return masked.append(sql.substring(from)).toString();
    }

    /**
     * The values of {@code sqls}' string literals, and the quoted parts of {@code message} that are no names, in lower
     * case: what must not stay in learned text where it appears as a name.
     */
    public static Set<String> values(String message, String... sqls) {
        Set<String> values = new LinkedHashSet<>();
        for (String sql : sqls) {
            if (sql == null) {
                continue;
            }
            try {
                for (PgToken token : PgLexer.lex(sql)) {
                    switch (token.kind()) {
                        case STRING, ESCAPE_STRING, UNICODE_STRING, DOLLAR_STRING -> values.add(unquoted(token.text(sql)));
                        default -> {
                        }
                    }
                }
            } catch (LexException e) {
                // Unreadable SQL is masked whole by mask(); it has no values to offer here.
            }
        }
        if (message != null) {
            Matcher quoted = Pattern.compile("\"([^\"]*)\"").matcher(message);
            while (quoted.find()) {
                if (!IDENTIFIER.matcher(quoted.group(1)).matches()) {
                    values.add(quoted.group(1).strip().toLowerCase(Locale.ROOT));
                }
            }
        }
        values.remove("");
        return values;
    }

    /** An error message with its values as {@code ?}. */
    public static String maskMessage(String message) {
        return maskMessage(message, Set.of());
    }

    /**
     * An error message with its values as {@code ?}; a quoted name that is one of {@code values} (lower case) is
     * taken for a value too.
     */
    public static String maskMessage(String message, Set<String> values) {
        if (message == null) {
            return null;
        }
        String text = EXCERPT.matcher(message).replaceAll(" at character ?");
        StringBuilder masked = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            Matcher row = ROW_VALUES.matcher(text).region(i, text.length());
            if (row.lookingAt()) {
                int close = text.lastIndexOf(')');
                masked.append(row.group(), 0, row.group().length() - 1).append("(?)");
                i = close >= row.end() ? close + 1 : text.length();
            } else if (c == '"' || c == '\'') {
                i = quoted(text, i, values, masked);
            } else if (Character.isDigit(c) && (i == 0 || !isWordPart(text.charAt(i - 1)))) {
                masked.append('?');
                i++;
                while (i < text.length() && (isWordPart(text.charAt(i))
                        || text.charAt(i) == '.' && i + 1 < text.length() && Character.isDigit(text.charAt(i + 1)))) {
                    i++;
                }
            } else {
                masked.append(c);
                i++;
            }
        }
        return masked.toString();
    }

    /**
     * Appends the quoted part starting at {@code start}, masked unless it is a name, and answers where the text goes on.
     * A name ends at the next quote; a value at the last one of its kind, because PostgreSQL does not escape a quote
     * inside the value it quotes; with no closing quote, the value runs to the end.
     */
    private static int quoted(String text, int start, Set<String> values, StringBuilder masked) {
        char quote = text.charAt(start);
        int close = text.indexOf(quote, start + 1);
        if (quote == '"' && close > 0 && NAMED.matcher(text.substring(0, start)).find()) {
            String name = text.substring(start + 1, close);
            boolean ends = close + 1 == text.length() || !isWordPart(text.charAt(close + 1)) && text.charAt(close + 1) != quote;
            if (ends && IDENTIFIER.matcher(name).matches() && !values.contains(name.toLowerCase(Locale.ROOT))) {
                masked.append(text, start, close + 1);
                return close + 1;
            }
        }
        masked.append(quote).append('?').append(quote);
        int last = text.lastIndexOf(quote);
        return last > start ? last + 1 : text.length();
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** A literal's or identifier's text without its quotes, prefix and tags, in lower case. */
    private static String unquoted(String token) {
        String text = token;
        if (text.startsWith("$")) {
            int tag = text.indexOf('$', 1);
            text = tag > 0 && text.length() >= 2 * (tag + 1) ? text.substring(tag + 1, text.length() - tag - 1) : text;
        } else {
            int open = text.indexOf('\'') >= 0 ? text.indexOf('\'') : text.indexOf('"');
            if (open >= 0 && text.length() > open + 1) {
                char quote = text.charAt(open);
                text = text.substring(open + 1, text.endsWith(String.valueOf(quote)) ? text.length() - 1 : text.length())
                        .replace(String.valueOf(quote) + quote, String.valueOf(quote));
            }
        }
        return text.strip().toLowerCase(Locale.ROOT);
    }
}
