package io.sqlagent.store;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.sqlagent.ClasspathText;
import io.sqlagent.sql.SqlScript;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Brings the store's schema up to date at start-up: the numbered scripts under {@code db/store}
 * run once each, in order, each in its own transaction, recorded in {@code store_schema_version}.
 * An advisory lock keeps replicas that start together from running a script twice.
 */
@ApplicationScoped
public class StoreMigrations {

    /** The scripts, in order. Add new ones at the end; never edit one that has shipped. */
    static final List<String> SCRIPTS = List.of("V1__tool_call_audit.sql", "V2__knowledge.sql", "V3__conversations.sql",
            "V4__api_keys.sql", "V5__access.sql", "V6__evals.sql", "V7__audit_trace_id.sql", "V8__chat_run_events.sql",
            "V9__vector_collections.sql", "V10__governed_learning.sql");

    private static final long LOCK_KEY = 0x5A_1A_6E_47L;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static final String LOCK = """
            SELECT pg_advisory_lock(%d)""";

    private static final String UNLOCK = """
            SELECT pg_advisory_unlock(%d)""";

    private static final String CREATE_VERSIONS = """
            CREATE TABLE IF NOT EXISTS store_schema_version (
                script text PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now())""";

    private static final String APPLIED = """
            SELECT 1 FROM store_schema_version WHERE script = $1""";

    private static final String RECORD_APPLIED = """
            INSERT INTO store_schema_version (script) VALUES ($1)""";

    private final Pool store;
    private volatile boolean ready;

    StoreMigrations(Pool store) {
        this.store = store;
    }

    /** Whether the schema is up to date (writers wait for this). */
    public boolean ready() {
        return ready;
    }

    void migrateOnStart(@Observes StartupEvent event) {
        try {
            int applied = migrate().await().atMost(WAIT);
            ready = true;
            if (applied > 0) {
                Log.infof("Store schema updated: %d script(s) applied", applied);
            }
        } catch (RuntimeException e) {
            // The store may be down now and up later: readiness reports it; the next start migrates.
            Log.errorf(
                    "The store schema could not be updated: %s. Tool calls are not audited until the service restarts with the store reachable.",
                    e.getMessage());
        }
    }

    /** Applies the scripts not yet applied; returns how many ran. */
    public Uni<Integer> migrate() {
        return migrate(store, SCRIPTS);
    }

    /**
     * Applies those of {@code scripts} not yet applied to the store behind {@code store}; how many
     * ran. A store created by an earlier release has applied a prefix of {@link #SCRIPTS} and is
     * upgraded in place, its rows kept.
     */
    static Uni<Integer> migrate(Pool store, List<String> scripts) {
        return store.withConnection(connection -> connection.query(LOCK.formatted(LOCK_KEY)).execute()
                .flatMap(locked -> connection.query(CREATE_VERSIONS).execute())
                .flatMap(created -> Multi.createFrom().iterable(scripts)
                        .onItem().transformToUniAndConcatenate(script -> applyOnce(connection, script))
                        .filter(Boolean::booleanValue)
                        .collect().with(Collectors.counting()))
                .map(Long::intValue)
                .eventually(() -> connection.query(UNLOCK.formatted(LOCK_KEY)).execute()));
    }

    /** Runs {@code script} unless it ran before; whether it ran. */
    private static Uni<Boolean> applyOnce(SqlConnection connection, String script) {
        return connection.preparedQuery(APPLIED).execute(Tuple.of(script))
                .flatMap(rows -> rows.size() > 0
                        ? Uni.createFrom().item(false)
                        : runScript(connection, script).replaceWith(true));
    }

    private static Uni<Void> runScript(SqlConnection connection, String script) {
        List<String> statements = SqlScript.statements(ClasspathText.require("db/store/" + script));
        return connection.begin().flatMap(transaction -> Multi.createFrom().iterable(statements)
                .onItem().transformToUniAndConcatenate(statement -> connection.query(statement).execute())
                .collect().last()
                .flatMap(done -> connection.preparedQuery(RECORD_APPLIED).execute(Tuple.of(script)))
                .flatMap(inserted -> transaction.commit())
                .onFailure().call(failure -> transaction.rollback()));
    }
}
