package io.sqlagent.sql.policy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.guard.SqlVerdict;

/**
 * Which tables and views the SQL tools may use ({@code sqlagent.sql.allowed-tables} and
 * {@code denied-tables}), applied by {@code run_sql} and declared tools to every table a statement names and to every
 * relation its plan reads ({@code run.PgPlanCheck}), and by {@code introspect_schema} to what it lists and describes. The
 * system
 * catalogs stay readable
 * (the agent needs them to explore) except the planner statistics, which hold sampled column
 * values and so would leak data from tables the policy hides (or from hidden columns).
 */
@ApplicationScoped
public class TablePolicy {

    private static final Set<String> STATISTICS = Set.of("pg_catalog.pg_statistic", "pg_catalog.pg_stats",
            "pg_catalog.pg_stats_ext", "pg_catalog.pg_stats_ext_exprs", "pg_catalog.pg_statistic_ext_data",
            // MySQL's histograms hold sampled values; InnoDB's full-text tables hold the indexed words.
            "information_schema.column_statistics", "information_schema.innodb_ft_index_table",
            "information_schema.innodb_ft_index_cache");

    private final Optional<Set<String>> allowed;
    private final Set<String> denied;
    private final boolean hidesColumns;

    @Inject
    TablePolicy(SqlConfig config, ColumnPolicy columns) {
        this(config.allowedTables(), config.deniedTables(), columns.restricts());
    }

    /** A policy from explicit lists, for tests. */
    public TablePolicy(Optional<List<String>> allowed, Optional<List<String>> denied) {
        this(allowed, denied, false);
    }

    /** A policy from explicit lists; {@code hidesColumns} when some columns are hidden, which closes the statistics too. */
    public TablePolicy(Optional<List<String>> allowed, Optional<List<String>> denied, boolean hidesColumns) {
        this.allowed = allowed.map(TablePolicy::normalised);
        this.denied = denied.map(TablePolicy::normalised).orElse(Set.of());
        this.hidesColumns = hidesColumns;
    }

    /** Whether any restriction is configured. */
    public boolean restricts() {
        return allowed.isPresent() || !denied.isEmpty();
    }

    /**
     * Whether statements' plans must be read before they run ({@code run.PgPlanCheck}): when tables are restricted, or
     * columns hidden (which closes the planner statistics).
     */
    public boolean checksPlans() {
        return restricts() || hidesColumns;
    }

    /**
     * Whether a relation a plan reads may be read: {@code relation} as {@code schema.name}, {@code ancestors} the
     * tables it inherits from or is a partition of, up to the top. A child or partition of a denied table is denied,
     * one of an allowed table allowed.
     */
    public boolean permitsRelation(String relation, Collection<String> ancestors) {
        List<String> names = new ArrayList<>(ancestors);
        names.add(relation);
        if (names.stream().anyMatch(name -> matches(denied, qualified(name)))) {
            return false;
        }
        return names.stream().anyMatch(this::permits);
    }

    /**
     * Whether a relation known by every one of {@code names} ({@code schema.name}; a table of a MySQL source's own
     * database is also {@code public.name}) may be used: none of them denied, one of them permitted.
     */
    public boolean permitsNames(List<String> names) {
        return permitsRelation(names.get(0), names.subList(1, names.size()));
    }

    /** Whether a table, named as in SQL ({@code t} or {@code schema.t}), may be used. */
    public boolean permits(String table) {
        String name = qualified(table);
        if (matches(denied, name)) {
            return false;
        }
        if (isCatalog(name)) {
            return !((restricts() || hidesColumns) && STATISTICS.contains(name));
        }
        return allowed.map(set -> matches(set, name)).orElse(true);
    }

    /** The tables of {@code tables} that may not be used, sorted. */
    public Set<String> refused(Set<String> tables) {
        Set<String> refused = new TreeSet<>();
        for (String table : tables) {
            if (!permits(table)) {
                refused.add(table);
            }
        }
        return refused;
    }

    /** Why a statement reading {@code tables} may not run, naming the tables the policy refuses; empty when it may. */
    public Optional<String> refusal(Set<String> tables) {
        Set<String> refused = refused(tables);
        return refused.isEmpty() ? Optional.empty() : Optional.of(refusalOf(refused));
    }

    /**
     * Why a statement the guard has judged may not run, or empty when it may: a table it names that the policy refuses
     * comes first, even when the guard refuses the statement for something else (that is the reason to act on), then
     * the guard's own reason. {@code run_sql} and an evaluation's golden SQL both ask this, so they refuse the same
     * statements in the same words; what only the plan can tell is {@code run.PgPlanCheck}'s to refuse.
     */
    public Optional<String> refusal(SqlVerdict verdict) {
        Optional<String> byName = refusal(verdict.tables());
        if (byName.isPresent() || verdict.allowed()) {
            return byName;
        }
        return Optional.of(verdict.reason());
    }

    /** The refusal of a statement that reads {@code refused}, tables the policy refuses (sorted, not empty). */
    public static String refusalOf(Set<String> refused) {
        return (refused.size() == 1 ? "Table " : "Tables ") + String.join(", ", refused)
                + (refused.size() == 1 ? " is" : " are")
                + " not available to the agent; use introspect_schema to see the tables it may query";
    }

    private static boolean matches(Set<String> patterns, String name) {
        return patterns.contains(name) || patterns.contains(name.substring(0, name.indexOf('.') + 1) + "*");
    }

    private static boolean isCatalog(String name) {
        return name.startsWith("pg_catalog.") || name.startsWith("information_schema.");
    }

    /**
     * {@code schema.table}, lower-cased; unqualified {@code pg_*} names resolve to the catalog as PostgreSQL's search path
     * does.
     */
    private static String qualified(String table) {
        String name = table.trim().toLowerCase(Locale.ROOT);
        if (name.contains(".")) {
            return name;
        }
        return (name.startsWith("pg_") ? "pg_catalog." : "public.") + name;
    }

    private static Set<String> normalised(List<String> names) {
        Set<String> set = new TreeSet<>();
        for (String name : names) {
            if (!name.isBlank()) {
                set.add(qualified(name));
            }
        }
        return set;
    }
}
