package io.sqlagent.sql.engine.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.sql.engine.ResultReader;
import io.sqlagent.sql.engine.SchemaReader;
import io.sqlagent.sql.engine.SchemaReader.Column;
import io.sqlagent.sql.engine.SchemaReader.ForeignKey;
import io.sqlagent.sql.engine.SchemaReader.Table;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * Introspection of a MariaDB source and the Chinook demo on it: the catalog as the source's account sees it (its URL's
 * database by bare name and first, other readable databases qualified, nothing it may not read, nothing of the
 * server's own), columns with full types, keys, defaults and comments, foreign keys; samples and value hints through
 * statements the engine's check allows; and known answers of the Chinook evaluation read through the engine.
 */
class MySqlSchemaOnMariaDbTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final MySqlEngine ENGINE = MySqlEngine.mariaDb();
    private static final ResultReader.Caps CAPS = new ResultReader.Caps(100, 1_000_000, 10_000);

    private static Vertx vertx;
    private static Pool chinook;
    private static EngineSession session;
    private static List<Table> catalog;

    @BeforeAll
    static void loadChinook() {
        MariaDbServer server = MariaDbServer.get();
        ChinookOnMariaDb.load(server);
        server.root("""
                CREATE OR REPLACE TABLE shop.noted (id INT PRIMARY KEY COMMENT 'the note''s number',
                    status VARCHAR(10) NOT NULL DEFAULT 'new' COMMENT 'where the note is', body JSON, owner INT UNSIGNED)
                    COMMENT 'notes left by staff';
                CREATE OR REPLACE VIEW shop.open_notes AS SELECT id, status FROM shop.noted WHERE status <> 'done';
                CREATE DATABASE IF NOT EXISTS vault;
                CREATE OR REPLACE TABLE vault.secrets (id INT PRIMARY KEY, secret VARCHAR(100));
                """);
        vertx = Vertx.vertx();
        chinook = Pool.newInstance(ENGINE.pool(vertx, ChinookOnMariaDb.agentUrl(server), new PoolOptions().setMaxSize(2)));
        session = new EngineSession(ENGINE, chinook, Duration.ofSeconds(10));
        catalog = ENGINE.schema().catalog(chinook).await().atMost(WAIT);
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            chinook.close().await().indefinitely();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static Table table(String displayName) {
        return catalog.stream().filter(table -> table.displayName().equals(displayName)).findFirst()
                .orElseThrow(
                        () -> new AssertionError(displayName + " not in " + catalog.stream().map(Table::displayName).toList()));
    }

    private static Column column(Table table, String name) {
        return table.columns().stream().filter(column -> column.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theCatalogListsWhatTheAccountMayReadItsOwnDatabaseFirst() {
        List<String> names = catalog.stream().map(Table::displayName).toList();

        assertThat(names.subList(0, 11)).containsExactly("album", "artist", "customer", "employee", "genre", "invoice",
                "invoice_line", "media_type", "playlist", "playlist_track", "track");
        assertThat(names).contains("shop.noted", "shop.open_notes");
        assertThat(names).noneMatch(name -> name.startsWith("vault.") || name.startsWith("mysql.")
                || name.startsWith("information_schema.") || name.startsWith("performance_schema.") || name.startsWith("sys."));
        assertThat(table("shop.open_notes").kind()).isEqualTo("view");
        assertThat(table("track").kind()).isEqualTo("table");
    }

    @Test
    void columnsHaveTheirTypesKeysAndNullability() {
        Table track = table("track");

        assertThat(track.columns().stream().map(Column::name)).containsExactly("track_id", "name", "album_id",
                "media_type_id", "genre_id", "composer", "milliseconds", "bytes", "unit_price");
        assertThat(column(track, "track_id")).isEqualTo(new Column("track_id", "int(11)", false, true, Optional.empty(),
                Optional.empty()));
        assertThat(column(track, "unit_price").type()).isEqualTo("decimal(10,2)");
        assertThat(column(track, "composer").nullable()).isTrue();
        assertThat(column(table("invoice"), "invoice_date").type()).isEqualTo("datetime");
        assertThat(column(table("playlist_track"), "playlist_id").primaryKey()).isTrue();
        assertThat(column(table("playlist_track"), "track_id").primaryKey()).isTrue();
        assertThat(track.foreignKeys()).containsExactly(new ForeignKey("album_id", "chinook", "album", "album_id"),
                new ForeignKey("genre_id", "chinook", "genre", "genre_id"),
                new ForeignKey("media_type_id", "chinook", "media_type", "media_type_id"));
        assertThat(table("employee").foreignKeys())
                .containsExactly(new ForeignKey("reports_to", "chinook", "employee", "employee_id"));
    }

    @Test
    void commentsDefaultsAndMariaDbsJsonColumnsAreRead() {
        Table noted = table("shop.noted");

        assertThat(noted.description()).contains("notes left by staff");
        assertThat(column(noted, "id").description()).contains("the note's number");
        assertThat(column(noted, "status")).isEqualTo(new Column("status", "varchar(10)", false, false,
                Optional.of("'new'"), Optional.of("where the note is")));
        assertThat(column(noted, "body").type()).isEqualTo("json");
        assertThat(column(noted, "owner").type()).isEqualTo("int(10) unsigned");
        assertThat(column(noted, "owner").defaultValue()).isEmpty();
        assertThat(table("shop.open_notes").description()).isEmpty();
    }

    @Test
    void samplesAndValueHintsAreStatementsTheCheckAllowsAndTheyRead() {
        SchemaReader schema = ENGINE.schema();
        Table mediaType = table("media_type");
        String sample = schema.sampleStatement(table("track"), List.of("track_id", "name"), 3);
        String hints = schema.valueHintsStatement(mediaType, List.of("name"), 1000, 10, 12);
        String tooMany = schema.valueHintsStatement(table("genre"), List.of("name"), 1000, 5, 40);

        for (String sql : List.of(sample, hints, tooMany)) {
            assertThat(new MySqlGuard().check(sql).allowed()).as(sql + ": " + new MySqlGuard().check(sql)).isTrue();
        }
        JsonNode sampled = session.answer(sample, CAPS);
        assertThat(sampled.get("row_count").asInt()).isEqualTo(3);
        assertThat(sampled.get("rows").get(0).get("name").textValue()).isEqualTo("For Those About To Rock (We Salute You)");
        assertThat(values(session.answer(hints, CAPS))).containsExactly("AAC audio fi…", "MPEG audio f…",
                "Protected AA…", "Protected MP…", "Purchased AA…");
        // One more than asked for: the column has too many distinct values to be hinted.
        assertThat(values(session.answer(tooMany, CAPS))).hasSize(6);
        assertThat(schema.hintable("varchar(120)")).isTrue();
        assertThat(schema.hintable("enum('a','b')")).isTrue();
        assertThat(schema.hintable("int(11)")).isFalse();
        assertThat(schema.hintable("json")).isFalse();
    }

    private static List<String> values(JsonNode answer) {
        List<String> values = new ArrayList<>();
        answer.get("rows").forEach(row -> values.add(row.get("v").textValue()));
        return values;
    }

    @Test
    void chinooksKnownAnswersComeThroughTheEngine() {
        assertThat(session.answer("SELECT count(*) AS n FROM track", CAPS).get("rows").toString())
                .isEqualTo("[{\"n\":3503}]");
        assertThat(session.answer("SELECT sum(total) AS revenue FROM invoice", CAPS).get("rows").toString())
                .isEqualTo("[{\"revenue\":2328.60}]");
        JsonNode top = session.answer("SELECT ar.name, count(*) AS tracks FROM track t JOIN album al ON al.album_id = "
                + "t.album_id JOIN artist ar ON ar.artist_id = al.artist_id GROUP BY ar.artist_id, ar.name "
                + "ORDER BY tracks DESC, ar.name LIMIT 3", CAPS);
        assertThat(top.get("rows").toString()).isEqualTo(
                "[{\"name\":\"Iron Maiden\",\"tracks\":213},{\"name\":\"U2\",\"tracks\":135},"
                        + "{\"name\":\"Led Zeppelin\",\"tracks\":114}]");
        assertThat(session.answer("SELECT e.first_name, e.last_name FROM customer c JOIN employee e ON e.employee_id = "
                + "c.support_rep_id WHERE c.first_name = 'Luís' AND c.last_name = 'Gonçalves'", CAPS).get("rows").toString())
                .isEqualTo("[{\"first_name\":\"Jane\",\"last_name\":\"Peacock\"}]");
    }
}
