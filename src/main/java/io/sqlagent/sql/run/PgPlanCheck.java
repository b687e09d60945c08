package io.sqlagent.sql.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.sql.engine.Pipelined;
import io.sqlagent.sql.guard.PlanReferences;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.tool.ToolRefusedException;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;

/**
 * The table policy and hidden columns on what a statement reads, from PostgreSQL's plan: a statement that would read
 * a refused table or a hidden column, or call a function whose reads the plan cannot show, is refused before it runs.
 * PostgreSQL's own plan has every relation and column resolved (through {@code TABLE}, {@code *}, the search path,
 * views, inheritance and partitions, joins, whole-row references), so no spelling of the SQL can hide a read from
 * this check. An EXPLAIN statement is checked by the statement it explains.
 */
@ApplicationScoped
class PgPlanCheck {

    /** The plan of a statement whose parameters are bound. */
    static final String EXPLAIN = "EXPLAIN (VERBOSE, FORMAT JSON) ";
    /** The plan of a statement for any values of its parameters (PostgreSQL 16 and later). */
    static final String EXPLAIN_GENERIC = "EXPLAIN (GENERIC_PLAN, VERBOSE, FORMAT JSON) ";

    /**
     * For each relation the plan scans ($1, $2) or names as a {@code regclass} constant ($3): its columns, and the
     * tables it inherits from or is a partition of, up to the top (a child of a denied table is denied, and hidden
     * columns of a parent are hidden in its children).
     */
    private static final String SCANNED_RELATIONS = """
            WITH RECURSIVE relations AS (
                SELECT c.oid FROM unnest($1::text[], $2::text[]) AS s(nsp, rel)
                JOIN pg_namespace n ON n.nspname = s.nsp
                JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = s.rel
                UNION
                SELECT to_regclass(r)::oid FROM unnest($3::text[]) AS r WHERE to_regclass(r) IS NOT NULL
            ), up(child, parent) AS (
                SELECT r.oid, i.inhparent FROM relations r JOIN pg_inherits i ON i.inhrelid = r.oid
                UNION
                SELECT up.child, i.inhparent FROM up JOIN pg_inherits i ON i.inhrelid = up.parent
            )
            SELECT n.nspname::text AS nsp, c.relname::text AS rel,
                   ARRAY(SELECT a.attname::text FROM pg_attribute a
                         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
                   ARRAY(SELECT pn.nspname || '.' || pc.relname FROM up
                         JOIN pg_class pc ON pc.oid = up.parent JOIN pg_namespace pn ON pn.oid = pc.relnamespace
                         WHERE up.child = c.oid) AS ancestors
            FROM relations r JOIN pg_class c ON c.oid = r.oid JOIN pg_namespace n ON n.oid = c.relnamespace""";

    /**
     * Of the functions the plan calls ($1), the operators it applies ($2) and the types it casts to ($3), the
     * functions written in a procedural language (SQL, PL/pgSQL, ...) outside the system catalogs: what they read
     * runs inside them, where the plan does not show it. The built-in functions that run a query given as text are
     * refused by the guard ({@code DeniedFunctions}).
     */
    private static final String OPAQUE_FUNCTIONS = """
            SELECT DISTINCT p.proname::text AS name FROM pg_proc p
            JOIN pg_language l ON l.oid = p.prolang JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE l.lanname NOT IN ('internal', 'c') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
              AND (p.proname = ANY($1::text[])
                   OR p.oid IN (SELECT o.oprcode FROM pg_operator o WHERE o.oprname = ANY($2::text[]))
                   OR p.oid IN (SELECT k.castfunc FROM pg_cast k JOIN pg_type t ON t.oid = k.casttarget
                                WHERE t.typname = ANY($3::text[])))
            ORDER BY 1""";

    private final ColumnPolicy columns;
    private final TablePolicy tables;

    PgPlanCheck(ColumnPolicy columns, TablePolicy tables) {
        this.columns = columns;
        this.tables = tables;
    }

    /** Whether statements' plans are read before they run: when a table policy or hidden columns are configured. */
    boolean needed() {
        return columns.restricts() || tables.checksPlans();
    }

    /** {@link #check} with {@link #EXPLAIN} when {@link #needed}; else nothing. */
    Uni<Void> checkIfNeeded(SqlConnection connection, String sql, Tuple params) {
        return needed() ? check(connection, sql, EXPLAIN, params) : Uni.createFrom().voidItem();
    }

    /**
     * Refuses the statement when its plan ({@code explain} of it, {@code params} bound; {@code null}: unbound) reads a
     * table the policy refuses or a hidden column, or calls a function whose reads the plan cannot show.
     */
    Uni<Void> check(SqlConnection connection, String sql, String explain, Tuple params) {
        int start = SqlGuard.explainedStatementStart(sql).orElse(0);
        String query = sql.substring(start);
        // Unbound parameters ($1 with no value, GENERIC_PLAN) go by the simple protocol: the extended one wants their
        // values. Only for a single statement (see QueryRunner.checkPolicyUnbound), so nothing but the EXPLAIN runs.
        Uni<RowSet<Row>> explained = params == null ? connection.query(explain + query).execute()
                : connection.preparedQuery(explain + query).execute(params);
        return explained
                .onFailure(PgException.class)
                .transform(failure -> PgErrorTranslator.translate((PgException) failure, sql, start - explain.length()))
                .map(rows -> readPlan(rows))
                .flatMap(plan -> refuseOutsideThePolicy(connection, plan));
    }

