package io.sqlagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.run.QueryResult;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;

/**
 * Wide values are cut by PostgreSQL to what the answer keeps ({@code max-cell-chars}), so a call's memory follows
 * what it keeps: three callers at once, each reading a row of ten 3 MB values of every kind that is cut (text,
 * varchar, multi-byte text, bytea, json, jsonb), get each value cut exactly as the service cuts it, on a statement's
 * first run (its rows as {@code to_json}) and on later ones (each column as text), as the service and as a caller
 * with a mapped role; values at and around the cap come whole or cut as before.
 */
@QuarkusTest
@ScriptedModel
class WideValuesTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    // 3 MB: a thousand times the cap and more; at 15 MB three calls ran 21 s on a quiet 2-core machine, past the 30 s
    // statement timeout under a CI load (the 50 MB case below keeps a value past Jackson's 20 million characters)
    private static final int WIDE = 3_000_000;

    @Inject
    QueryRunner runner;

    @Inject
    SourceRegistry sources;

    @Inject
    SqlConfig config;

    private Source chinook() {
        return sources.find("default").orElseThrow();
    }

    @BeforeEach
    void roles() {
        DatabaseRolesTest.representativeRoles(chinook());
    }

    private static Caller rep(int rep) {
        return Caller.of("rep" + rep + "@example.com", Set.of("sql:read"), Map.of("pg_role", "support_rep_" + rep));
    }

    /** Ten 15 MB values of the kinds PostgreSQL cuts, each with a tag of its own so no two calls share a text. */
    private static String tenWideValues(String tag) {
        return """
                SELECT '%2$s' || repeat('a', %1$d) AS plain, repeat('é', %1$d)::varchar AS accented,
                       repeat('ü', %1$d) AS "two", decode(repeat('ab', %1$d / 2), 'hex') AS bytes,
                       to_json(repeat('q"', %1$d / 2)) AS json_string, json_build_array(repeat('z', %1$d)) AS json_array,
                       to_jsonb(repeat('y', %1$d)) AS jsonb_string, jsonb_build_object('k', repeat('w', %1$d)) AS jsonb_object,
                       repeat('b', %1$d) AS b, repeat('c', %1$d) AS "two", 42 AS small""".formatted(WIDE, tag);
    }

    @Test
    void threeCallsAtOnceOfTenWideValuesEachAnswerCut() {
        String tag = "t" + System.nanoTime();
        String statement = tenWideValues(tag);
        for (int run = 0; run < 2; run++) {
            // Given three callers, two principals with mapped roles and the service, asking at once
            List<Uni<QueryResult>> calls = new ArrayList<>();
            calls.add(runner.run(chinook(), statement, rep(3)));
            calls.add(runner.run(chinook(), statement, rep(4)));
            calls.add(runner.run(chinook(), statement));
            // When all three answer
            List<QueryResult> results = Uni.join().all(calls).andFailFast().await().atMost(WAIT);
            // Then each value is cut as the service cuts it: its first characters and what was left out
            for (QueryResult result : results) {
                assertWideRowCut(result, tag, "run " + (run + 1));
            }
        }
    }

    private void assertWideRowCut(QueryResult result, String tag, String run) {
        int cap = config.maxCellChars();
        JsonNode row = result.rowObjects().get(0);
        assertEquals(1, result.rowCount(), run);
        assertFalse(result.truncated(), run);
        assertEquals(cut(tag + "a".repeat(cap), tag.length() + WIDE, cap), row.get("plain").asText(), run + ": text");
        assertCut("é", WIDE, row.get("accented"), cap, run);
        assertCut("ü", WIDE, row.get("two"), cap, run);
        assertEquals(cut("\\x" + "ab".repeat(cap), 2 + WIDE, cap), row.get("bytes").asText(), run + ": bytea as hex");
        assertEquals(cut("q\"".repeat(cap), WIDE, cap), row.get("json_string").asText(), run + ": a json string, decoded");
        assertEquals(cut("[\"" + "z".repeat(cap), WIDE + 4, cap), row.get("json_array").asText(),
                run + ": a json array's text");
        assertCut("y", WIDE, row.get("jsonb_string"), cap, run);
        assertEquals(cut("{\"k\": \"" + "w".repeat(cap), WIDE + 9, cap), row.get("jsonb_object").asText(),
                run + ": a jsonb object's text");
        assertCut("b", WIDE, row.get("b"), cap, run);
        assertCut("c", WIDE, row.get("two_2"), cap, run);
        assertEquals(42, row.get("small").asInt(), run);
    }

    @Test
    void valuesAroundTheCapComeWholeOrCutAsBefore() {
        // Given values at the cap, one past it, and values longer than the cap only in bytes, in JSON escapes or in
        // UTF-16 units (which the service counts), in the same row as a wide one (so the row's JSON is taken apart)
        int cap = config.maxCellChars();
        String statement = """
                SELECT repeat('x', %1$d) AS at_cap, repeat('x', %1$d + 1) AS past_cap, repeat('é', %1$d) AS accented,
                       to_json(repeat('"', %1$d)) AS escaped, repeat('😀', %1$d - 1) AS astral,
                       ('  ' || json_build_array(repeat('s', %1$d))::text || ' ')::json AS spaced,
                       ARRAY[repeat('r', %1$d)] AS arr, 3.14159::numeric AS pi, NULL::text AS nothing,
                       repeat('v', 3 * %1$d) AS wide""".formatted(cap);
        for (Caller caller : List.of(Caller.service(), rep(5))) {
            for (int run = 0; run < 2; run++) {
                // When it is read, on a first and a later run, as the service and as a mapped role
                JsonNode row = runner.run(chinook(), statement, caller).await().atMost(WAIT).rowObjects().get(0);
                String as = caller.name() + ", run " + (run + 1);
                // Then what fits comes whole, and what does not is cut as the service always cut it
                assertEquals("x".repeat(cap), row.get("at_cap").asText(), as);
                assertEquals("x".repeat(cap) + marker(1), row.get("past_cap").asText(), as);
                assertEquals("é".repeat(cap), row.get("accented").asText(), as);
                assertEquals("\"".repeat(cap), row.get("escaped").asText(), as);
                String astral = "😀".repeat(cap - 1);
                assertEquals(astral.substring(0, cap) + marker(astral.length() - cap), row.get("astral").asText(), as);
                String spaced = "[\"" + "s".repeat(cap) + "\"]";
                assertEquals(spaced.substring(0, cap) + marker(spaced.length() - cap), row.get("spaced").asText(), as);
                String arr = "[\"" + "r".repeat(cap) + "\"]";
                assertEquals(arr.substring(0, cap) + marker(arr.length() - cap), row.get("arr").asText(), as);
                assertEquals("3.14159", row.get("pi").toString(), as);
                assertTrue(row.get("nothing").isNull(), as);
                assertEquals("v".repeat(cap) + marker(2L * cap), row.get("wide").asText(), as);
            }
        }
    }

    @Test
    void aValueOfFiftyMillionCharactersIsCutForAMappedRole() {
        // Jackson's string limit (20 million characters) once failed this call for a caller with a mapped role
        for (int run = 0; run < 2; run++) {
            JsonNode value = runner.run(chinook(), "SELECT repeat('x', 50000000) AS big", rep(3)).await().atMost(WAIT)
                    .rowObjects().get(0).get("big");
            int cap = config.maxCellChars();
            assertEquals("x".repeat(cap) + marker(50_000_000L - cap), value.asText(), "run " + (run + 1));
        }
    }

    private static void assertCut(String character, int length, JsonNode value, int cap, String run) {
        assertEquals(cut(character.repeat(cap), length, cap), value.asText(), run + ": " + character + " x " + length);
    }

    private static String cut(String prefix, long length, int cap) {
        return prefix.substring(0, cap) + marker(length - cap);
    }

    private static String marker(long more) {
        return "…[cut: " + more + " more characters]";
    }
}
