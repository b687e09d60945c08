package io.sqlagent.sql.result;

/**
 * One column of a result, in order.
 *
 * @param name the name PostgreSQL gave the column; several columns may share it
 *        ({@code SELECT ar.name, t.name …})
 * @param type the column's PostgreSQL type as {@code pg_typeof} names it ({@code integer},
 *        {@code character varying}, {@code numeric}, {@code timestamp with time zone},
 *        {@code text[]}, an enum's or composite type's own name), or {@code unknown}
 * @param key the key of this column's value in each row object: the name itself for its first
 *        occurrence, {@code name_2}, {@code name_3}, … for later columns of the same name (skipping
 *        keys another column already has), so no value overwrites another
 */
public record ResultColumn(String name, String type, String key) {
}
