package io.sqlagent.sql.source;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;

/**
 * Says, in one line an operator can act on, when a source's database role may do more than read:
 * a superuser, a role that may insert, update, delete or truncate in a table it can see, or one
 * that may create objects in a schema. The agent's SQL stays read-only either way (guard,
 * read-only transaction), so this is a warning, never a failure: it is logged at start and shown
 * in the readiness details, while readiness stays UP. The answer is kept for a minute per pool,
 * so frequent readiness probes do not scan the catalog each time.
 */
@ApplicationScoped
public class SourceRoleCheck {

    private static final Duration KEPT_FOR = Duration.ofMinutes(1);

    // System schemas are left out: every role may create in its own temporary schema, and the
    // catalogs are not writable through SQL anyway. The first table and schema found are named.
    private static final String PRIVILEGES = """
            SELECT r.rolname, r.rolsuper,
              (SELECT n.nspname || '.' || c.relname FROM pg_catalog.pg_class c
                 JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
               WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname <> 'information_schema'
                 AND n.nspname NOT LIKE 'pg\\_%'
                 AND pg_catalog.has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')
               ORDER BY 1 LIMIT 1) AS writable,
              (SELECT n.nspname FROM pg_catalog.pg_namespace n
               WHERE n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'
                 AND pg_catalog.has_schema_privilege(n.oid, 'CREATE')
               ORDER BY 1 LIMIT 1) AS creatable
            FROM pg_catalog.pg_roles r WHERE r.rolname = current_user""";

    private record Checked(Optional<String> warning, long at) {
    }

    private final Map<Pool, Checked> checked = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * The warning for {@code source}'s role, without the source's name; empty when the role only
     * reads, or when the source has no pool, does not answer within {@code timeout} or the check
     * fails (readiness reports those). Never fails.
     */
    public Uni<Optional<String>> warning(Source source, Duration timeout) {
        // The privileges are read from PostgreSQL's catalog; another engine's account is checked by its read-only
        // transaction alone (docs/engines.md).
        if (source.pool().isEmpty() || !source.isPostgres()) {
            return Uni.createFrom().item(Optional.empty());
        }
        Pool pool = source.pool().get();
        Checked known = checked.get(pool);
        if (known != null && System.nanoTime() - known.at() < KEPT_FOR.toNanos()) {
            return Uni.createFrom().item(known.warning());
        }
        return source.withConnection(client -> client.query(PRIVILEGES).execute())
                .map(rows -> rows.iterator().hasNext() ? warning(rows.iterator().next()) : Optional.<String> empty())
                .invoke(warning -> checked.put(pool, new Checked(warning, System.nanoTime())))
                .ifNoItem().after(timeout).recoverWithItem(Optional.empty())
                .onFailure().recoverWithItem(failure -> {
                    Log.debugf("Could not check the privileges of source '%s': %s", source.name(), failure.toString());
                    return Optional.empty();
                });
    }

    /** {@link #warning} as the one line the log shows, naming the source. */
    public Uni<Optional<String>> logLine(Source source, Duration timeout) {
        return warning(source, timeout).map(warning -> warning.map(text -> "Source '" + source.name() + "': " + text));
    }

    private static Optional<String> warning(Row row) {
        String role = row.getString("rolname");
        String writable = row.getString("writable");
        String creatable = row.getString("creatable");
        List<String> powers = new ArrayList<>();
        if (Boolean.TRUE.equals(row.getBoolean("rolsuper"))) {
            powers.add("is a superuser");
        } else {
            if (writable != null) {
                powers.add("can write to tables (INSERT, UPDATE, DELETE or TRUNCATE on " + writable + ", for one)");
            }
            if (creatable != null) {
                powers.add("can create objects in schema " + creatable);
            }
        }
        if (powers.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("role " + role + " " + String.join(" and ", powers)
                + "; the agent's SQL is kept read-only, but it needs only a read-only role: create one as docs/configuration.md shows "
                + "(\"Give the agent a read-only role\") and connect the source with it");
    }
}
