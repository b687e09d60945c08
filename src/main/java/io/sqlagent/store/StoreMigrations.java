package io.sqlagent.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.sqlagent.ClasspathText;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Brings the store's schema up to date at start-up: the numbered scripts under {@code db/store}
 * run once each, in order, each in its own transaction, recorded in {@code store_schema_version}
 * with the SHA-256 of their text. An advisory lock keeps replicas that start together from running
 * a script twice. A shipped script edited after a store applied it stops the migration before
 * anything runs, naming the script, as Flyway's checksum validation would.
 *
 * <p>
 * The service's own migrator rather than Flyway, for the reason docs/architecture.md gives
 * ("Why the store's migrator is the project's own").
 */
@ApplicationScoped
public class StoreMigrations {

    /** The scripts, in order. Add new ones at the end; never edit one that has shipped. */
    static final List<String> SCRIPTS = List.of("V1__tool_call_audit.sql", "V2__knowledge.sql", "V3__conversations.sql",
            "V4__api_keys.sql", "V5__access.sql", "V6__evals.sql", "V7__audit_trace_id.sql", "V8__chat_run_events.sql",
            "V9__vector_collections.sql", "V10__governed_learning.sql", "V11__principal_ids.sql");

    private static final long LOCK_KEY = 0x5A_1A_6E_47L;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static final String LOCK = """
            SELECT pg_advisory_lock(%d)""";

    private static final String UNLOCK = """
            SELECT pg_advisory_unlock(%d)""";

    /**
     * Checked first, as {@link #ADD_CHECKSUM}: {@code CREATE TABLE IF NOT EXISTS} logs PostgreSQL's "already exists,
     * skipping" notice as a warning at every start after the first, which no one can act on.
     */
    private static final String CREATE_VERSIONS = """
            DO $$ BEGIN
                IF to_regclass('store_schema_version') IS NULL THEN
                    CREATE TABLE store_schema_version (
                        script text PRIMARY KEY,
                        applied_at timestamptz NOT NULL DEFAULT now());
                END IF;
            END $$""";

    /**
     * Stores created before checksums were kept have no such column; their rows get one on the next start.
     * Checked first: {@code ADD COLUMN IF NOT EXISTS} would log a notice as a warning at every start.
     */
    private static final String ADD_CHECKSUM = """
            DO $$ BEGIN
                IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
                               AND table_name = 'store_schema_version' AND column_name = 'checksum') THEN
                    ALTER TABLE store_schema_version ADD COLUMN checksum text;
                END IF;
            END $$""";

    private static final String APPLIED = """
            SELECT script, checksum FROM store_schema_version""";

    private static final String FILL_CHECKSUM = """
            UPDATE store_schema_version SET checksum = $2 WHERE script = $1 AND checksum IS NULL""";

    private static final String RECORD_APPLIED = """
            INSERT INTO store_schema_version (script, checksum) VALUES ($1, $2)""";

    private final Pool store;
    private volatile boolean ready;

    StoreMigrations(Pool store) {
        this.store = store;
    }

    /** A migration script: its file name and its text. */
    record Script(String name, String text) {

        static Script shipped(String name) {
            return new Script(name, ClasspathText.require("db/store/" + name));
        }

        /** SHA-256 (hex) of the text, line endings normalised so a checkout with CRLF does not count as an edit. */
        String checksum() {
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256")
                        .digest(text.replace("\r\n", "\n").getBytes(StandardCharsets.UTF_8));
                return HexFormat.of().formatHex(digest);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is not available", e);
            }
        }
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
        } catch (StoreScriptEditedException e) {
            Log.errorf("The store schema was not updated and the store is not used: %s", e.getMessage());
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
     * Applies those of the shipped {@code scripts} not yet applied to the store behind {@code store};
     * how many ran. A store created by an earlier release has applied a prefix of {@link #SCRIPTS}
     * and is upgraded in place, its rows kept.
     */
    static Uni<Integer> migrate(Pool store, List<String> scripts) {
        return Uni.createFrom().item(() -> scripts.stream().map(Script::shipped).toList())
                .flatMap(texts -> apply(store, texts));
    }

    /**
     * Applies those of {@code scripts} not yet applied; how many ran. First checks every applied one
     * against its recorded checksum (filling in the checksums a store of an earlier release lacks):
     * when one was edited, fails with a {@link StoreScriptEditedException} and applies nothing.
     */
    static Uni<Integer> apply(Pool store, List<Script> scripts) {
        return store.withConnection(connection -> connection.query(LOCK.formatted(LOCK_KEY)).execute()
                .flatMap(locked -> connection.query(CREATE_VERSIONS).execute())
                .flatMap(created -> connection.query(ADD_CHECKSUM).execute())
                .flatMap(added -> connection.query(APPLIED).execute())
                .map(StoreMigrations::checksums)
                .flatMap(applied -> verified(connection, scripts, applied)
                        .flatMap(ok -> Multi.createFrom().iterable(scripts)
                                .filter(script -> !applied.containsKey(script.name()))
                                .onItem().transformToUniAndConcatenate(script -> run(connection, script))
                                .collect().with(Collectors.counting())))
                .map(Long::intValue)
                .eventually(() -> connection.query(UNLOCK.formatted(LOCK_KEY)).execute()));
    }

    /** Recorded script name → checksum ({@code ""} for a row of a store that kept none). */
    private static Map<String, String> checksums(Iterable<Row> rows) {
        Map<String, String> applied = new HashMap<>();
        for (Row row : rows) {
            String checksum = row.getString("checksum");
            applied.put(row.getString("script"), checksum == null ? "" : checksum);
        }
        return applied;
    }

    /** Fails when an applied script's text differs from what was applied; otherwise records missing checksums. */
    private static Uni<Void> verified(SqlConnection connection, List<Script> scripts, Map<String, String> applied) {
        List<String> edited = scripts.stream()
                .filter(script -> !applied.getOrDefault(script.name(), "").isEmpty())
                .filter(script -> !applied.get(script.name()).equals(script.checksum()))
                .map(Script::name).toList();
        if (!edited.isEmpty()) {
            return Uni.createFrom().failure(new StoreScriptEditedException(edited));
        }
        return Multi.createFrom().iterable(scripts)
                .filter(script -> "".equals(applied.get(script.name())))
                .onItem().transformToUniAndConcatenate(script -> connection.preparedQuery(FILL_CHECKSUM)
                        .execute(Tuple.of(script.name(), script.checksum())))
                .collect().last()
                .replaceWithVoid();
    }

    private static Uni<Boolean> run(SqlConnection connection, Script script) {
        List<String> statements = SqlScript.statements(script.text());
        return connection.begin().flatMap(transaction -> Multi.createFrom().iterable(statements)
                .onItem().transformToUniAndConcatenate(statement -> connection.query(statement).execute())
                .collect().last()
                .flatMap(done -> connection.preparedQuery(RECORD_APPLIED).execute(Tuple.of(script.name(), script.checksum())))
                .flatMap(inserted -> transaction.commit())
                .onFailure().call(failure -> transaction.rollback()))
                .replaceWith(true);
    }
}
