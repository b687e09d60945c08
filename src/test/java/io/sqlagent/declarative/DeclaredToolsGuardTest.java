package io.sqlagent.declarative;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;

/**
 * A read-only declared tool passes the same guard as run_sql: it cannot read the credential
 * catalogs either, though the embedded source connects as a superuser, while its own
 * placeholders (which the tool binds) are fine.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class DeclaredToolsGuardTest {

    private static final Path FILE = DeclaredToolsFiles.RELOAD_DIR.resolve("guard.yml");

    @Inject
    DeclarativeTools tools;

    @AfterEach
    void removeTheFile() throws IOException {
        Files.deleteIfExists(FILE);
        assertTrue(tools.reload().applied());
    }

    @Test
    void aReadOnlyToolOverACredentialCatalogIsNotLoaded() throws IOException {
        Files.writeString(FILE, """
                tools:
                  role_passwords:
                    source: default
                    description: Reads password hashes.
                    statement: SELECT rolname, rolpassword FROM pg_catalog.pg_authid WHERE rolname = :role
                    parameters:
                      - { name: role, type: string, required: true }
                """);

        DeclarativeTools.Reload reload = tools.reload();

        assertFalse(reload.applied());
        assertTrue(reload.problems().toString().contains(FILE + ":5: tools.role_passwords.statement: a readOnly tool needs a "
                + "single read-only query: Table pg_catalog.pg_authid is not available to the agent, whatever its database "
                + "role: it holds credentials (password hashes)"), reload.problems().toString());
        given().contentType(ContentType.JSON).body("{\"role\": \"postgres\"}").when().post("/api/tools/role_passwords")
                .then().statusCode(404);
    }

    @Test
    void aReadOnlyToolWithItsOwnParametersAndNamedArgumentsLoadsAndRuns() throws IOException {
        Files.writeString(FILE, """
                tools:
                  years_from_now:
                    source: default
                    description: Adds years to a date.
                    statement: SELECT (DATE '2000-01-01' + make_interval(years := :years::int))::date::text AS day
                    parameters:
                      - { name: years, type: integer, required: true }
                """);

        DeclarativeTools.Reload reload = tools.reload();

        assertTrue(reload.applied(), reload.problems().toString());
        given().contentType(ContentType.JSON).body("{\"years\": 3}").when().post("/api/tools/years_from_now")
                .then().log().ifValidationFails().statusCode(200)
                .body("result.rows[0].day", org.hamcrest.Matchers.is("2003-01-01"));
    }
}
