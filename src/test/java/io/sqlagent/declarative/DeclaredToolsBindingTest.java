package io.sqlagent.declarative;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;

/** Binding edge cases, fetch controls, markdown and errors of declared tools, over REST against Chinook. */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class DeclaredToolsBindingTest {

    private static ValidatableResponse call(String tool, String body) {
        return given().contentType(ContentType.JSON).body(body).when().post("/api/tools/" + tool).then();
    }

    private static int genres() {
        return call("run_sql", "{\"sql\": \"SELECT count(*) AS n FROM genre\"}").statusCode(200)
                .extract().path("result.rows[0].n");
    }

    @Test
    void namesInsideLiteralsQuotedNamesAndCommentsStayTextAndCastsStayCasts() {
        call("bind_literals", "{\"text\": \"hello\", \"number\": \"41\"}")
                .statusCode(200)
                .body("result.rows[0].literal", is(":text"))
                .body("result.rows[0].dollar", is(":text"))
                .body("result.rows[0].escaped", is("':text"))
                .body("result.rows[0].bound", is("hello"))
                .body("result.rows[0].cast_sum", is(42))
                .body("result.rows[0].':text'", is(1));
    }

    @Test
    void anInjectionAttemptIsOnlyEverAValue() {
        String attack = "x'; DROP TABLE genre; --";

        call("bind_literals", "{\"text\": \"" + attack + "\", \"number\": \"1\"}")
                .statusCode(200)
                .body("result.rows[0].bound", is(attack));
        call("bind_arrays", "{\"ids\": [1], \"names\": [\"" + attack + "\", \"Rock'); DELETE FROM genre; --\"]}")
                .statusCode(200)
                .body("result.rows.genre_id", equalTo(List.of(1)));
        call("bind_literals", "{\"text\": \"a\", \"number\": \"1; DROP TABLE genre\"}")
                .statusCode(400)
                .body("details[0].argument", is("number"));

        assertEquals(25, genres());
    }

    @Test
    void leftOutOptionalsBindAsTypedNulls() {
        call("bind_optional", "{}")
                .statusCode(200)
                .body("result.rows[0].s_null", is(true))
                .body("result.rows[0].i_null", is(true))
                .body("result.rows[0].f_null", is(true))
                .body("result.rows[0].b_null", is(true))
                .body("result.rows[0].ids_null", is(true))
                .body("result.rows[0].s_type", is("text"))
                .body("result.rows[0].i_type", is("bigint"))
                .body("result.rows[0].f_type", is("double precision"))
                .body("result.rows[0].b_type", is("boolean"))
                .body("result.rows[0].d", is("the default"));
        call("bind_optional", "{\"s\": \"\", \"i\": 7, \"f\": 2.5, \"b\": false, \"ids\": [1, 2], \"d\": \"given\"}")
                .statusCode(200)
                .body("result.rows[0].s_null", is(false))
                .body("result.rows[0].ids_null", is(false))
                .body("result.rows[0].i", is(7))
                .body("result.rows[0].f", is(2.5f))
                .body("result.rows[0].b", is(false))
                .body("result.rows[0].d", is("given"));
        call("bind_optional", "{\"s\": null}").statusCode(200).body("result.rows[0].s_null", is(true));
        call("bind_optional", "{\"maybe\": []}").statusCode(200).body("result.rows[0].maybe_null", is(true));
        call("bind_optional", "{\"maybe\": [\"x\"]}").statusCode(200).body("result.rows[0].maybe_null", is(false));
    }

    @Test
    void arraysExpandToOneParameterPerElementWithinTheirLimits() {
        call("bind_arrays", "{\"ids\": [1, 2, 3]}")
                .statusCode(200)
                .body("result.rows.genre_id", equalTo(List.of(1, 2, 3)))
                .body("result.rows.name", equalTo(List.of("Rock", "Jazz", "Metal")));
        call("bind_arrays", "{\"ids\": [4], \"names\": [\"Blues\", \"Latin\"]}")
                .statusCode(200)
                .body("result.rows.name", equalTo(List.of("Alternative & Punk", "Blues", "Latin")));
        call("bind_arrays", "{\"ids\": []}")
                .statusCode(400)
                .body("details[0].argument", is("ids"))
                .body("details[0].problem", startsWith("must have at least 1 item"));
        call("bind_arrays", "{\"ids\": [1, 2, 3, 4]}")
                .statusCode(400)
                .body("details[0].problem", startsWith("must have at most 3 items"));
        call("bind_arrays", "{\"ids\": [1, \"2\"]}").statusCode(400).body("details[0].argument", is("ids[1]"));
    }

    @Test
    void rowsToFetchCapsOneFetch() {
        call("fetch_one_page", "{}")
                .statusCode(200)
                .body("result.row_count", is(7))
                .body("result.total_rows", is(8))
                .body("result.truncated", is(true))
                .body("result.rows[6].track_id", is(7));
    }

    @Test
    void rowsToFetchIsCappedByTheCeiling() {
        call("fetch_capped", "{}")
                .statusCode(200)
                .body("result.row_count", is(1000))
                .body("result.truncated", is(true));
    }

    @Test
    void fetchAllRowsPagesUntilTheEndOrTheCeiling() {
        call("fetch_all_pages", "{\"last\": 950}")
                .statusCode(200)
                .body("result.row_count", is(950))
                .body("result.truncated", is(false))
                .body("result.rows[949].track_id", is(950));
        call("fetch_all_pages", "{\"last\": 5000}")
                .statusCode(200)
                .body("result.row_count", is(1000))
                .body("result.total_rows", is(1001))
                .body("result.truncated", is(true));
    }

    @Test
    void markdownShowsAHeaderTheRowsAndAFooter() {
        String table = call("markdown_rows", "{\"n\": 5}").statusCode(200).extract().path("result");
        assertEquals("""
                ### markdown_rows

                | genre_id | name |
                | --- | --- |
                | 1 | Rock |
                | 2 | Jazz |
                | 3 | Metal |

                _3 of 5 rows shown._
                """, table);
        String one = call("markdown_rows", "{\"n\": 1}").statusCode(200).extract().path("result");
        assertEquals("### markdown_rows\n\n| genre_id | name |\n| --- | --- |\n| 1 | Rock |\n\n_1 row._\n", one);
        String none = call("markdown_rows", "{\"n\": 0}").statusCode(200).extract().path("result");
        assertEquals("### markdown_rows\n\n_No rows._\n", none);
    }

    @Test
    void columnsThatShareANameKeepEveryValueAndEveryValueIsExact() {
        String body = call("same_names", "{\"id\": 1}").statusCode(200).extract().asString();

        assertTrue(body.contains("\"columns\":[{\"name\":\"name\",\"type\":\"character varying\",\"key\":\"name\"},"
                + "{\"name\":\"name\",\"type\":\"character varying\",\"key\":\"name_2\"},"
                + "{\"name\":\"amount\",\"type\":\"numeric\",\"key\":\"amount\"}"), body);
        assertTrue(body.contains("\"rows\":[{\"name\":\"AC/DC\",\"name_2\":\"For Those About To Rock (We Salute You)\","
                + "\"amount\":270,\"price\":2.50,\"span\":\"5 years 16 days\",\"addr\":\"192.168.0.1/24\"}]"), body);
    }

    @Test
    void aMarkdownTableShowsColumnsThatShareANameEachInItsPlace() {
        String table = call("same_names_markdown", "{\"id\": 1}").statusCode(200).extract().path("result");

        assertEquals("""
                ### same_names_markdown

                | name | name | amount | price | span | addr |
                | --- | --- | --- | --- | --- | --- |
                | AC/DC | For Those About To Rock (We Salute You) | 270 | 2.50 | 5 years 16 days | 192.168.0.1/24 |

                _1 row._
                """, table);
    }

    @Test
    void markdownEscapesCellsAndSaysWhenTheResultWasTruncated() {
        String table = call("markdown_truncated", "{}").statusCode(200).extract().path("result");
        assertEquals("""
                ### markdown_truncated

                | x\\|y | lines | nothing |
                | --- | --- | --- |
                | a\\|b | one<br>two | NULL |
                | a\\|b | one<br>two | NULL |

                _2 of the first 4 rows shown; the result was truncated at 4 rows, more exist._
                """, table);
    }

    @Test
    void aSqlErrorIsAToolFailureWithPostgresqlsMessage() {
        call("divide", "{\"d\": 0}")
                .statusCode(422)
                .body("error", is("tool_failed"))
                .body("message", startsWith("division by zero (SQLSTATE 22012)"));
        call("divide", "{\"d\": 5}").statusCode(200).body("result.rows[0].q", is(2));
    }

    @Test
    void aToolThatMayWriteRunsAndItsMetadataSaysSo() {
        call("touch_genre", "{\"id\": 1}").statusCode(200).body("result.row_count", is(0));
        given().when().get("/api/tools/touch_genre").then().statusCode(200).body("read_only", is(false));
        given().when().get("/api/tools/bind_arrays").then().statusCode(200).body("read_only", is(true));
        assertEquals(25, genres());
    }

    @Test
    void theShippedFileDoesNotLoadWhenPathsAreSet() {
        given().when().get("/api/tools/search_tracks").then().statusCode(404);
        given().queryParam("toolset", "binding").when().get("/api/tools")
                .then().statusCode(200)
                .body("name", equalTo(List.of("bind_arrays", "bind_literals", "bind_optional")));
    }
}
