package io.sqlagent.sql.guard;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a query plan reads, from PostgreSQL's {@code EXPLAIN (VERBOSE, FORMAT JSON)}: every scan of
 * a table (its schema, name and the alias the plan gives it) and every column the plan's
 * expressions take from each alias, including whole-row references ({@code c.*}, which
 * {@code SELECT c} and {@code row_to_json(c)} become). The planner has already resolved
 * {@code SELECT *}, unqualified names, {@code USING} and {@code NATURAL} joins and views, and
 * gives every table reference a distinct alias with every column qualified by it, so this reads
 * the truth rather than guessing it from the SQL text.
 */
public final class PlanReferences {

    /** One scan of a table, materialized view or partition. */
    public record Scan(String schema, String relation, String alias) {
    }

    // Fields that hold names rather than expressions.
    private static final Set<String> NAME_FIELDS = Set.of("Node Type", "Relation Name", "Schema", "Alias", "Index Name",
            "CTE Name", "Function Name", "Subplan Name", "Parent Relationship", "Strategy", "Join Type", "Scan Direction",
            "Partial Mode", "Operation", "Sort Method", "Sort Space Type");

    // Parents that may take a scan's whole physical row and use only some of it; what they use is in their own fields.
    private static final Set<String> PROJECTING_PARENTS = Set.of("Nested Loop", "Hash Join", "Merge Join", "Aggregate",
            "Result", "ProjectSet");

    private final List<Scan> scans = new ArrayList<>();
    private final Map<String, Set<String>> columns = new HashMap<>();
    private final Set<String> wholeRows = new HashSet<>();
    /** Names written without a qualifier: PostgreSQL omits it when the plan has a single table. */
    private final Set<String> bare = new HashSet<>();
    /** Names of the functions the plan calls, operators it applies and relations it names as {@code '…'::regclass}. */
    private final Set<String> functions = new HashSet<>();
    private final Set<String> operators = new HashSet<>();
    private final Set<String> regclasses = new HashSet<>();

    private PlanReferences() {
    }

    /**
     * Reads the JSON of {@code EXPLAIN (VERBOSE, FORMAT JSON)}.
     *
     * @throws IllegalArgumentException when an expression in the plan cannot be read, so that a
     *         caller refuses the statement rather than letting a reference pass unseen
     */
    public static PlanReferences of(JsonNode explained) {
        PlanReferences references = new PlanReferences();
        references.walk(explained, "");
        return references;
    }

    /** The table scans, in plan order. */
    public List<Scan> scans() {
        return List.copyOf(scans);
    }

    /**
     * The columns the plan reads through {@code alias} (names as PostgreSQL spells them). In a plan
     * with a single table scan, names PostgreSQL printed without a qualifier count as well (with
     * keywords and type names among them: the set errs on the side of too many).
     */
    public Set<String> columnsOf(String alias) {
        Set<String> read = new HashSet<>(columns.getOrDefault(alias, Set.of()));
        if (scans.size() == 1 && scans.get(0).alias().equals(alias)) {
            read.addAll(bare);
        }
        return read;
    }

    /** The names of the functions the plan calls (its expressions and function scans), unqualified. */
    public Set<String> functions() {
        return Set.copyOf(functions);
    }

    /** The operators the plan's expressions apply, as written ({@code +}, {@code ~~}, ...). */
    public Set<String> operators() {
        return Set.copyOf(operators);
    }

    /**
     * The names written in the plan's expressions, functions and column names among them: a cast is deparsed as
     * {@code ::type}, so the types the plan casts to are in here too.
     */
    public Set<String> names() {
        Set<String> names = new HashSet<>(bare);
        columns.values().forEach(names::addAll);
        names.addAll(functions);
        return names;
    }

    /** The relations the plan's expressions name as constants of type {@code regclass} ({@code 'x'::regclass}). */
    public Set<String> regclasses() {
        return Set.copyOf(regclasses);
    }

    /** Whether the plan reads the whole row of {@code alias}. */
    public boolean readsWholeRow(String alias) {
        return wholeRows.contains(alias);
    }

