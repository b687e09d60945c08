package io.sqlagent.sql.guard;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The one list of functions {@code run_sql} refuses, by family, each with the reason the model is
 * told. Names are matched lower-cased and without schema, so {@code pg_catalog.pg_sleep} and
 * {@code "PG_SLEEP"} are caught too; a family names whole functions, prefixes ({@code lo_*}) or
 * suffixes ({@code *_to_xml}).
 */
public final class DeniedFunctions {

    /**
     * Functions refused for one reason; a pattern ending in {@code *} is a prefix, one starting
     * with it a suffix, any other a whole name.
     */
    record Family(String reason, List<String> patterns) {

        boolean matches(String name) {
            for (String pattern : patterns) {
                if (pattern.endsWith("*") ? name.startsWith(pattern.substring(0, pattern.length() - 1))
                        : pattern.startsWith("*") ? name.endsWith(pattern.substring(1))
                                : name.equals(pattern)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final String RUNS_QUERY_TEXT = "it can run a query given as text, or read a table named in a string, "
            + "past the table and column checks; write the query itself";

    // Order matters only for the reason given: the first family that matches names it.
    private static final List<Family> BUILT_IN = List.of(
            new Family("it sleeps", List.of("pg_sleep", "pg_sleep_for", "pg_sleep_until")),
            new Family("it reads the server's files", List.of("pg_read_*", "pg_ls_*", "pg_stat_file",
                    "pg_current_logfile", "pg_logdir_ls", "pg_hba_file_rules", "pg_ident_file_mappings",
                    "pg_show_all_file_settings")),
            new Family("it reads or writes the server's files", List.of("pg_file_*")),
            new Family("it reads or writes large objects, which can touch the server's files",
                    List.of("lo_*", "loread", "lowrite")),
            new Family("it signals other sessions or administers the server", List.of("pg_terminate_backend",
                    "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile", "pg_promote", "pg_switch_wal",
                    "pg_switch_xlog", "pg_create_restore_point", "pg_backup_start", "pg_backup_stop",
                    "pg_start_backup", "pg_stop_backup", "pg_log_backend_memory_contexts", "pg_wal_replay_pause",
                    "pg_wal_replay_resume", "pg_import_system_collations", "pg_log_standby_snapshot",
                    "binary_upgrade_*")),
            new Family("it changes indexes or table storage", List.of("gin_clean_pending_list",
                    "brin_summarize_new_values", "brin_summarize_range", "brin_desummarize_range",
                    "pg_truncate_visibility_map", "heap_force_kill", "heap_force_freeze")),
            new Family("it resets statistics", List.of("pg_stat_reset*", "pg_stat_statements_reset")),
            new Family("it changes settings", List.of("set_config")),
            new Family("it manages replication or logical decoding", List.of("pg_create_*", "pg_drop_*",
                    "pg_replication_*", "pg_logical_*", "pg_copy_*", "pg_sync_replication_slots")),
            new Family("it takes advisory locks", List.of("pg_advisory_*", "pg_try_advisory_*")),
            new Family("it sends notifications", List.of("pg_notify")),
            new Family("it changes a sequence", List.of("nextval", "setval")),
            new Family("it connects to other databases", List.of("dblink*")),
            // Each of these runs a query given as text, or reads a relation named in a string, inside the
            // server: neither the table policy (which sees the statement's own tables) nor the hidden-column
            // check (which sees its plan, where they are one opaque function scan) can see what they read.
            new Family(RUNS_QUERY_TEXT, List.of("*_to_xml", "*_to_xmlschema", "*_to_xml_and_xmlschema",
                    "ts_stat", "ts_rewrite", "crosstab*", "connectby", "xpath_table")),
            new Family("it reads table pages or the write-ahead log raw, past the table and column checks",
                    List.of("get_raw_page", "heap_page_items", "heap_page_item_attrs", "tuple_data_split",
                            "bt_page_items", "brin_page_items", "gin_leafpage_items", "gist_page_items",
                            "gist_page_items_bytea", "hash_page_items", "pg_get_wal_*")),
            new Family("it reads a sequence by name, past the table policy; select last_value from the sequence instead",
                    List.of("pg_sequence_last_value", "pg_get_sequence_data")),
            new Family("it lists every server setting, and some hold passwords (primary_conninfo); "
                    + "read one setting with current_setting('name')", List.of("pg_show_all_settings")),
            new Family("it assigns a transaction id", List.of("txid_current", "pg_current_xact_id")));

    private static final DeniedFunctions BUILT_IN_ONLY = new DeniedFunctions(List.of());

    private final List<Family> families;

    private DeniedFunctions(Collection<String> extra) {
        Set<String> names = extra.stream().filter(name -> name != null && !name.isBlank())
                .map(name -> name.trim().toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        this.families = names.isEmpty() ? BUILT_IN
                : Stream.concat(BUILT_IN.stream(),
                        Stream.of(new Family("it is denied by configuration", List.copyOf(names)))).toList();
    }

    /** The built-in list. */
    public static DeniedFunctions builtIn() {
        return BUILT_IN_ONLY;
    }

    /**
     * The built-in list plus {@code extra} names (case-insensitive; a trailing {@code *} makes a name a prefix).
     */
    public static DeniedFunctions withExtra(Collection<String> extra) {
        return extra == null || extra.isEmpty() ? BUILT_IN_ONLY : new DeniedFunctions(extra);
    }

    /**
     * Why {@code name} (lower-cased, without schema) may not be called, as the end of a sentence
     * such as "it sleeps"; empty if it may.
     */
    public Optional<String> reasonFor(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (Family family : families) {
            if (family.matches(lower)) {
                return Optional.of(family.reason());
            }
        }
        return Optional.empty();
    }
}
