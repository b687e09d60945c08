package io.sqlagent.sql.result;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One column of a result, in order.
 *
 * @param name the name the server gave the column; several columns may share it
 *        ({@code SELECT ar.name, t.name …})
 * @param type the column's type as its engine names it: PostgreSQL's as {@code pg_typeof} names it ({@code integer},
 *        {@code character varying}, {@code numeric}, {@code timestamp with time zone},
 *        {@code text[]}, an enum's or composite type's own name), MySQL's and MariaDB's as their manuals name them
 *        ({@code decimal}, {@code bigint unsigned}, {@code datetime}), or {@code unknown}
 * @param key the key of this column's value in each row object: the name itself for its first
 *        occurrence, {@code name_2}, {@code name_3}, … for later columns of the same name (skipping
 *        keys another column already has), so no value overwrites another
 */
public record ResultColumn(String name, String type, String key) {

    /**
     * Columns for {@code names} and {@code types} (same length), each with a key no other column has:
     * the name itself the first time, then {@code name_2}, {@code name_3}, … skipping keys already taken
     * by a column of that name, so {@code SELECT a, a, a_2} keys its columns {@code a, a_3, a_2}.
     */
    public static List<ResultColumn> keyed(List<String> names, List<String> types) {
        Set<String> taken = new HashSet<>(names);
        Set<String> used = new HashSet<>();
        List<ResultColumn> columns = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            String key = name;
            if (!used.add(key)) {
                int n = 2;
                while (taken.contains(name + "_" + n) || used.contains(name + "_" + n)) {
                    n++;
                }
                key = name + "_" + n;
                used.add(key);
            }
            columns.add(new ResultColumn(name, i < types.size() ? types.get(i) : "unknown", key));
        }
        return columns;
    }
}
