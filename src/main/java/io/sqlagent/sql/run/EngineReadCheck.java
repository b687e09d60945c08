package io.sqlagent.sql.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.StatementReads;
import io.sqlagent.sql.guard.SqlVerdict;
import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.tool.ToolRefusedException;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * The table policy and hidden columns on what a statement on a source of another engine than PostgreSQL reads
 * ({@link Engine#reads()}), before it runs: a table or view the policy refuses, also one read through a view, is
 * refused by name; a hidden column is refused when the statement or a view it reads names it, or when the statement
 * reads whole rows ({@code *}, {@code t.*}, a natural join) of its table; a view whose reads cannot be known (its
 * definition hidden from the source's account, a stored function in it) is refused while a policy is configured.
 * An unqualified entry of the policy ({@code customer}, {@code customer.email}) means a table of the source's own
 * database, as it means one of PostgreSQL's {@code public} schema.
 */
@ApplicationScoped
class EngineReadCheck {

    private final TablePolicy tables;
    private final ColumnPolicy columns;

    EngineReadCheck(TablePolicy tables, ColumnPolicy columns) {
        this.tables = tables;
        this.columns = columns;
    }

    /** Whether reads are checked: when a table policy or hidden columns are configured. */
    boolean needed() {
        return tables.restricts() || columns.restricts();
    }

    /** Refuses {@code sql} when what it reads is outside the policy; nothing when no policy is configured. */
    Uni<Void> check(SqlConnection connection, Engine engine, String sql, SqlVerdict verdict) {
        if (!needed()) {
            return Uni.createFrom().voidItem();
        }
        return engine.reads().of(connection, sql, verdict.tables()).invoke(this::refuseOutsideThePolicy).replaceWithVoid();
    }

    void refuseOutsideThePolicy(StatementReads.Reads reads) {
        Set<String> refusedTables = new TreeSet<>();
        Set<String> refusedViews = new TreeSet<>();
        Set<String> refusedColumns = new TreeSet<>();
        List<String> why = new ArrayList<>();
        for (StatementReads.Relation relation : reads.relations()) {
            List<String> names = names(reads.defaultSchema(), relation);
            String shown = shown(reads.defaultSchema(), relation.schema(), relation.name());
            if (!tables.permitsRelation(names.get(0), names.subList(1, names.size()))) {
                refusedTables.add(shown);
                continue;
            }
            relation.unchecked().ifPresent(reason -> {
                refusedViews.add("View " + shown + " cannot be checked against the table policy and hidden columns: "
                        + reason);
            });
            Set<String> hidden = columns.hidden(names, relation.columns());
            for (String column : hidden) {
                boolean named = reads.named().contains(column.toLowerCase(Locale.ROOT));
                if (named || reads.wholeRows().isPresent()) {
                    refusedColumns.add(shown + "." + column);
                    String through = relation.through().map(view -> " (read through view "
                            + shown(reads.defaultSchema(), view.substring(0, view.indexOf('.')),
                                    view.substring(view.indexOf('.') + 1))
                            + ")").orElse("");
                    if (!named) {
                        why.add(reads.wholeRows().get() + " reads every column of " + shown + through);
                    } else if (!through.isEmpty()) {
                        why.add(shown + "." + column + through);
                    }
                }
            }
        }
        if (!refusedTables.isEmpty()) {
            throw new ToolRefusedException(TablePolicy.refusalOf(refusedTables));
        }
        if (!refusedViews.isEmpty()) {
            throw new ToolRefusedException(String.join("; ", refusedViews)
                    + "; query the tables it reads instead");
        }
        if (!refusedColumns.isEmpty()) {
            throw new ToolRefusedException((refusedColumns.size() == 1 ? "Column " : "Columns ")
                    + String.join(", ", refusedColumns) + (refusedColumns.size() == 1 ? " is" : " are")
                    + " hidden and cannot be read, also not through *, t.*, a natural join, a view or a condition"
                    + (why.isEmpty() ? "" : " (" + String.join("; ", new TreeSet<>(why)) + ")")
                    + "; name the columns you need and leave the hidden ones out");
        }
    }

    /** The names the policy knows a relation by: {@code schema.name}, and {@code public.name} in the source's database. */
    private static List<String> names(String defaultSchema, StatementReads.Relation relation) {
        List<String> names = new ArrayList<>();
        names.add(relation.schema() + "." + relation.name());
        if (relation.schema().equalsIgnoreCase(defaultSchema)) {
            names.add("public." + relation.name());
        }
        return names;
    }

    private static String shown(String defaultSchema, String schema, String name) {
        return schema.equalsIgnoreCase(defaultSchema) ? name : schema + "." + name;
    }
}
