package io.sqlagent.sql.engine.mysql;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The functions a statement on a MySQL or MariaDB source may call. Unlike PostgreSQL's guard, which
 * refuses a reviewed list, this is an allow-list: MySQL's catalogue is small and closed, so every
 * function is named here or refused, and user-defined functions (which run their own statements,
 * where no check sees them) are refused with it. The functions refused for a reason of their own
 * say so; any other name is refused as not on the list.
 */
final class MySqlFunctions {

    /** Functions refused for one reason, matched lower-cased. */
    private record Family(String reason, Set<String> names) {
    }

    private static final List<Family> REFUSED = List.of(
            new Family("it reads a file on the database server", Set.of("load_file")),
            new Family("it sleeps or burns the server's CPU on purpose", Set.of("sleep", "benchmark")),
            new Family("it takes or releases a named lock that outlives the statement",
                    Set.of("get_lock", "release_lock", "release_all_locks", "is_free_lock", "is_used_lock")),
            new Family("it waits for replication", Set.of("master_pos_wait", "source_pos_wait", "master_gtid_wait",
                    "wait_for_executed_gtid_set", "wait_until_sql_thread_after_gtids")),
            new Family("it advances or sets a sequence", Set.of("nextval", "setval", "lastval")),
            new Family("it sets the session's last insert id when given a value", Set.of("last_insert_id")),
            new Family("it runs operating-system commands (lib_mysqludf_sys)", Set.of("sys_exec", "sys_eval", "sys_get",
                    "sys_set")),
            new Family("it is a write statement's helper", Set.of("values", "value")));

    private static final Set<String> ALLOWED = Set.of(
            // Aggregates and window functions.
            "avg", "bit_and", "bit_or", "bit_xor", "count", "group_concat", "json_arrayagg", "json_objectagg", "max",
            "min", "std", "stddev", "stddev_pop", "stddev_samp", "sum", "var_pop", "var_samp", "variance",
            "cume_dist", "dense_rank", "first_value", "lag", "last_value", "lead", "nth_value", "ntile",
            "percent_rank", "rank", "row_number", "percentile_cont", "percentile_disc", "median",
            // Control flow and comparison.
            "coalesce", "greatest", "if", "ifnull", "interval", "isnull", "least", "nullif", "nvl", "nvl2", "strcmp",
            // Strings.
            "ascii", "bin", "bit_length", "char", "char_length", "character_length", "chr", "concat", "concat_ws",
            "elt", "export_set", "field", "find_in_set", "format", "from_base64", "hex", "insert", "instr", "lcase",
            "left", "length", "length_b", "locate", "lower", "lpad", "ltrim", "make_set", "mid", "oct",
            "octet_length", "ord", "position", "quote", "regexp_instr", "regexp_like", "regexp_replace",
            "regexp_substr", "repeat", "replace", "reverse", "right", "rpad", "rtrim", "soundex", "space", "substr",
            "substring", "substring_index", "to_base64", "to_char", "trim", "ucase", "unhex", "upper", "weight_string",
            "natural_sort_key", "sformat", "collation", "charset", "coercibility", "convert", "cast", "binary",
            "inet_aton", "inet_ntoa", "inet6_aton", "inet6_ntoa", "is_ipv4", "is_ipv6", "is_ipv4_compat",
            "is_ipv4_mapped", "uuid", "uuid_short", "sys_guid", "crc32", "md5", "sha", "sha1", "sha2",
            // Numbers.
            "abs", "acos", "asin", "atan", "atan2", "ceil", "ceiling", "conv", "cos", "cot", "degrees", "div", "exp",
            "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power", "radians", "rand", "round", "sign",
            "sin", "sqrt", "tan", "truncate", "bit_count", "crc32c",
            // Dates and times.
            "adddate", "addtime", "convert_tz", "curdate", "current_date", "current_time", "current_timestamp",
            "curtime", "date", "date_add", "date_format", "date_sub", "datediff", "day", "dayname", "dayofmonth",
            "dayofweek", "dayofyear", "extract", "from_days", "from_unixtime", "get_format", "hour", "last_day",
            "localtime", "localtimestamp", "makedate", "maketime", "microsecond", "minute", "month", "monthname",
            "now", "period_add", "period_diff", "quarter", "sec_to_time", "second", "str_to_date", "subdate",
            "subtime", "sysdate", "time", "time_format", "time_to_sec", "timediff", "timestamp", "timestampadd",
            "timestampdiff", "to_days", "to_seconds", "unix_timestamp", "utc_date", "utc_time", "utc_timestamp",
            "week", "weekday", "weekofyear", "year", "yearweek", "add_months", "months_between",
            // JSON.
            "json_array", "json_array_append", "json_array_insert", "json_array_intersect", "json_compact",
            "json_contains", "json_contains_path", "json_depth", "json_detailed", "json_equals", "json_exists",
            "json_extract", "json_insert", "json_keys", "json_length", "json_loose", "json_merge",
            "json_merge_patch", "json_merge_preserve", "json_normalize", "json_object", "json_object_filter_keys",
            "json_object_to_array", "json_overlaps", "json_pretty", "json_query", "json_quote", "json_remove",
            "json_replace", "json_schema_valid", "json_search", "json_set", "json_storage_size", "json_type",
            "json_unquote", "json_valid", "json_value", "json_table", "member",
            // Spatial values (computed from the values given, never reading a table).
            "st_astext", "st_aswkt", "st_geomfromtext", "st_x", "st_y", "st_distance", "st_distance_sphere",
            "st_contains", "st_within", "st_intersects", "point",
            // Information about the session itself.
            "database", "schema", "version", "current_user", "user", "session_user", "system_user", "current_role",
            "connection_id", "found_rows", "row_count",
            // Full-text search.
            "match", "against");

    private MySqlFunctions() {
    }

    /**
     * Why {@code name} may not be called (the end of a sentence such as "it sleeps"), or empty when
     * it may.
     */
    static Optional<String> refusal(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (Family family : REFUSED) {
            if (family.names().contains(lower)) {
                return Optional.of(family.reason());
            }
        }
        return ALLOWED.contains(lower) ? Optional.empty()
                : Optional.of("it is not on the list of functions allowed on MySQL and MariaDB sources "
                        + "(built-in functions that compute on values; docs/engines.md)");
    }

    /** Whether {@code name} is refused for a reason of its own, not only for being off the list. */
    static boolean refusedByName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return REFUSED.stream().anyMatch(family -> family.names().contains(lower));
    }
}
