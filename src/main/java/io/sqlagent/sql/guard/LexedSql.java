package io.sqlagent.sql.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.sqlagent.MessageText;

/**
 * One SQL text as PostgreSQL's lexer cuts it, and the copy of it that JSqlParser gets: comments
 * and semicolons blanked, the string forms JSqlParser misreads ({@code $tag$…$tag$},
 * {@code E'…'}, {@code U&'…'}) rewritten as plain {@code '…'} strings. The copy has the same
 * length and line breaks, so the parser's line and column numbers point into the original.
 */
final class LexedSql {

    private final String sql;
    private final List<PgToken> code;
    private final List<PgToken> all;

    private LexedSql(String sql, List<PgToken> all) {
        this.sql = sql;
        this.all = all;
        this.code = all.stream().filter(token -> token.kind() != PgToken.Kind.COMMENT).toList();
    }

    static LexedSql of(String sql) throws Refusal {
        List<PgToken> tokens;
        try {
            tokens = PgLexer.lex(sql);
        } catch (LexException e) {
            throw Refusal.unparseable(e.getMessage() + " at " + MessageText.lineAndColumn(sql, e.position()));
        }
        for (PgToken token : tokens) {
            // JSqlParser reads U&"…" as U & "…", so the name it sees is not the one PostgreSQL calls.
            if (token.kind() == PgToken.Kind.UNICODE_IDENTIFIER) {
                throw new Refusal("Unicode-escaped names (U&\"…\") are not allowed; write the name plainly (at "
                        + MessageText.lineAndColumn(sql, token.start()) + ")");
            }
        }
        return new LexedSql(sql, tokens);
    }

    String sql() {
        return sql;
    }

    /** The tokens that are not comments. */
    List<PgToken> code() {
        return code;
    }

    boolean isSemicolon(PgToken token) {
        return token.kind() == PgToken.Kind.PUNCTUATION && sql.charAt(token.start()) == ';';
    }

    /**
     * The names written directly before an opening parenthesis from code token {@code from} on,
     * folded as PostgreSQL folds them: every function call, plus a few look-alikes such as
     * {@code numeric(10,2)} or a column list {@code AS t(a, b)}.
     */
    List<String> namesBeforeParenthesis(int from) {
        List<String> names = new ArrayList<>();
        for (int i = from; i + 1 < code.size(); i++) {
            PgToken name = code.get(i);
            PgToken next = code.get(i + 1);
            if ((name.kind() == PgToken.Kind.WORD || name.kind() == PgToken.Kind.QUOTED_IDENTIFIER)
                    && next.kind() == PgToken.Kind.PUNCTUATION && sql.charAt(next.start()) == '(') {
                names.add(Identifiers.fold(name.text(sql)));
            }
        }
        return names;
    }

    /**
     * The relations named right after one of {@code keywords} (unquoted words, lower case) from code token
     * {@code from} on, past {@code ONLY} and {@code LATERAL}, as {@code name} or {@code schema.name} (a database
     * qualifier dropped), folded as PostgreSQL folds them; a name followed by {@code (} is a function and left out.
     * A net under the syntax tree, from PostgreSQL's tokens alone: JSqlParser reads {@code (TABLE x) t} as a table
     * named {@code table}, and cannot parse {@code TABLE ONLY x}, {@code WITH c AS (TABLE x)} or {@code UNION TABLE x}.
     */
    Set<String> relationsAfter(int from, Set<String> keywords) {
        Set<String> relations = new TreeSet<>();
        for (int i = from; i + 1 < code.size(); i++) {
            PgToken keyword = code.get(i);
            if (keyword.kind() != PgToken.Kind.WORD || !keywords.contains(keyword.text(sql).toLowerCase(Locale.ROOT))) {
                continue;
            }
            int j = i + 1;
            while (j < code.size() && code.get(j).kind() == PgToken.Kind.WORD
                    && (code.get(j).is(sql, "only") || code.get(j).is(sql, "lateral"))) {
                j++;
            }
            List<String> parts = new ArrayList<>();
            while (j < code.size() && isName(code.get(j))) {
                parts.add(Identifiers.fold(code.get(j).text(sql)));
                if (j + 2 < code.size() && isDot(code.get(j + 1)) && isName(code.get(j + 2))) {
                    j += 2;
                } else {
                    j++;
                    break;
                }
            }
            boolean call = j < code.size() && code.get(j).kind() == PgToken.Kind.PUNCTUATION
                    && sql.charAt(code.get(j).start()) == '(';
            if (!parts.isEmpty() && !call) {
                relations.add(String.join(".", parts.subList(Math.max(0, parts.size() - 2), parts.size())));
            }
        }
        return relations;
    }

