package io.sqlagent.sql.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;

/** The catalog reading behind {@code introspect_schema}, on Chinook. */
@QuarkusTest
@ScriptedModel
class SchemaIntrospectorTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    SchemaIntrospector introspector;

    @Inject
    SourceRegistry sources;

    private Source chinook() {
        return sources.find("default").orElseThrow();
    }

    private SchemaIntrospector.Relation relation(String name) {
        return SchemaIntrospector.find(introspector.relations(chinook()).await().atMost(WAIT), name).orElseThrow();
    }

    @Test
    void listsTheElevenChinookTables() {
        List<String> names = introspector.relations(chinook()).await().atMost(WAIT).stream()
                .map(SchemaIntrospector.Relation::displayName).toList();

        assertEquals(List.of("album", "artist", "customer", "employee", "genre", "invoice", "invoice_line", "media_type",
                "playlist", "playlist_track", "track"), names);
    }

    @Test
    void describesColumnsWithKeysTypesAndReferences() {
        List<Map<String, Object>> columns = introspector.columns(chinook(), relation("track")).await().atMost(WAIT);

        assertEquals("track_id", columns.get(0).get("name"));
        assertEquals(true, columns.get(0).get("primary_key"));
        assertEquals("integer", columns.get(0).get("type"));
        Map<String, Object> albumId = columns.stream().filter(c -> c.get("name").equals("album_id")).findFirst().orElseThrow();
        assertEquals(true, albumId.get("foreign_key"));
        assertEquals("album.album_id", albumId.get("references"));
        Map<String, Object> name = columns.stream().filter(c -> c.get("name").equals("name")).findFirst().orElseThrow();
        assertEquals("character varying(200)", name.get("type"));
        assertEquals(false, name.get("nullable"));
        Map<String, Object> unitPrice = columns.stream().filter(c -> c.get("name").equals("unit_price")).findFirst()
                .orElseThrow();
        assertEquals("numeric(10,2)", unitPrice.get("type"));
    }

    @Test
    void relationshipsGoBothWays() {
        List<Map<String, Object>> relationships = introspector.relationships(chinook(), relation("album")).await().atMost(WAIT);

        assertTrue(relationships.contains(Map.of("type", "belongsTo", "related_table", "artist", "foreign_key", "artist_id",
                "local_key", "artist_id")), relationships.toString());
        assertTrue(relationships.contains(Map.of("type", "hasMany", "related_table", "track", "foreign_key", "album_id",
                "local_key", "album_id")), relationships.toString());
    }

    @Test
    void findsNamesAsPostgresWouldAndNothingElse() {
        List<SchemaIntrospector.Relation> relations = introspector.relations(chinook()).await().atMost(WAIT);

        assertEquals("track", SchemaIntrospector.find(relations, "TRACK").orElseThrow().name());
        assertEquals("track", SchemaIntrospector.find(relations, "public.track").orElseThrow().name());
        assertTrue(SchemaIntrospector.find(relations, "tracks").isEmpty());
    }
}
