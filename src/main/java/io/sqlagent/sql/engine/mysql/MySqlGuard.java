package io.sqlagent.sql.engine.mysql;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.sqlagent.Texts;
import io.sqlagent.sql.engine.StatementCheck;
import io.sqlagent.sql.guard.SqlVerdict;
import io.sqlagent.sql.guard.StatementKind;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.Values;

/**
 * The statement check of MySQL and MariaDB sources: one statement, a query ({@code SELECT},
 * {@code WITH}, {@code VALUES}), a {@code SHOW} of the schema or an {@code EXPLAIN}/{@code DESCRIBE}
 * of a query or a table, calling only allow-listed functions ({@link MySqlFunctions}) and reading no
 * closed table ({@link ClosedRelations}). MySQL's own token rules ({@link MySqlLexer}) cut the text;
 * the token-level refusals (writes into files and variables, locks, executable comments) are made
 * there, where no parser can misread them, and JSqlParser's tree is then walked for every table and
 * function. {@code SHOW} and {@code DESCRIBE} count as {@link StatementKind#EXPLAIN}: they describe,
 * they read no rows. Immutable, thread-safe; {@link #check} never throws.
 */
public final class MySqlGuard implements StatementCheck {

    private static final int MAX_LENGTH = 100_000;
    private static final long PARSE_MILLIS = 2_000;

    private static final Set<String> QUERY_STARTS = Set.of("select", "with", "values");
    private static final Set<String> EXPLAIN_WORDS = Set.of("explain", "describe", "desc");
    private static final Map<String, String> STATEMENT_NAMES = Map.of("lock", "LOCK TABLES", "load", "LOAD DATA",
            "handler", "HANDLER", "do", "DO", "call", "CALL", "set", "SET", "table", "TABLE");

    /** What SHOW may show: the schema's shape, never other sessions, accounts, logs or the server's state. */
    private static final Set<String> SHOWABLE = Set.of("tables", "full tables", "columns", "fields", "full columns",
            "full fields", "index", "indexes", "keys", "create table", "create view", "databases", "schemas",
            "table status", "warnings", "errors", "character set", "charset", "collation");
    // After SHOW, the words that end its kind (what follows is a name, FROM, LIKE or nothing).
    private static final Set<String> SHOW_MODIFIERS = Set.of("full", "create", "table", "character");

    private final Set<StatementKind> allowed;

    /** A check allowing every kind (queries, SHOW, EXPLAIN). */
    public MySqlGuard() {
        this(EnumSet.allOf(StatementKind.class));
    }

    /** A check allowing the given kinds ({@code sqlagent.sql.allowed-statements}). */
    public MySqlGuard(Set<StatementKind> allowed) {
        if (allowed == null || allowed.isEmpty()) {
            throw new IllegalArgumentException("At least one statement kind must be allowed");
        }
        this.allowed = Set.copyOf(allowed);
    }