    private static boolean isName(PgToken token) {
        return token.kind() == PgToken.Kind.WORD || token.kind() == PgToken.Kind.QUOTED_IDENTIFIER;
    }

    private boolean isDot(PgToken token) {
        return token.kind() == PgToken.Kind.PUNCTUATION && sql.charAt(token.start()) == '.';
    }

    /**
     * Whether {@code token} is the {@code :} of PostgreSQL's {@code :=} token: directly followed by
     * {@code =}, and not the second half of a {@code ::} cast (PostgreSQL reads {@code ::=} as
     * {@code ::} then {@code =}, {@code :::=} as {@code ::} then {@code :=}).
     */
    private boolean isColonEquals(PgToken token) {
        int at = token.start();
        if (sql.charAt(at) != ':' || at + 1 >= sql.length() || sql.charAt(at + 1) != '=') {
            return false;
        }
        int colons = 0;
        for (int i = at - 1; i >= 0 && sql.charAt(i) == ':'; i--) {
            colons++;
        }
        return colons % 2 == 0;
    }

    /** The first positional parameter ({@code $1}) from code token {@code from} on, if any. */
    Optional<PgToken> firstParameter(int from) {
        for (int i = from; i < code.size(); i++) {
            if (code.get(i).kind() == PgToken.Kind.PARAMETER) {
                return Optional.of(code.get(i));
            }
        }
        return Optional.empty();
    }

    /** How many statements PostgreSQL would see: runs of tokens between semicolons, empty runs not counted. */
    int statementCount() {
        int count = 0;
        boolean inStatement = false;
        for (PgToken token : code) {
            if (isSemicolon(token)) {
                count += inStatement ? 1 : 0;
                inStatement = false;
            } else {
                inStatement = true;
            }
        }
        return count + (inStatement ? 1 : 0);
    }

    /** The copy for JSqlParser, with everything before offset {@code from} (an EXPLAIN header) blanked too. */
    String forParser(int from) {
        char[] out = sql.toCharArray();
        for (int i = 0; i < out.length; i++) {
            // Plain spaces only: JSqlParser may not take \f or \v for space, and counts a tab as several columns.
            if (PgLexer.isSpace(out[i]) && out[i] != '\n' && out[i] != '\r') {
                out[i] = ' ';
            }
        }
        blank(out, 0, from);
        for (PgToken token : all) {
            switch (token.kind()) {
                case COMMENT -> blank(out, token.start(), token.end());
                case PUNCTUATION -> {
                    if (isSemicolon(token)) {
                        out[token.start()] = ' ';
                    }
                }
                case OPERATOR -> {
                    // The older named-argument notation f(a := 1) means f(a => 1), the only place
                    // PostgreSQL takes :=, which JSqlParser does not know; same length, so positions hold.
                    if (token.start() >= from && isColonEquals(token)) {
                        out[token.start()] = '=';
                        out[token.start() + 1] = '>';
                    }
                }
                case DOLLAR_STRING -> {
                    int delimiter = sql.indexOf('$', token.start() + 1) - token.start() + 1;
                    plainString(out, token, token.start() + delimiter, token.end() - delimiter);
                }
                case ESCAPE_STRING -> plainString(out, token, token.start() + 2, token.end() - 1);
                case UNICODE_STRING -> plainString(out, token, token.start() + 3, token.end() - 1);
                default -> {
                    // Everything else JSqlParser reads as PostgreSQL does; the cross-check in JsqlParsing proves it.
                }
            }
        }
        return new String(out);
    }

    private static void blank(char[] out, int from, int to) {
        for (int i = from; i < to; i++) {
            if (out[i] != '\n' && out[i] != '\r') {
                out[i] = ' ';
            }
        }
    }

    /**
     * Rewrites the token as {@code '  body  '}, the body where it was so line breaks stay put; what a
     * string says never matters to the guard, so quotes and backslashes in it become spaces.
     */
    private void plainString(char[] out, PgToken token, int bodyStart, int bodyEnd) {
        blank(out, token.start(), token.end());
        for (int i = bodyStart; i < bodyEnd; i++) {
            char c = sql.charAt(i);
            out[i] = c == '\'' || c == '\\' ? ' ' : c;
        }
        out[token.start()] = '\'';
        out[token.end() - 1] = '\'';
    }
}
