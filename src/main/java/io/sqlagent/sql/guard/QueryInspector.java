package io.sqlagent.sql.guard;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Walks every node of a parsed query and reports what it reads (tables, functions) and the first
 * thing in it that is not allowed: a data-modifying statement, {@code SELECT INTO}, a locking
 * clause or a denied function. The walk follows the syntax tree's fields by reflection rather than
 * JSqlParser's visitors, so it reaches every subquery, CTE, cast and argument by construction, also
 * in node types added by a later JSqlParser, instead of only those a visitor remembered.
 */
final class QueryInspector {

    /** What the walk found; {@code problem} is the refusal reason, if any. */
    record Inspection(Set<String> tables, Set<String> functions, Optional<String> problem) {
    }

    /** Kinds of problem, most serious first; the most serious one found is reported. */
    private enum Problem {
        DATA_MODIFYING,
        SELECT_INTO,
        LOCKING,
        FUNCTION
    }

    /** The WITH names a table reference here would mean, and whether the walk is inside a WITH item. */
    private record Scope(Set<String> ctes, boolean insideWith) {
    }

    private record Pending(Object node, Scope scope) {
    }

    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && isSyntaxClass(c); c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    // Static fields are constants; transient ones link back into the parser's own tree.
                    if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isTransient(field.getModifiers())) {
                        field.setAccessible(true);
                        fields.add(field);
                    }
                }
            }
            return List.copyOf(fields);
        }
    };

    // Syntax that JSqlParser models as a call: = ANY(…), ROW(…), ARRAY(subquery).
    private static final Set<String> NOT_FUNCTIONS = Set.of("any", "some", "all", "row", "array");

    private final DeniedFunctions denied;
    private final Set<String> tables = new TreeSet<>();
    private final Set<String> functions = new TreeSet<>();
    private final String[] problems = new String[Problem.values().length];
    private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    // An explicit stack: a + b + c + … nests thousands deep and would overflow the call stack.
    private final Deque<Pending> pending = new ArrayDeque<>();

    private QueryInspector(DeniedFunctions denied) {
        this.denied = denied;
    }

    static Inspection inspect(Statement root, DeniedFunctions denied) {
        QueryInspector inspector = new QueryInspector(denied);
        inspector.pending.push(new Pending(root, new Scope(Set.of(), false)));
        while (!inspector.pending.isEmpty()) {
            Pending next = inspector.pending.pop();
            inspector.visit(next.node(), next.scope());
        }
        Optional<String> problem = Optional.empty();
        for (String found : inspector.problems) {
            if (found != null) {
                problem = Optional.of(found);
                break;
            }
        }
        return new Inspection(inspector.tables, inspector.functions, problem);
    }

    /** Values that hold no syntax: names, numbers, flags, and the parser's own bookkeeping. */
    private static boolean isLeaf(Object node) {
        return node instanceof CharSequence || node instanceof Number || node instanceof Boolean
                || node instanceof Character || node instanceof Enum<?>
                || node.getClass().getName().startsWith("net.sf.jsqlparser.parser.");
    }

    private static boolean isSyntaxClass(Class<?> type) {
        String name = type.getName();
        return name.startsWith("net.sf.jsqlparser.") && !name.startsWith("net.sf.jsqlparser.parser.")
                && !type.isEnum();
    }

    private void visit(Object node, Scope scope) {
        if (node == null || isLeaf(node) || !seen.add(node)) {
            return;
        }
        if (node instanceof Iterable<?> items) {
            items.forEach(item -> push(item, scope));
        } else if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> {
                push(key, scope);
                push(value, scope);
            });
        } else if (node instanceof Map.Entry<?, ?> entry) {
            // JSqlParser keeps the operands of ->, #> and array slices as map entries.
            push(entry.getKey(), scope);
            push(entry.getValue(), scope);
        } else if (node instanceof Object[] array) {
            for (Object item : array) {
                push(item, scope);
            }
        } else if (node instanceof Optional<?> optional) {
            optional.ifPresent(value -> push(value, scope));
        } else if (!isSyntaxClass(node.getClass())) {
            // A holder this walk does not know could hide a subquery: refuse rather than skip it.
            throw new IllegalStateException("Cannot inspect " + node.getClass().getName());
        }
        if (!isSyntaxClass(node.getClass())) {
            return;
        }
        examine(node, scope);
        Scope inner = node instanceof WithItem<?> ? new Scope(scope.ctes(), true) : scope;
        if (node instanceof Select select && select.getWithItemsList() != null) {
            inner = pushWithItems(select.getWithItemsList(), scope);
        }
        for (Field field : FIELDS.get(node.getClass())) {
            if (!skipped(node, field)) {
                push(read(field, node), inner);
            }
        }
    }

    private void push(Object node, Scope scope) {
        if (node != null) {
            pending.push(new Pending(node, scope));
        }
    }

    private static Object read(Field field, Object node) {
        try {
            return field.get(node);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot read " + field, e);
        }
    }

    // The WITH list is walked with its own scopes; a column's or t.*'s table is a qualifier, not a table read.
    private static boolean skipped(Object node, Field field) {
        return (node instanceof Select && field.getName().equals("withItemsList"))
                || ((node instanceof Column || node instanceof AllTableColumns) && field.getName().equals("table"));
    }

    /**
     * Queues the WITH items, each seeing the names before it (all of them under RECURSIVE), and
     * returns the scope of the query body, which sees them all.
     */
    private Scope pushWithItems(List<WithItem<?>> items, Scope outer) {
        List<String> names = new ArrayList<>();
        boolean recursive = false;
        for (WithItem<?> item : items) {
            names.add(Identifiers.fold(item.getAliasName()));
            recursive |= item.isRecursive();
        }
        Set<String> all = union(outer.ctes(), names);
        for (int i = 0; i < items.size(); i++) {
            Set<String> visible = recursive ? all : union(outer.ctes(), names.subList(0, i));
            push(items.get(i), new Scope(visible, outer.insideWith()));
        }
        return new Scope(all, outer.insideWith());
    }

    private static Set<String> union(Set<String> a, List<String> b) {
        Set<String> union = new HashSet<>(a);
        union.addAll(b);
        return union;
    }

    private void examine(Object node, Scope scope) {
        if (node instanceof Table table) {
            addTable(table, scope);
        } else if (node instanceof Function function) {
            List<String> parts = function.getMultipartName();
            addFunction(parts == null || parts.isEmpty() ? function.getName() : parts.get(parts.size() - 1));
        } else if (node instanceof AnalyticExpression analytic) {
            addFunction(analytic.getName());
        } else if (node instanceof NextValExpression) {
            addFunction("nextval");
        } else if (node instanceof Statement && !(node instanceof Select)) {
            String name = Identifiers.statementName(node);
            report(Problem.DATA_MODIFYING, scope.insideWith()
                    ? "Data-modifying WITH clauses are not allowed (" + name + " inside WITH)"
                    : "Data-modifying statements are not allowed inside a query (" + name + ")");
        }
        if (node instanceof PlainSelect plain && ((plain.getIntoTables() != null && !plain.getIntoTables().isEmpty())
                || plain.getIntoTempTable() != null)) {
            report(Problem.SELECT_INTO, "SELECT INTO is not allowed; it creates a table");
        }
        if (node instanceof Select select && select.getForMode() != null) {
            report(Problem.LOCKING, "Locking clauses (FOR " + select.getForMode().getValue().toUpperCase(Locale.ROOT)
                    + ") are not allowed");
        }
    }

    private void addTable(Table table, Scope scope) {
        if ("table".equalsIgnoreCase(table.getName()) && table.getSchemaName() == null) {
            // JSqlParser reads (TABLE x) t as a table named TABLE: the keyword (a table of that name must be quoted).
            // The guard takes x from PostgreSQL's tokens instead.
            return;
        }
        List<String> parts = new ArrayList<>();
        // database.schema.table: PostgreSQL takes only the current database there (any other is an
        // error), so the table is schema.table, the name the table policy knows it by.
        for (String part : new String[] { table.getSchemaName(), table.getName() }) {
            if (part != null && !part.isEmpty()) {
                parts.add(Identifiers.fold(part));
            }
        }
        if (parts.isEmpty() || (parts.size() == 1 && scope.ctes().contains(parts.get(0)))) {
            return;
        }
        tables.add(String.join(".", parts));
    }

    private void addFunction(String rawName) {
        if (rawName == null || rawName.isEmpty()) {
            return;
        }
        String name = Identifiers.fold(rawName).toLowerCase(Locale.ROOT);
        if (!NOT_FUNCTIONS.contains(name)) {
            functions.add(name);
        }
        denied.reasonFor(name).ifPresent(reason -> report(Problem.FUNCTION,
                "Function " + name + " is not allowed: " + reason));
    }

    private void report(Problem problem, String reason) {
        if (problems[problem.ordinal()] == null) {
            problems[problem.ordinal()] = reason;
        }
    }
}