    /** Thrown inside the check when the statement is refused; {@link #check} turns it into a verdict. */
    private static final class Refused extends Exception {

        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    @Override
    public SqlVerdict check(String sql) {
        try {
            return decide(sql);
        } catch (Refused refused) {
            return SqlVerdict.refuse(refused.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            return SqlVerdict.refuse("The SQL could not be checked (" + e.getClass().getSimpleName()
                    + "); write it more simply");
        }
    }

    private SqlVerdict decide(String sql) throws Refused {
        if (sql == null || sql.isBlank()) {
            throw new Refused("No SQL statement was given");
        }
        if (sql.length() > MAX_LENGTH) {
            throw new Refused("The SQL is too long (" + sql.length() + " characters; at most " + MAX_LENGTH
                    + " are allowed)");
        }
        List<MySqlToken> all;
        try {
            all = MySqlLexer.lex(sql);
        } catch (MySqlLexer.LexException e) {
            String reason = e.getMessage();
            throw new Refused((reason.startsWith("unterminated") ? "The SQL could not be parsed: " + reason
                    : Character.toUpperCase(reason.charAt(0)) + reason.substring(1))
                    + " (at " + Texts.lineAndColumn(sql, e.position()) + ")");
        }
        List<MySqlToken> code = statement(sql, all);
        String first = code.get(0).kind() == MySqlToken.Kind.WORD ? word(sql, code.get(0)) : null;
        if (first != null && !QUERY_STARTS.contains(first) && !first.equals("show") && !EXPLAIN_WORDS.contains(first)) {
            // A statement that is no query is refused by its own name, before what it holds is looked at.
            throw new Refused(notAllowed(STATEMENT_NAMES.getOrDefault(first, first.toUpperCase(Locale.ROOT))));
        }
        refuseByTokens(sql, code);
        if (code.get(0).isPunctuation(sql, '(') || (first != null && QUERY_STARTS.contains(first))) {
            return query(sql, all, code, 0, StatementKind.SELECT);
        }
        if ("show".equals(first)) {
            return show(sql, code);
        }
        if (first != null && EXPLAIN_WORDS.contains(first)) {
            return explain(sql, all, code);
        }
        if (first == null) {
            throw new Refused("The SQL could not be parsed: a statement cannot start with "
                    + code.get(0).text(sql) + " (at " + Texts.lineAndColumn(sql, code.get(0).start()) + ")");
        }
        throw new Refused(notAllowed(STATEMENT_NAMES.getOrDefault(first, first.toUpperCase(Locale.ROOT))));
    }

    /** The code tokens (comments left out) of the one statement, without trailing semicolons. */
    private static List<MySqlToken> statement(String sql, List<MySqlToken> all) throws Refused {
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
    private static void refuseByTokens(String sql, List<MySqlToken> code) throws Refused {
        for (int i = 0; i < code.size(); i++) {
            MySqlToken token = code.get(i);
            MySqlToken next = i + 1 < code.size() ? code.get(i + 1) : null;
            String text = token.text(sql);
            String lower = text.toLowerCase(Locale.ROOT);
            String at = " (at " + Texts.lineAndColumn(sql, token.start()) + ")";
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

    private SqlVerdict query(String sql, List<MySqlToken> all, List<MySqlToken> code, int from, StatementKind kind)
            throws Refused {
        Statement statement;
        try {
            statement = MySqlParsing.parse(forParser(sql, all, code.get(from).start()), code.subList(from, code.size()),
                    PARSE_MILLIS);
        } catch (MySqlParsing.Unparseable e) {
            throw new Refused("The SQL could not be parsed: " + e.getMessage());
        }
        Statement query = statement;
        while (query instanceof ParenthesedSelect parenthesed && parenthesed.getSelect() != null) {
            query = parenthesed.getSelect();
        }
        if (!(query instanceof PlainSelect || query instanceof SetOperationList || query instanceof Values)) {
            throw new Refused(notAllowed(query.getClass().getSimpleName().toUpperCase(Locale.ROOT)));
        }
        MySqlInspector.Inspection inspection = MySqlInspector.inspect(statement);
        if (!allowed.contains(kind)) {
            return SqlVerdict.refuse(notAllowed(kind.name()), kind, inspection.tables(), inspection.functions());
        }
        if (inspection.problem().isPresent()) {
            return SqlVerdict.refuse(inspection.problem().get(), kind, inspection.tables(), inspection.functions());
        }
        return SqlVerdict.allow(kind, inspection.tables(), inspection.functions());
    }

    /** SHOW of the schema's shape only, without WHERE (which takes any expression); the table it names is read. */
    private SqlVerdict show(String sql, List<MySqlToken> code) throws Refused {
        StringBuilder what = new StringBuilder();
        int i = 1;
        while (i < code.size() && code.get(i).kind() == MySqlToken.Kind.WORD) {
            String word = word(sql, code.get(i));
            what.append(what.isEmpty() ? "" : " ").append(word);
            i++;
            if (SHOWABLE.contains(what.toString()) && !word.equals("full") || !SHOW_MODIFIERS.contains(word)) {
                break;
            }
        }
        String kind = what.toString();
        if (!SHOWABLE.contains(kind)) {
            throw new Refused("SHOW " + kind.toUpperCase(Locale.ROOT) + " is not allowed: only SHOW TABLES, COLUMNS, "
                    + "INDEX, CREATE TABLE, CREATE VIEW, DATABASES, TABLE STATUS, WARNINGS and ERRORS are");
        }
        Set<String> relations = new TreeSet<>();
        List<String> names = new ArrayList<>();
        for (int j = i; j < code.size(); j++) {
            MySqlToken token = code.get(j);
            if (token.isWord(sql, "where")) {
                throw new Refused("SHOW … WHERE is not allowed; use SHOW … LIKE 'pattern', or query information_schema");
            }
            if (token.kind() == MySqlToken.Kind.WORD || token.kind() == MySqlToken.Kind.QUOTED_IDENTIFIER) {
                String name = ClosedRelations.fold(token.text(sql));
                if (!Set.of("from", "in", "like").contains(name) || token.kind() == MySqlToken.Kind.QUOTED_IDENTIFIER) {
                    names.add(name);
                }
            } else if (!token.isPunctuation(sql, '.') && token.kind() != MySqlToken.Kind.STRING) {
                throw new Refused("The SQL could not be parsed: unexpected " + token.text(sql) + " in SHOW");
            }
        }
        boolean tableFirst = Set.of("columns", "fields", "full columns", "full fields", "index", "indexes", "keys",
                "create table", "create view").contains(kind);
        // SHOW COLUMNS FROM t FROM db, FROM db.t; SHOW TABLES FROM db.
        String schema = tableFirst ? (names.size() > 1 ? names.get(names.size() - 1) : "")
                : (names.isEmpty() ? "" : names.get(0));
        if (!schema.isEmpty() && ClosedRelations.schema(schema).isPresent()) {
            throw new Refused("The " + schema + " schema is closed: " + ClosedRelations.schema(schema).get());
        }
        if (tableFirst && !names.isEmpty()) {
            // FROM db.t (a dot among the tokens) or FROM t [FROM db].
            boolean dotted = code.stream().anyMatch(token -> token.isPunctuation(sql, '.'));
            String tableSchema = dotted && names.size() > 1 ? names.get(0) : schema;
            String table = dotted && names.size() > 1 ? names.get(1) : names.get(0);
            Optional<String> closed = ClosedRelations.table(tableSchema, table);
            if (closed.isPresent()) {
                throw new Refused(closed.get());
            }
            relations.add(tableSchema.isEmpty() ? table : tableSchema + "." + table);
        }
        return verdictFor(StatementKind.EXPLAIN, relations);
    }

    private SqlVerdict verdictFor(StatementKind kind, Set<String> relations) {
        if (!allowed.contains(kind)) {
            return SqlVerdict.refuse(notAllowed(kind == StatementKind.EXPLAIN ? "SHOW and DESCRIBE" : kind.name()), kind,
                    relations, Set.of());
        }
        return SqlVerdict.allow(kind, relations, Set.of());
    }

    /** EXPLAIN [EXTENDED | PARTITIONS | FORMAT = x] of a query, or DESCRIBE of a table; never ANALYZE. */
    private SqlVerdict explain(String sql, List<MySqlToken> all, List<MySqlToken> code) throws Refused {
        int i = 1;
        while (i < code.size() && code.get(i).kind() == MySqlToken.Kind.WORD) {
            String word = word(sql, code.get(i));
            if (word.equals("analyze")) {
                throw new Refused("EXPLAIN ANALYZE is not allowed: it runs the statement");
            }
            if (word.equals("for")) {
                throw new Refused("EXPLAIN FOR CONNECTION is not allowed: it shows another session's statement");
            }
            if (word.equals("extended") || word.equals("partitions")) {
                i++;
            } else if (word.equals("format") && i + 2 < code.size()) {
                i += 3;
            } else {
                break;
            }
        }
        if (i >= code.size()) {
            throw new Refused("The SQL could not be parsed: EXPLAIN of nothing");
        }
        MySqlToken target = code.get(i);
        String word = target.kind() == MySqlToken.Kind.WORD ? word(sql, target) : null;
        if (target.isPunctuation(sql, '(') || (word != null && QUERY_STARTS.contains(word))) {
            SqlVerdict explained = query(sql, all, code, i, StatementKind.SELECT);
            if (!explained.allowed()) {
                return explained;
            }
            return verdictFor(StatementKind.EXPLAIN, explained.tables());
        }
        if (word != null && Set.of("insert", "update", "delete", "replace").contains(word)) {
            throw new Refused("Only SELECT statements can be explained; found " + word.toUpperCase(Locale.ROOT));
        }
        // DESCRIBE t [column]: the columns of a table.
        List<String> parts = new ArrayList<>();
        for (int j = i; j < code.size(); j++) {
            MySqlToken token = code.get(j);
            if (token.kind() == MySqlToken.Kind.WORD || token.kind() == MySqlToken.Kind.QUOTED_IDENTIFIER) {
                parts.add(ClosedRelations.fold(token.text(sql)));
            } else if (!token.isPunctuation(sql, '.') && token.kind() != MySqlToken.Kind.STRING) {
                throw new Refused("The SQL could not be parsed: unexpected " + token.text(sql) + " in DESCRIBE");
            }
        }
        boolean qualified = i + 1 < code.size() && code.get(i + 1).isPunctuation(sql, '.');
        String schema = qualified ? parts.get(0) : "";
        String table = qualified ? parts.get(1) : parts.get(0);
        Optional<String> closed = ClosedRelations.table(schema, table);
        if (closed.isPresent()) {
            throw new Refused(closed.get());
        }
        return verdictFor(StatementKind.EXPLAIN, Set.of(qualified ? schema + "." + table : table));
    }

    private static String word(String sql, MySqlToken token) {
        return token.text(sql).toLowerCase(Locale.ROOT);
    }

    /**
     * The copy JSqlParser reads: same length and line breaks (so its positions point into the original),
     * with everything before {@code from}, comments and semicolons blanked, and every string rewritten as a
     * plain {@code '…'} with no quote or backslash inside (what a string says never matters to the check;
     * where it ends does, and that is MySQL's reading).
     */
    private static String forParser(String sql, List<MySqlToken> all, int from) {
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

    private String notAllowed(String name) {
        return name + " statements are not allowed on this source; only SELECT (with WITH and VALUES)"
                + (allowed.contains(StatementKind.EXPLAIN) ? ", SHOW, DESCRIBE and EXPLAIN are" : " is");
    }
}