    /**
     * Looks up what the plan reads and calls (both questions sent together, one round trip) and refuses, in this
     * order, tables outside the policy, functions whose reads cannot be checked, and hidden columns.
     */
    private Uni<Void> refuseOutsideThePolicy(SqlConnection connection, PlanReferences plan) {
        String[] schemas = plan.scans().stream().map(PlanReferences.Scan::schema).toArray(String[]::new);
        String[] names = plan.scans().stream().map(PlanReferences.Scan::relation).toArray(String[]::new);
        Uni<RowSet<Row>> relations = connection.preparedQuery(SCANNED_RELATIONS)
                .execute(Tuple.of(schemas, names, plan.regclasses().toArray(String[]::new)));
        Uni<RowSet<Row>> opaque = connection.preparedQuery(OPAQUE_FUNCTIONS).execute(Tuple.of(
                plan.functions().toArray(String[]::new), plan.operators().toArray(String[]::new),
                plan.names().toArray(String[]::new)));
        return Pipelined.bothAnswered(relations, opaque).map(both -> {
            refuseTables(both.getItem1());
            refuseOpaqueFunctions(both.getItem2());
            refuseHiddenReads(plan, both.getItem1());
            return null;
        });
    }

    private void refuseTables(RowSet<Row> relations) {
        Set<String> refused = new TreeSet<>();
        for (Row relation : relations) {
            String schema = relation.getString("nsp");
            String name = relation.getString("rel");
            if (!tables.permitsRelation(schema + "." + name, List.of(relation.getArrayOfStrings("ancestors")))) {
                refused.add(schema.equals("public") ? name : schema + "." + name);
            }
        }
        if (!refused.isEmpty()) {
            throw new ToolRefusedException(TablePolicy.refusalOf(refused));
        }
    }

    private static void refuseOpaqueFunctions(RowSet<Row> functions) {
        Set<String> names = new TreeSet<>();
        functions.forEach(row -> names.add(row.getString("name")));
        if (!names.isEmpty()) {
            throw new ToolRefusedException((names.size() == 1 ? "Function " : "Functions ") + String.join(", ", names)
                    + (names.size() == 1 ? " is" : " are") + " written in SQL or a procedural language: what "
                    + (names.size() == 1 ? "it reads" : "they read")
                    + " runs inside, where the table policy and hidden columns cannot be checked, so "
                    + (names.size() == 1 ? "it is" : "they are") + " not available to the agent");
        }
    }

    private void refuseHiddenReads(PlanReferences plan, RowSet<Row> relations) {
        if (!columns.restricts()) {
            return;
        }
        Set<String> refused = new TreeSet<>();
        for (Row relation : relations) {
            String schema = relation.getString("nsp");
            String name = relation.getString("rel");
            List<String> effective = new ArrayList<>(List.of(relation.getArrayOfStrings("ancestors")));
            effective.add(schema + "." + name);
            Set<String> hidden = columns.hidden(effective, List.of(relation.getArrayOfStrings("columns")));
            if (hidden.isEmpty()) {
                continue;
            }
            String shown = schema.equals("public") ? name : schema + "." + name;
            for (PlanReferences.Scan scan : plan.scans()) {
                if (scan.schema().equals(schema) && scan.relation().equals(name)) {
                    for (String column : plan.columnsOf(scan.alias())) {
                        if (hidden.contains(column)) {
                            refused.add(shown + "." + column);
                        }
                    }
                    if (plan.readsWholeRow(scan.alias())) {
                        hidden.forEach(column -> refused.add(shown + "." + column));
                    }
                }
            }
        }
        if (!refused.isEmpty()) {
            throw new ToolRefusedException((refused.size() == 1 ? "Column " : "Columns ") + String.join(", ", refused)
                    + (refused.size() == 1 ? " is" : " are") + " hidden and cannot be read, also not through *, "
                    + "a whole-row reference such as row_to_json(t), a view or a condition; name the columns you need "
                    + "and leave the hidden ones out");
        }
    }

    private static PlanReferences readPlan(RowSet<Row> rows) {
        try {
            return PlanReferences.of(plan(rows));
        } catch (IllegalArgumentException e) {
            Log.warnf("A plan could not be checked against the table policy: %s", e.getMessage());
            throw new ToolRefusedException(
                    "The statement could not be checked against the table policy and hidden columns; write it more simply");
        }
    }

    private static JsonNode plan(RowSet<Row> rows) {
        Object value = rows.iterator().next().getValue(0);
        String json = value instanceof JsonArray array ? array.encode() : String.valueOf(value);
        try {
            return SnakeCaseJson.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("PostgreSQL's plan could not be read", e);
        }
    }
}
