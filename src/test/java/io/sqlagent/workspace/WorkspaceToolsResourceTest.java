package io.sqlagent.workspace;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;

/** The workspace tools as the service offers them: listed and callable over REST once a policy is set, refusals as 403. */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class WorkspaceToolsResourceTest {

    static final WorkspaceFixture workspace = WorkspaceFixture.shared();

    private static io.restassured.response.ValidatableResponse call(String tool, Object... nameValues) {
        var body = SnakeCaseJson.MAPPER.createObjectNode();
        for (int i = 0; i < nameValues.length; i += 2) {
            body.put((String) nameValues[i], (String) nameValues[i + 1]);
        }
        return given().contentType(ContentType.JSON).body(body.toString()).when().post("/api/tools/" + tool).then().log()
                .ifValidationFails();
    }

    @Test
    void theToolsAreListedWithTheContractsDescriptions() {
        given().when().get("/api/tools?format=openai").then().statusCode(200)
                .body("function.name", hasItems("sql_query", "read_file", "write_file", "vector_search", "vector_manage"));
        given().when().get("/api/tools/sql_query").then().statusCode(200)
                .body("description", is("Run a read-only SQL query against a local SQLite database."))
                .body("parameters.required", hasItems("db_path", "query"));
    }

    @Test
    void callsWorkAndRefusalsAre403WithNothingTouchedOutside() throws Exception {
        String checksum = WorkspaceFixture.sha256(workspace.chinook);

        call("sql_query", "db_path", workspace.chinook.toString(), "query", "SELECT count(*) AS n FROM Album").statusCode(200)
                .body("result.rows[0][0]", is(347));
        call("sql_query", "db_path", workspace.chinook.toString(), "query", "DROP TABLE Album").statusCode(403)
                .body("error", is("blocked"));
        call("read_file", "path", workspace.data.resolve("readme.txt").toString()).statusCode(200)
                .body("result", is("Grüße from the workspace\n"));
        call("read_file", "path", workspace.data.resolve("../outside/secret.txt").toString()).statusCode(403)
                .body("message", startsWith(
                        "'" + workspace.data.resolve("../outside/secret.txt") + "' is outside what read_file may use"));
        call("write_file", "path", workspace.notes.resolve("a.txt").toString(), "content", "hello").statusCode(200)
                .body("result.bytes", is(5));
        call("write_file", "path", workspace.notes.resolve("escape/pwned.txt").toString(), "content", "x").statusCode(403);
        call("read_file", "path", workspace.data.resolve("missing.txt").toString()).statusCode(422)
                .body("message", startsWith("No file or directory"));

        assertEquals(checksum, WorkspaceFixture.sha256(workspace.chinook));
        assertFalse(Files.exists(workspace.outside.resolve("pwned.txt")));
    }

    @Test
    void badVectorDocumentsAreInvalidArgumentsNamingEachPath() {
        given().contentType(ContentType.JSON).body("""
                {"collection": "notes", "operation": "insert",
                 "documents": [{"text": "a", "embedding": [1, "two"]}, {"text": "b", "colour": "red"}]}""")
                .when().post("/api/tools/vector_manage")
                .then().statusCode(400)
                .body("error", is("invalid_arguments"))
                .body("message", startsWith("Invalid arguments for tool 'vector_manage': documents[0].embedding[1] "))
                .body("details.argument", is(List.of("documents[0].embedding[1]", "documents[1].colour")))
                .body("details[0].problem", is("must be a number, not a string"));
    }
}
