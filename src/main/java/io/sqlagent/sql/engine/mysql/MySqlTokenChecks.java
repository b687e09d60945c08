package io.sqlagent.sql.engine.mysql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.sqlagent.MessageText;
import io.sqlagent.sql.engine.mysql.MySqlGuard.Refused;

/**
 * What {@link MySqlGuard} decides from MySQL's own tokens ({@link MySqlLexer}), before any parser reads the
 * statement: that there is one statement, the refusals no parser reading may hide (writes into files and
 * variables, locks, sequences, ODBC escapes, functions refused by name), and the copy of the text JSqlParser
 * reads for the cross-check. Kept apart from the guard because these rules follow MySQL's lexer, the guard's
 * follow the parser's tree.
 */
final class MySqlTokenChecks {

    private MySqlTokenChecks() {
    }

    /** The code tokens (comments left out) of the one statement, without trailing semicolons. */
    static List<MySqlToken> statement(String sql, List<MySqlToken> all) throws Refused {
        List<MySqlToken> code = new ArrayList<>();
        int statements = 0;
        boolean open = false;
        for (MySqlToken token : all) {
            if (token.kind() == MySqlToken.Kind.COMMENT) {
                continue;
            }
            if (token.isPunctuation(sql, ';')) {
                statements += open ? 1 : 0;
                open = false;
                continue;
            }
            if (!open && statements > 0) {
                throw new Refused("Only one statement is allowed; found more than one");
            }
            open = true;
            code.add(token);
        }
        if (code.isEmpty()) {
            throw new Refused("No SQL statement was given");
        }
        return code;
    }

    /**
     * Refusals that need MySQL's tokens only, so that no parser reading can hide them: what writes
     * (files, variables, sequences), locks, runs a procedure, or would be read differently by the checker.
     */
    static void refuseByTokens(String sql, List<MySqlToken> code) throws Refused {
        for (int i = 0; i < code.size(); i++) {
            MySqlToken token = code.get(i);
            MySqlToken next = i + 1 < code.size() ? code.get(i + 1) : null;
            String text = token.text(sql);
            String lower = text.toLowerCase(Locale.ROOT);
            String at = " (at " + MessageText.lineAndColumn(sql, token.start()) + ")";
            switch (token.kind()) {
                case WORD -> {
                    switch (lower) {
                        case "into", "outfile", "dumpfile" -> throw new Refused(
                                "SELECT … INTO is not allowed: it writes a file on the server (OUTFILE, DUMPFILE) "
                                        + "or variables" + at);
                        case "lock" -> {
                            if (i > 0) {
                                throw new Refused("Locking clauses (LOCK IN SHARE MODE) are not allowed" + at);
                            }
                        }
                        case "update", "share" -> {
                            if (i > 0 && code.get(i - 1).isWord(sql, "for")) {
                                throw new Refused("Locking clauses (FOR " + lower.toUpperCase(Locale.ROOT)
                                        + ") are not allowed" + at);
                            }
                        }
                        case "procedure" -> throw new Refused(
                                "SELECT … PROCEDURE is not allowed: it runs a procedure on the result" + at);
                        case "next", "previous" -> {
                            if (next != null && next.isWord(sql, "value")) {
                                throw new Refused("NEXT/PREVIOUS VALUE FOR is not allowed: it reads or advances a "
                                        + "sequence" + at);
                            }
                        }
                        default -> {
                            // VALUES (…) starting the statement is a table value constructor, not the function.
                            if (i > 0) {
                                refuseCall(sql, token, next, lower, at);
                            }
                        }
                    }
                }
                case QUOTED_IDENTIFIER -> refuseCall(sql, token, next, ClosedRelations.fold(text), at);
                case USER_VARIABLE -> {
                    if (next != null && next.kind() == MySqlToken.Kind.OPERATOR && sql.startsWith(":=", next.start())) {
                        throw new Refused("Assigning user variables (" + text + " := …) is not allowed: it writes "
                                + "the session's state" + at);
                    }
                }
                case OPERATOR -> {
                    char c = sql.charAt(token.start());
                    if (c == '{' || c == '}') {
                        throw new Refused("ODBC escapes ({ … }) are not allowed" + at);
                    }
                    if (c == '-' && next != null && next.start() == token.end() && sql.charAt(next.start()) == '-') {
                        throw new Refused("Write \"- -\" with a space: \"--\" directly before a character is read "
                                + "differently by MySQL and by the checker" + at);
                    }
                    if (c == ':' && sql.startsWith(":=", token.start())) {
                        throw new Refused("Assignments (:=) are not allowed: they write the session's state" + at);
                    }
                }
                default -> {
                    // Strings, numbers, system variables (read only) and punctuation say nothing here.
                }
            }
        }
    }

    /** A name directly before "(" whose function is refused for a reason of its own: refused, however parsed. */
    private static void refuseCall(String sql, MySqlToken name, MySqlToken next, String folded, String at)
            throws Refused {
        if (next != null && next.isPunctuation(sql, '(') && MySqlFunctions.refusedByName(folded)) {
            throw new Refused("Function " + folded + " is not allowed: " + MySqlFunctions.refusal(folded).orElseThrow()
                    + at);
        }
    }

    /**
     * The copy JSqlParser reads: same length and line breaks (so its positions point into the original),
     * with everything before {@code from}, comments and semicolons blanked, and every string rewritten as a
     * plain {@code '…'} with no quote or backslash inside (what a string says never matters to the check;
     * where it ends does, and that is MySQL's reading).
     */
    static String forParser(String sql, List<MySqlToken> all, int from) {
        char[] out = sql.toCharArray();
        for (int i = 0; i < out.length; i++) {
            if (MySqlLexer.isSpace(out[i]) && out[i] != '\n') {
                out[i] = ' ';
            }
        }
        blank(out, 0, from);
        for (MySqlToken token : all) {
            switch (token.kind()) {
                case COMMENT -> blank(out, token.start(), token.end());
                case PUNCTUATION -> {
                    if (sql.charAt(token.start()) == ';') {
                        out[token.start()] = ' ';
                    }
                }
                case STRING, USER_VARIABLE -> {
                    int quote = token.start();
                    while (quote < token.end() && sql.charAt(quote) != '\'' && sql.charAt(quote) != '"') {
                        quote++;
                    }
                    if (quote < token.end() && token.kind() == MySqlToken.Kind.STRING) {
                        blank(out, token.start(), token.end());
                        for (int i = quote + 1; i < token.end() - 1; i++) {
                            char c = sql.charAt(i);
                            out[i] = c == '\'' || c == '"' || c == '\\' || c == '\r' ? ' ' : c;
                        }
                        out[quote] = '\'';
                        out[token.end() - 1] = '\'';
                    } else if (quote < token.end()) {
                        // @'name': a variable; read as @name by the parser.
                        blank(out, token.start() + 1, token.end());
                        out[token.start() + 1] = 'v';
                    }
                }
                default -> {
                    // Names, numbers and operators are read by JSqlParser as by MySQL; the cross-check proves it.
                }
            }
        }
        return new String(out);
    }

    private static void blank(char[] out, int from, int to) {
        for (int i = from; i < to; i++) {
            if (out[i] != '\n') {
                out[i] = ' ';
            }
        }
    }
}
