package io.sqlagent.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.knowledge.KnowledgeItems;
import io.sqlagent.knowledge.Learning;
import io.sqlagent.knowledge.QueryPattern;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.pgclient.PgConnectOptions;

/**
 * Stores of earlier releases are upgraded in place: the one before governed learning (scripts V1–V6,
 * with knowledge in it) by the current scripts, its rows kept, what it learned still searchable
 * (approved, never checked); the one before checksums (V1–V10, no checksum column) gets its
 * checksums and its rows read through the knowledge entities. An edited script stops the migration.
 */
@QuarkusTest
@ScriptedModel
class StoreUpgradeTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The scripts the release before governed learning shipped. */
    private static final List<String> PREVIOUS_RELEASE = List.of("V1__tool_call_audit.sql", "V2__knowledge.sql",
            "V3__conversations.sql", "V4__api_keys.sql", "V5__access.sql", "V6__evals.sql");

    @Inject
    Pool store;

    @Inject
    Vertx vertx;

    private List<Row> rows(Pool pool, String sql) {
        List<Row> rows = new ArrayList<>();
        pool.query(sql).execute().await().atMost(WAIT).forEach(rows::add);
        return rows;
    }

    @Test
    void aStoreOfThePreviousReleaseIsUpgradedWithItsData() {
        String database = "upgrade_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        store.query("CREATE DATABASE " + database).execute().await().atMost(WAIT);
        String url = ConfigProvider.getConfig().getValue("quarkus.datasource.reactive.url", String.class);
        PgConnectOptions options = PgConnectOptions.fromUri(url.startsWith("vertx-reactive:") ? url.substring(15) : url)
                .setDatabase(database)
                .setUser(ConfigProvider.getConfig().getOptionalValue("quarkus.datasource.username", String.class)
                        .orElse("postgres"));
        ConfigProvider.getConfig().getOptionalValue("quarkus.datasource.password", String.class)
                .ifPresent(options::setPassword);
        Pool old = PgBuilder.pool().connectingTo(options).using(vertx).build();
        try {
            // Given: the previous release's store, with what it learned.
            assertEquals(PREVIOUS_RELEASE.size(), StoreMigrations.migrate(old, PREVIOUS_RELEASE).await().atMost(WAIT));
            old.query("""
                    INSERT INTO learning (title, description, category, sql, source, conversation_id)
                    VALUES ('Old learning about kiwis', 'Kiwi weights are grams.', 'data_quality', NULL, 'agent', 'c-1')""")
                    .execute().await().atMost(WAIT);
            old.query("""
                    INSERT INTO query_pattern (name, question, sql, summary, tables_used, source)
                    VALUES ('old_kiwis', 'How many kiwis?', 'SELECT 1', 'Counts kiwis.', '{kiwi}', 'agent')""")
                    .execute().await().atMost(WAIT);

            // When: the current release starts on it.
            int applied = StoreMigrations.migrate(old, StoreMigrations.SCRIPTS).await().atMost(WAIT);

            // Then: the new scripts ran once, the rows are there and still searched.
            assertEquals(StoreMigrations.SCRIPTS.size() - PREVIOUS_RELEASE.size(), applied);
            assertTrue(rows(old, "SELECT script FROM store_schema_version").stream().map(row -> row.getString(0))
                    .toList().contains("V10__governed_learning.sql"));
            Row learning = rows(old, "SELECT title, status, reviewed_by, source, conversation_id, embedding FROM learning")
                    .get(0);
            assertEquals("Old learning about kiwis", learning.getString("title"));
            assertEquals("approved", learning.getString("status"));
            assertNull(learning.getString("reviewed_by"));
            assertEquals("c-1", learning.getString("conversation_id"));
            assertNull(learning.getValue("embedding"));
            Row pattern = rows(old, "SELECT name, status, check_status FROM query_pattern").get(0);
            assertEquals("old_kiwis", pattern.getString("name"));
            assertEquals("approved", pattern.getString("status"));
            assertNull(pattern.getString("check_status"));
            assertEquals(1, rows(old, """
                    SELECT 1 FROM learning, to_tsquery('english', 'kiwi') q WHERE search @@ q AND status = 'approved'""")
                    .size());
            // A second start changes nothing.
            assertEquals(0, StoreMigrations.migrate(old, StoreMigrations.SCRIPTS).await().atMost(WAIT));
        } finally {
            old.close().await().atMost(WAIT);
            store.query("DROP DATABASE IF EXISTS " + database).execute().await().atMost(WAIT);
        }
    }

    @Test
    void ownersStoredAsNamesBecomePrincipalIdsThatNoTokenCanClaim() {
        String schema = schemaName();
        Pool old = schemaPool(schema);
        try {
            // Given: a store of the release before principal ids, with owners as bare names.
            List<String> before = StoreMigrations.SCRIPTS.subList(0, StoreMigrations.SCRIPTS.indexOf("V11__principal_ids.sql"));
            StoreMigrations.migrate(old, before).await().atMost(WAIT);
            old.query("""
                    INSERT INTO api_key (name, key_id, secret_hash, scopes, created_by)
                    VALUES ('ci', '0123456789ab', '\\x00', '{sql:read}', 'key:bootstrap')""").execute().await().atMost(WAIT);
            old.query("""
                    INSERT INTO conversation (id, principal, title) VALUES
                    ('00000000-0000-0000-0000-000000000001', 'key:ci', 'a'),
                    ('00000000-0000-0000-0000-000000000002', 'alice', 'b'),
                    ('00000000-0000-0000-0000-000000000003', 'eval', 'c'),
                    ('00000000-0000-0000-0000-000000000004', 'anonymous', 'd'),
                    ('00000000-0000-0000-0000-000000000005', NULL, 'e'),
                    ('00000000-0000-0000-0000-000000000006', 'key:gone', 'f')""").execute().await().atMost(WAIT);
            old.query("""
                    INSERT INTO learning (title, description, category, source, status, proposed_by, reviewed_by)
                    VALUES ('t', 'd', 'data_quality', 'agent', 'approved', 'alice', 'sqlagent')""").execute().await()
                    .atMost(WAIT);

            // When: this release starts on it.
            StoreMigrations.migrate(old, StoreMigrations.SCRIPTS).await().atMost(WAIT);

            // Then: each owner has its kind; names whose subject is unknown are held by nobody.
            Map<String, String> owners = rows(old, "SELECT title, principal FROM conversation").stream()
                    .collect(Collectors.toMap(row -> row.getString(0), row -> String.valueOf(row.getString(1))));
            assertEquals(Map.of("a", "key:0123456789ab", "b", "legacy:alice", "c", "internal:eval", "d", "anonymous",
                    "e", "null", "f", "legacy:key:gone"), owners);
            Row learning = rows(old, "SELECT proposed_by, reviewed_by FROM learning").get(0);
            assertEquals("legacy:alice", learning.getString(0));
            assertEquals("internal:service", learning.getString(1));
            assertEquals("key:bootstrap", rows(old, "SELECT created_by FROM api_key").get(0).getString(0));
            assertTrue(rows(old, "SELECT principal FROM eval_run").isEmpty());
            assertEquals(0, rows(old, "SELECT 1 FROM pg_proc WHERE proname = 'sqlagent_principal_id'").size());
        } finally {
            dropSchema(old, schema);
        }
    }

    /** A pool on a new, empty schema of the store's database (every connection's search_path), for a store of its own. */
    private Pool schemaPool(String schema) {
        store.query("CREATE SCHEMA " + schema).execute().await().atMost(WAIT);
        String url = ConfigProvider.getConfig().getValue("quarkus.datasource.reactive.url", String.class);
        PgConnectOptions options = PgConnectOptions.fromUri(url.startsWith("vertx-reactive:") ? url.substring(15) : url)
                .setUser(ConfigProvider.getConfig().getOptionalValue("quarkus.datasource.username", String.class)
                        .orElse("postgres"));
        ConfigProvider.getConfig().getOptionalValue("quarkus.datasource.password", String.class)
                .ifPresent(options::setPassword);
        options.addProperty("search_path", schema);
        return PgBuilder.pool().connectingTo(options).using(vertx).build();
    }

    private void dropSchema(Pool pool, String schema) {
        pool.close().await().atMost(WAIT);
        store.query("DROP SCHEMA IF EXISTS " + schema + " CASCADE").execute().await().atMost(WAIT);
    }

    private static String schemaName() {
        return "upgrade_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    private static List<StoreMigrations.Script> shipped() {
        return StoreMigrations.SCRIPTS.stream().map(StoreMigrations.Script::shipped).toList();
    }

    @Test
    void aStoreOfTheCurrentReleaseGetsChecksumsAndKeepsItsData() {
        String schema = schemaName();
        Pool old = schemaPool(schema);
        try {
            // Given: a store as the release before checksums left it (no checksum column), with knowledge in it.
            StoreMigrations.apply(old, shipped()).await().atMost(WAIT);
            old.query("ALTER TABLE store_schema_version DROP COLUMN checksum").execute().await().atMost(WAIT);
            old.query(
                    """
                            INSERT INTO learning (title, description, category, source, status, proposed_by, asked)
                            VALUES ('Kiwi weights are grams', 'Not kilograms.', 'data_quality', 'agent', 'proposed', 'ann', 'How heavy?')""")
                    .execute().await().atMost(WAIT);
            old.query("""
                    INSERT INTO query_pattern (name, question, sql, summary, tables_used, source, status, result_columns,
                                               result_rows, check_status)
                    VALUES ('kiwi_count', 'How many kiwis?', 'SELECT 1', 'Counts kiwis.', '{kiwi,orchard}', 'agent', 'approved',
                            '[{"name": "n", "type": "int4"}]', 1, 'drifted')""")
                    .execute().await().atMost(WAIT);

            // When: this release starts on it.
            int applied = StoreMigrations.apply(old, shipped()).await().atMost(WAIT);

            // Then: nothing ran again, every script has its checksum, the rows are as they were.
            assertEquals(0, applied);
            List<Row> versions = rows(old, "SELECT script, checksum FROM store_schema_version ORDER BY script");
            assertEquals(StoreMigrations.SCRIPTS.size(), versions.size());
            Map<String, String> expected = shipped().stream()
                    .collect(Collectors.toMap(StoreMigrations.Script::name, StoreMigrations.Script::checksum));
            versions.forEach(row -> assertEquals(expected.get(row.getString("script")), row.getString("checksum"),
                    row.getString("script")));
            Row learning = rows(old, "SELECT title, status, proposed_by, asked FROM learning").get(0);
            assertEquals("Kiwi weights are grams", learning.getString("title"));
            assertEquals("proposed", learning.getString("status"));
            assertEquals("ann", learning.getString("proposed_by"));
            assertEquals("How heavy?", learning.getString("asked"));
            // A second start checks the recorded checksums and changes nothing.
            assertEquals(0, StoreMigrations.apply(old, shipped()).await().atMost(WAIT));
            // And the knowledge store's items read what that release wrote.
            Learning entity = KnowledgeItems.learnings(old, "title = $1", "Kiwi weights are grams").await().atMost(WAIT).get(0);
            assertEquals("proposed", entity.status);
            assertEquals("How heavy?", entity.asked);
            assertNotNull(entity.createdAt);
            QueryPattern pattern = KnowledgeItems.patterns(old, "name = $1", "kiwi_count").await().atMost(WAIT).get(0);
            assertArrayEquals(new String[] { "kiwi", "orchard" }, pattern.tablesUsed);
            assertEquals("[{\"name\": \"n\", \"type\": \"int4\"}]", pattern.resultColumns);
            assertEquals("drifted", pattern.checkStatus);
        } finally {
            dropSchema(old, schema);
        }
    }

    @Test
    void anEditedScriptStopsTheMigrationNamingItAndNothingIsApplied() {
        String schema = schemaName();
        Pool pool = schemaPool(schema);
        try {
            // Given: a store of this release; then V2 is edited and a new script is added.
            StoreMigrations.apply(pool, shipped()).await().atMost(WAIT);
            List<StoreMigrations.Script> edited = new ArrayList<>(shipped().stream()
                    .map(script -> script.name().equals("V2__knowledge.sql")
                            ? new StoreMigrations.Script(script.name(), script.text() + "\nCREATE TABLE sneaky (id int);\n")
                            : script)
                    .toList());
            edited.add(new StoreMigrations.Script("V99__next.sql", "CREATE TABLE next_thing (id int);"));

            // When: the service starts with them.
            StoreScriptEditedException refused = assertThrows(StoreScriptEditedException.class,
                    () -> StoreMigrations.apply(pool, edited).await().atMost(WAIT));

            // Then: the error names the edited script, and neither it nor the new script ran.
            assertTrue(refused.getMessage().contains("V2__knowledge.sql"), refused.getMessage());
            assertFalse(refused.getMessage().contains("V1__"), refused.getMessage());
            assertEquals(0, rows(pool, """
                    SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename IN ('sneaky', 'next_thing')""")
                    .size());
            assertEquals(0, rows(pool, "SELECT 1 FROM store_schema_version WHERE script = 'V99__next.sql'").size());
            // A CRLF checkout of the same text is not an edit.
            List<StoreMigrations.Script> crlf = shipped().stream()
                    .map(script -> new StoreMigrations.Script(script.name(), script.text().replace("\n", "\r\n"))).toList();
            assertEquals(0, StoreMigrations.apply(pool, crlf).await().atMost(WAIT));
        } finally {
            dropSchema(pool, schema);
        }
    }
}
