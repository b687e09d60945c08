package io.sqlagent.sql.source;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkus.logging.Log;
import io.quarkus.runtime.Startup;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.Guarantee;
import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;

/**
 * Refuses at start a configuration that needs a guarantee a source's engine cannot give
 * ({@link Guarantee.Support#REFUSED_AT_START}), and says at start which guarantees it gives otherwise than
 * PostgreSQL, so no source runs silently weaker. No engine refuses anything today (MySQL and MariaDB take a caller's
 * role per call and drop it before the connection is reused, {@code run.EngineStatements}). An engine that cannot check what a
 * statement reads would refuse a table policy ({@code sqlagent.sql.allowed-tables}, {@code denied-tables}) or hidden
 * columns ({@code hidden-columns}) here too; MySQL and MariaDB check them ({@code run.EngineReadCheck}).
 * The table in docs/engines.md lists each engine's guarantees.
 */
@Singleton
@Startup
public class EngineGuarantees {

    @Inject
    EngineGuarantees(SourcesConfig sources, TablePolicy tables, ColumnPolicy columns) {
        Map<String, Engine> engines = new java.util.TreeMap<>();
        sources.all().forEach((name, settings) -> {
            try {
                engines.put(name, Engines.forUrl(settings.url()));
            } catch (IllegalArgumentException e) {
                // A URL that names no engine makes its source misconfigured (SourceRegistry says so): nothing to check.
            }
        });
        List<String> problems = problems(engines, tables.restricts(), columns.restricts(),
                name -> sources.all().get(name).roleClaim().isPresent());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("The configuration needs guarantees a source's engine cannot give "
                    + "(docs/engines.md, guarantees per engine): " + String.join("; ", problems));
        }
        engines.forEach((name, engine) -> warnings(name, engine).forEach(Log::warn));
    }

    /** What stops the start, one line per source and setting. */
    static List<String> problems(Map<String, Engine> engines, boolean tablePolicy, boolean hiddenColumns,
            java.util.function.Predicate<String> mapsRoles) {
        List<String> problems = new ArrayList<>();
        engines.forEach((name, engine) -> {
            String kind = Engines.displayName(engine);
            if (tablePolicy && refused(engine, Guarantee.TABLE_POLICY_ON_PLAN)) {
                problems.add("source '" + name + "' is " + kind + ", whose statements' reads are not checked against the "
                        + "table policy (sqlagent.sql.allowed-tables, sqlagent.sql.denied-tables): remove the policy or the source");
            }
            if (hiddenColumns && refused(engine, Guarantee.HIDDEN_COLUMNS)) {
                problems.add("source '" + name + "' is " + kind + ", whose statements' reads are not checked against "
                        + "sqlagent.sql.hidden-columns: remove the hidden columns or the source");
            }
            if (mapsRoles.test(name) && refused(engine, Guarantee.CALLER_ROLE)) {
                problems.add("source '" + name + "' is " + kind + ", which cannot take on a caller's role for one "
                        + "transaction only: unset sqlagent.sources." + name + ".role-claim");
            }
        });
        return problems;
    }

    /** The guarantees the engine gives otherwise than PostgreSQL, said at start (and never silently). */
    static List<String> warnings(String name, Engine engine) {
        List<String> lines = new ArrayList<>();
        engine.guarantees().forEach((guarantee, support) -> {
            if (support == Guarantee.Support.WARNED || support == Guarantee.Support.NOT_YET) {
                lines.add("Source '" + name + "' (" + Engines.displayName(engine) + "): " + describe(guarantee)
                        + (support == Guarantee.Support.NOT_YET ? " is not built for this engine yet" : " does not hold")
                        + " (docs/engines.md)");
            }
        });
        return lines;
    }

    private static boolean refused(Engine engine, Guarantee guarantee) {
        return engine.guarantees().get(guarantee) == Guarantee.Support.REFUSED_AT_START;
    }

    private static String describe(Guarantee guarantee) {
        return switch (guarantee) {
            case EXACT_VALUES -> "exact values (decimal digits, dates, unsigned 64-bit, binary as hex)";
            default -> guarantee.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        };
    }
}
