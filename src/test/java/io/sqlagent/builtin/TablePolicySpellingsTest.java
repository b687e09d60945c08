package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;

/**
 * The table policy holds for every way of naming a relation: each spelling of
 * {@code src/test/resources/policy/spellings.tsv} is sent to run_sql over REST, and is refused with a message naming
 * what it would read, with nothing of the denied tables' values in the answer (or answers, for the permitted ones).
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class TablePolicySpellingsTest {

    private static final String SECRET = "TOPSECRET";

    @RegisterExtension
    static final PolicyFixture POLICY = new PolicyFixture();

    private static Response runSql(String sql) {
        return given().contentType(ContentType.JSON).body(SnakeCaseJson.MAPPER.createObjectNode().put("sql", sql).toString())
                .when().post("/api/tools/run_sql");
    }

    @Test
    void everySpellingOfTheCorpusIsRefusedNamingWhatItReads() {
        List<String> cases = PolicyFixture.lines("policy/spellings.tsv");
        assertTrue(cases.size() >= 40, "the corpus has " + cases.size() + " spellings");
        List<Executable> checks = new ArrayList<>();
        for (String line : cases) {
            String[] parts = line.split("\t", 2);
            String expected = parts[0];
            String sql = parts[1];
            Response response = runSql(sql);
            String body = response.asString();
            checks.add(() -> assertFalse(body.contains(SECRET), sql + " leaked: " + body));
            if (expected.equals("ok")) {
                checks.add(() -> assertEquals(200, response.statusCode(), sql + " -> " + body));
                continue;
            }
            List<String> names = Arrays.asList(expected.substring("refused:".length()).split("\\|"));
            checks.add(() -> assertEquals(403, response.statusCode(), sql + " -> " + body));
            checks.add(() -> assertEquals("blocked", response.jsonPath().getString("error"), sql + " -> " + body));
            checks.add(() -> assertTrue(names.stream().anyMatch(response.jsonPath().getString("message")::contains),
                    sql + " should name " + names + ": " + body));
        }
        assertAll(checks);
    }

    @Test
    void aPermittedParentAnswersOnlyWithOnly() {
        Response response = runSql("SELECT note FROM ONLY open_parent");
        assertEquals(200, response.statusCode(), response.asString());
        assertEquals(List.of("open-parent"), response.jsonPath().getList("result.rows.note"));
    }
}
