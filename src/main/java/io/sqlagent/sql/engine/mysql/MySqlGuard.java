package io.sqlagent.sql.engine.mysql;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.sqlagent.MessageText;
import io.sqlagent.sql.engine.StatementCheck;
import io.sqlagent.sql.guard.LexException;
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
 * they read no rows. Immutable, thread-safe; {@link #check} never throws. The token-level work is
 * {@link MySqlTokenChecks}; this class decides the kind of statement and reads the parser's tree.
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
    static final class Refused extends Exception {

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
        } catch (LexException e) {
            String reason = e.getMessage();
            throw new Refused((reason.startsWith("unterminated") ? "The SQL could not be parsed: " + reason
                    : Character.toUpperCase(reason.charAt(0)) + reason.substring(1))
                    + " (at " + MessageText.lineAndColumn(sql, e.position()) + ")");
        }
        List<MySqlToken> code = MySqlTokenChecks.statement(sql, all);
        String first = code.get(0).kind() == MySqlToken.Kind.WORD ? word(sql, code.get(0)) : null;
        if (first != null && !QUERY_STARTS.contains(first) && !first.equals("show") && !EXPLAIN_WORDS.contains(first)) {
            // A statement that is no query is refused by its own name, before what it holds is looked at.
            throw new Refused(notAllowed(STATEMENT_NAMES.getOrDefault(first, first.toUpperCase(Locale.ROOT))));
        }
        MySqlTokenChecks.refuseByTokens(sql, code);
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
                    + code.get(0).text(sql) + " (at " + MessageText.lineAndColumn(sql, code.get(0).start()) + ")");
        }
        throw new Refused(notAllowed(STATEMENT_NAMES.getOrDefault(first, first.toUpperCase(Locale.ROOT))));
    }

    private SqlVerdict query(String sql, List<MySqlToken> all, List<MySqlToken> code, int from, StatementKind kind)
            throws Refused {
        Statement statement;
        try {
            statement = MySqlParsing.parse(MySqlTokenChecks.forParser(sql, all, code.get(from).start()),
                    code.subList(from, code.size()),
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

    private String notAllowed(String name) {
        return name + " statements are not allowed on this source; only SELECT (with WITH and VALUES)"
                + (allowed.contains(StatementKind.EXPLAIN) ? ", SHOW, DESCRIBE and EXPLAIN are" : " is");
    }
}
