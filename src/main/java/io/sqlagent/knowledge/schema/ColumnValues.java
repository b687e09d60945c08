package io.sqlagent.knowledge.schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.source.Source;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The values of a source's low-cardinality text columns as PostgreSQL's planner statistics ({@code pg_stats}) already
 * hold them, read in one statement when the schema index is built: a question's word that is one of them ({@code French},
 * {@code horror}, {@code Canada}) points at the column's table. No table is read: only what {@code ANALYZE} (or
 * autovacuum) recorded, so a table never analysed has no values here, and the service never runs {@code ANALYZE} on a
 * user's database. {@code pg_stats} already leaves out columns the role may not read and tables whose row-level
 * security applies to it; tables with row-level security enabled are left out whoever reads them (the owner bypasses
 * the policy, and values sampled past it would tell what the policy hides). The table and column policies are applied
 * by {@link SchemaIndex#build}, like for names.
 */
public final class ColumnValues {

    /**
     * Text-like columns (string or enum types) with at most $1 distinct values: the most common values and the histogram
     * bounds together hold every value of such a column (a column whose values are all distinct, such as a lookup table's
     * names, has no most common values, only histogram bounds), as long as $1 is within the statistics target (100 by
     * default).
     */
    private static final String VALUES = """
            SELECT s.schemaname AS schema, s.tablename AS name, s.attname AS column,
                   coalesce(s.most_common_vals::text::text[], '{}') || coalesce(s.histogram_bounds::text::text[], '{}')
                       AS values
            FROM pg_stats s
            JOIN pg_namespace n ON n.nspname = s.schemaname
            JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = s.tablename
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = s.attname AND NOT a.attisdropped
            JOIN pg_type t ON t.oid = a.atttypid
            WHERE t.typcategory IN ('S', 'E')
              AND NOT c.relrowsecurity
              AND s.schemaname NOT IN ('pg_catalog', 'information_schema')
              AND has_table_privilege(c.oid, 'SELECT')
              AND CASE WHEN s.n_distinct >= 0 THEN s.n_distinct ELSE -s.n_distinct * greatest(c.reltuples, 0) END
                  BETWEEN 1 AND $1::int""";

    /** Longest value kept: longer ones are sentences, not the names of things a question mentions. */
    static final int MAX_LENGTH = 60;

    private ColumnValues() {
    }

    /**
     * The values of each readable text column of {@code source} with at most {@code maxDistinct} distinct values, by
     * {@code schema.table} then column.
     */
    public static Uni<Map<String, Map<String, List<String>>>> read(Source source, int maxDistinct) {
        return source.withConnection(client -> client.preparedQuery(VALUES).execute(Tuple.of(maxDistinct))).map(rows -> {
            Map<String, Map<String, List<String>>> values = new HashMap<>();
            for (Row row : rows) {
                Set<String> kept = new LinkedHashSet<>();
                for (String value : row.getArrayOfStrings("values")) {
                    if (value != null && !value.isBlank() && value.length() <= MAX_LENGTH) {
                        kept.add(value.strip());
                    }
                }
                if (!kept.isEmpty()) {
                    values.computeIfAbsent(row.getString("schema") + "." + row.getString("name"), table -> new HashMap<>())
                            .merge(row.getString("column"), new ArrayList<>(kept), (a, b) -> {
                                // An inheritance parent has statistics with and without its children.
                                Set<String> both = new LinkedHashSet<>(a);
                                both.addAll(b);
                                return new ArrayList<>(both);
                            });
                }
            }
            return values;
        });
    }
}