    private void walk(JsonNode node, String parentType) {
        if (node.isArray()) {
            node.forEach(item -> walk(item, parentType));
            return;
        }
        if (!node.isObject()) {
            return;
        }
        boolean scan = node.hasNonNull("Relation Name");
        if (scan) {
            scans.add(new Scan(node.path("Schema").asText(""), node.get("Relation Name").asText(),
                    node.path("Alias").asText(node.get("Relation Name").asText())));
        }
        // A scan under a join or aggregate may list every column of the table (a "physical" row
        // that saves a projection) although its parent uses only some: the parent's expressions say
        // which. Anywhere else, what a scan outputs is read: a query's or subquery's result, a set
        // operation's input, rows to sort or to hash.
        String relationship = node.path("Parent Relationship").asText("");
        boolean outputUnused = scan && PROJECTING_PARENTS.contains(parentType)
                && (relationship.equals("Outer") || relationship.equals("Inner"));
        String type = node.path("Node Type").asText(parentType);
        node.fields().forEachRemaining(field -> {
            String name = field.getKey();
            if (name.equals("Function Name") && field.getValue().isTextual()) {
                functions.add(field.getValue().asText());
            }
            if (NAME_FIELDS.contains(name) || (outputUnused && name.equals("Output"))) {
                return;
            }
            JsonNode value = field.getValue();
            if (value.isTextual()) {
                read(value.asText());
            } else if (value.isObject()) {
                walk(value, type);
            } else if (value.isArray()) {
                value.forEach(item -> {
                    if (item.isTextual()) {
                        read(item.asText());
                    } else {
                        walk(item, type);
                    }
                });
            }
        });
    }

    /** Collects every {@code alias.column}, {@code alias.*} and unqualified name of one deparsed expression. */
    private void read(String expression) {
        List<PgToken> tokens;
        try {
            tokens = PgLexer.lex(expression);
        } catch (LexException e) {
            throw new IllegalArgumentException("Cannot read the plan expression " + expression + ": " + e.getMessage());
        }
        for (int i = 0; i < tokens.size(); i++) {
            PgToken token = tokens.get(i);
            if (token.kind() == PgToken.Kind.OPERATOR && (i == 0 || !adjacentOperators(tokens.get(i - 1), token))) {
                // The lexer gives one token per operator character; PostgreSQL's operator is the whole run.
                int end = i;
                while (end + 1 < tokens.size() && adjacentOperators(tokens.get(end), tokens.get(end + 1))) {
                    end++;
                }
                String operator = expression.substring(token.start(), tokens.get(end).end());
                if (!operator.equals("::")) {
                    operators.add(operator);
                }
            }
            if (token.kind() == PgToken.Kind.STRING && i + 3 < tokens.size()
                    && expression.startsWith("::", tokens.get(i + 1).start()) && tokens.get(i + 3).is(expression, "regclass")) {
                String text = token.text(expression);
                regclasses.add(text.substring(1, text.length() - 1).replace("''", "'"));
            }
            if (!isName(token)) {
                continue;
            }
            boolean afterDot = i > 0 && isPunctuation(expression, tokens.get(i - 1), ".");
            boolean beforeDot = i + 1 < tokens.size() && isPunctuation(expression, tokens.get(i + 1), ".");
            boolean call = i + 1 < tokens.size() && isPunctuation(expression, tokens.get(i + 1), "(");
            if (beforeDot && i + 2 < tokens.size()) {
                String alias = unquoted(expression, token);
                PgToken next = tokens.get(i + 2);
                if (isName(next)) {
                    columns.computeIfAbsent(alias, key -> new HashSet<>()).add(unquoted(expression, next));
                } else if (next.kind() == PgToken.Kind.OPERATOR && expression.charAt(next.start()) == '*') {
                    wholeRows.add(alias);
                }
            } else if (call) {
                functions.add(unquoted(expression, token));
            } else if (!afterDot) {
                bare.add(unquoted(expression, token));
            }
        }
    }

    private static boolean adjacentOperators(PgToken first, PgToken second) {
        return first.kind() == PgToken.Kind.OPERATOR && second.kind() == PgToken.Kind.OPERATOR && first.end() == second.start();
    }

    private static boolean isPunctuation(String expression, PgToken token, String text) {
        return token.kind() == PgToken.Kind.PUNCTUATION && token.is(expression, text);
    }

    private static boolean isName(PgToken token) {
        return token.kind() == PgToken.Kind.WORD || token.kind() == PgToken.Kind.QUOTED_IDENTIFIER;
    }

    // The plan spells names as quote_ident does: bare when PostgreSQL would read them back unchanged.
    private static String unquoted(String expression, PgToken token) {
        String text = token.text(expression);
        return token.kind() == PgToken.Kind.QUOTED_IDENTIFIER ? text.substring(1, text.length() - 1).replace("\"\"", "\"")
                : text;
    }
}
