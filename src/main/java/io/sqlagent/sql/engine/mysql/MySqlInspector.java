package io.sqlagent.sql.engine.mysql;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Walks every node of a parsed MySQL query by reflection (so every subquery, derived table, CTE and
 * argument is reached by construction, also in node types a later JSqlParser adds) and reports the
 * tables it names, the functions it calls and the first thing that is not allowed: a statement
 * inside the query, {@code SELECT … INTO}, a locking clause, a closed table or a function off the
 * allow-list.
 */
final class MySqlInspector {

    /** What the walk found. */
    record Inspection(Set<String> tables, Set<String> functions, Optional<String> problem) {
    }

    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && isSyntax(c); c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isTransient(field.getModifiers())) {
                        field.setAccessible(true);
                        fields.add(field);
                    }
                }
            }
            return List.copyOf(fields);
        }
    };

    // Syntax JSqlParser models as a call.
    private static final Set<String> NOT_FUNCTIONS = Set.of("any", "some", "all", "row", "exists");

    private final Set<String> tables = new TreeSet<>();
    private final Set<String> functions = new TreeSet<>();
    private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Deque<Object> pending = new ArrayDeque<>();
    private String problem;

    private MySqlInspector() {
    }

    static Inspection inspect(Statement root) {
        MySqlInspector inspector = new MySqlInspector();
        inspector.pending.push(root);
        while (!inspector.pending.isEmpty()) {
            inspector.visit(inspector.pending.pop());
        }
        return new Inspection(inspector.tables, inspector.functions, Optional.ofNullable(inspector.problem));
    }

    private static boolean isSyntax(Class<?> type) {
        String name = type.getName();
        return name.startsWith("net.sf.jsqlparser.") && !name.startsWith("net.sf.jsqlparser.parser.") && !type.isEnum();
    }

    private static boolean isLeaf(Object node) {
        return node instanceof CharSequence || node instanceof Number || node instanceof Boolean
                || node instanceof Character || node instanceof Enum<?>
                || node.getClass().getName().startsWith("net.sf.jsqlparser.parser.");
    }

    private void visit(Object node) {
        if (node == null || isLeaf(node) || !seen.add(node)) {
            return;
        }
        if (node instanceof Iterable<?> items) {
            items.forEach(this::push);
            return;
        }
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> {
                push(key);
                push(value);
            });
            return;
        }
        if (node instanceof Map.Entry<?, ?> entry) {
            push(entry.getKey());
            push(entry.getValue());
            return;
        }
        if (node instanceof Object[] array) {
            for (Object item : array) {
                push(item);
            }
            return;
        }
        if (node instanceof Optional<?> optional) {
            optional.ifPresent(this::push);
            return;
        }
        if (!isSyntax(node.getClass())) {
            // A holder this walk does not know could hide a subquery: refuse rather than skip it.
            throw new IllegalStateException("Cannot inspect " + node.getClass().getName());
        }
        examine(node);
        for (Field field : FIELDS.get(node.getClass())) {
            // A column's or t.*'s table is a qualifier, not a table read.
            boolean qualifier = (node instanceof Column || node instanceof AllTableColumns)
                    && field.getName().equals("table");
            if (!qualifier) {
                push(read(field, node));
            }
        }
    }

    private void push(Object node) {
        if (node != null) {
            pending.push(node);
        }
    }

    private static Object read(Field field, Object node) {
        try {
            return field.get(node);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot read " + field, e);
        }
    }

    private void examine(Object node) {
        if (node instanceof Table table) {
            addTable(table);
        } else if (node instanceof Function function) {
            List<String> parts = function.getMultipartName();
            String name = parts == null || parts.isEmpty() ? function.getName() : parts.get(parts.size() - 1);
            addFunction(name, parts != null && parts.size() > 1);
        } else if (node instanceof AnalyticExpression analytic) {
            addFunction(analytic.getName(), false);
        } else if (node instanceof Statement && !(node instanceof Select)) {
            report("Only queries are allowed; found " + node.getClass().getSimpleName().toUpperCase() + " inside one");
        }
        if (node instanceof PlainSelect plain && plain.getIntoTables() != null && !plain.getIntoTables().isEmpty()) {
            report("SELECT … INTO is not allowed: it writes a file on the server or variables");
        }
        if (node instanceof Select select && select.getForMode() != null) {
            report("Locking clauses (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE) are not allowed");
        }
    }

    private void addTable(Table table) {
        String name = ClosedRelations.fold(table.getName());
        if (name.isEmpty()) {
            return;
        }
        // db.tbl in MySQL: JSqlParser keeps db as the schema (a three-part name is refused by the server).
        String schema = ClosedRelations.fold(table.getSchemaName());
        tables.add(schema.isEmpty() ? name : schema + "." + name);
        ClosedRelations.table(schema, name).ifPresent(this::report);
    }

    private void addFunction(String rawName, boolean qualified) {
        if (rawName == null || rawName.isEmpty()) {
            return;
        }
        String name = ClosedRelations.fold(rawName);
        if (NOT_FUNCTIONS.contains(name)) {
            return;
        }
        functions.add(name);
        if (qualified) {
            // db.f(): a stored function, whose statements no check sees.
            report("Function " + rawName + " is not allowed: stored functions run statements of their own");
            return;
        }
        MySqlFunctions.refusal(name).ifPresent(reason -> report("Function " + name + " is not allowed: " + reason));
    }

    private void report(String reason) {
        if (problem == null) {
            problem = reason;
        }
    }
}
