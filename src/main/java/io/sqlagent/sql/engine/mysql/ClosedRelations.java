package io.sqlagent.sql.engine.mysql;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The schemas and tables a statement on a MySQL or MariaDB source may never read, whatever the
 * account's grants: people connect sources as {@code root}, and these hold password hashes, other
 * sessions' statement text or the server's internals.
 */
final class ClosedRelations {

    private static final Map<String, String> SCHEMAS = Map.of(
            "mysql", "it holds the server's accounts and password hashes, grants and internal tables",
            "performance_schema", "it holds other sessions' statements, their text and the server's internals",
            "sys", "its views read performance_schema: other sessions' statements and the server's internals");

    // information_schema tables with other sessions' statement text or account details; the rest of it is metadata.
    private static final Set<String> INFORMATION_SCHEMA = Set.of("processlist", "innodb_trx", "innodb_locks",
            "innodb_lock_waits", "users", "user_statistics", "client_statistics", "query_cache_info",
            "user_privileges", "user_attributes", "thread_pool_queues");

    private ClosedRelations() {
    }

    /** Folds a name as the guard compares it: backticks removed (doubled ones undone), lower case. */
    static String fold(String name) {
        if (name == null) {
            return "";
        }
        String plain = name.length() >= 2 && name.startsWith("`") && name.endsWith("`")
                ? name.substring(1, name.length() - 1).replace("``", "`")
                : name;
        // Compared case-blind whatever lower_case_table_names says: refusing MYSQL.user too is the safe side.
        return plain.toLowerCase(Locale.ROOT);
    }

    /** Why the database {@code schema} (folded) may not be read, or empty. */
    static Optional<String> schema(String schema) {
        return Optional.ofNullable(SCHEMAS.get(schema));
    }

    /**
     * Why {@code schema.table} (folded; {@code schema} empty when the name was not qualified) may not be
     * read, or empty.
     */
    static Optional<String> table(String schema, String table) {
        if (!schema.isEmpty() && SCHEMAS.containsKey(schema)) {
            return Optional.of(schema + "." + table + " is not allowed: the " + schema + " schema is closed, "
                    + SCHEMAS.get(schema));
        }
        if (schema.equals("information_schema") && INFORMATION_SCHEMA.contains(table)) {
            return Optional.of("information_schema." + table + " is not allowed: it shows other sessions' "
                    + "statements or account details");
        }
        return Optional.empty();
    }
}
