package io.sqlagent.declarative;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.yaml.YamlProblem;

/** Reloading the tool files: a good change swaps every declared tool at once, a bad one keeps the previous tools. */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class DeclaredToolsReloadTest {

    private static final Path FILE = DeclaredToolsFiles.RELOAD_DIR.resolve("reload.yaml");

    @Inject
    DeclarativeTools tools;

    @Inject
    ToolRegistry registry;

    @AfterEach
    void restoreTheFirstVersion() throws IOException {
        Files.deleteIfExists(DeclaredToolsFiles.RELOAD_DIR.resolve("second.yml"));
        Files.writeString(FILE, DeclaredToolsFiles.FIRST_VERSION);
        assertTrue(tools.reload().applied());
    }

    private static int version() {
        return given().contentType(ContentType.JSON).body("{}").when().post("/api/tools/reload_probe")
                .then().statusCode(200).extract().path("result.rows[0].version");
    }

    @Test
    void aGoodReloadSwapsAllDeclaredToolsAtOnce() throws IOException {
        List<ToolRegistry.Change> changes = new CopyOnWriteArrayList<>();
        registry.onChange(changes::add);
        assertEquals(1, version());

        Files.writeString(FILE, """
                tools:
                  reload_probe:
                    source: default
                    description: Says which version of the file is in effect.
                    statement: SELECT 2 AS version
                  reload_added:
                    source: default
                    description: Arrived with the second version.
                    statement: SELECT :word AS echoed
                    parameters:
                      - { name: word, type: string, required: true }
                toolsets:
                  reloaded:
                    tools: [reload_probe, reload_added]
                """);
        DeclarativeTools.Reload reload = tools.reload();

        assertTrue(reload.applied(), reload.problems().toString());
        assertTrue(reload.tools().containsAll(List.of("reload_probe", "reload_added", "bind_literals")));
        assertEquals(2, version());
        given().contentType(ContentType.JSON).body("{\"word\": \"hi\"}").when().post("/api/tools/reload_added")
                .then().statusCode(200).body("result.rows[0].echoed", is("hi"));
        given().queryParam("toolset", "reloaded").when().get("/api/tools").then().statusCode(200).body("size()", is(2));
        // The watcher may have applied the same files first; either way listeners heard of the new tool.
        assertTrue(changes.stream().anyMatch(change -> change.added().contains("reload_added")
                && change.replaced().contains("reload_probe")), changes.toString());

        Files.writeString(FILE, DeclaredToolsFiles.FIRST_VERSION);
        assertTrue(tools.reload().applied());
        given().contentType(ContentType.JSON).body("{}").when().post("/api/tools/reload_added").then().statusCode(404);
        given().queryParam("toolset", "reloaded").when().get("/api/tools").then().statusCode(400);
        assertTrue(changes.stream().anyMatch(change -> change.removed().contains("reload_added")), changes.toString());
    }

    @Test
    void aBadReloadKeepsThePreviousToolsAndSaysWhy() throws IOException {
        Files.writeString(FILE, """
                tools:
                  reload_probe:
                    source: default
                    description: Says which version of the file is in effect.
                    statement: SELECT 3 AS version
                  reload_broken:
                    source: nowhere
                    description: Names an unknown source.
                    statement: SELECT :missing
                """);
        DeclarativeTools.Reload reload = tools.reload();

        assertFalse(reload.applied());
        assertEquals(List.of(FILE + ":7: tools.reload_broken.source: unknown source 'nowhere'; known sources: default",
                FILE + ":9: tools.reload_broken.statement: the statement uses :missing but no parameter is named 'missing'"),
                reload.problems().stream().map(YamlProblem::toString).toList());
        assertEquals(1, version());
        given().when().get("/api/tools/reload_broken").then().statusCode(404);
        given().when().get("/api/tools/bind_literals").then().statusCode(200);
    }

    @Test
    void aNameTakenByAnotherFileIsABadReload() throws IOException {
        Files.writeString(DeclaredToolsFiles.RELOAD_DIR.resolve("second.yml"), """
                tools:
                  bind_arrays:
                    source: default
                    description: Clashes with the binding fixtures.
                    statement: SELECT 1
                """);

        DeclarativeTools.Reload reload = tools.reload();

        assertFalse(reload.applied());
        assertTrue(reload.problems().get(0).toString().contains("tools.bind_arrays: tool 'bind_arrays' is already declared at "
                + "src/test/resources/declarative/binding/binding.yaml:"), reload.problems().toString());
    }

    @Test
    void aDeclaredSourceJoinsTheSourcesWithItsOwnPoolAndReadiness() throws IOException {
        var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        String url = config.getValue("sqlagent.sources.default.url", String.class);
        String user = config.getValue("sqlagent.sources.default.username", String.class);
        Files.writeString(DeclaredToolsFiles.RELOAD_DIR.resolve("second.yml"), """
                sources:
                  demo_copy:
                    url: %s
                    user: ${SQLAGENT_TEST_UNSET_USER:%s}
                    maxPoolSize: 2
                tools:
                  count_on_copy:
                    source: demo_copy
                    description: Counts the artists through the declared source.
                    statement: SELECT count(*) AS artists FROM artist
                """.formatted(url, user));

        assertTrue(tools.reload().applied());

        given().contentType(ContentType.JSON).body("{}").when().post("/api/tools/count_on_copy")
                .then().statusCode(200).body("result.rows[0].artists", is(275));
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("checks.find { it.name == 'sqlagent sources' }.data.demo_copy", is("UP"));

        Files.delete(DeclaredToolsFiles.RELOAD_DIR.resolve("second.yml"));
        assertTrue(tools.reload().applied());
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("checks.find { it.name == 'sqlagent sources' }.data.demo_copy", org.hamcrest.Matchers.nullValue());
    }

    @Test
    void theWatcherReloadsChangedFiles() throws Exception {
        Files.writeString(FILE, DeclaredToolsFiles.FIRST_VERSION.replace("SELECT 1", "SELECT 4"));

        long deadline = System.currentTimeMillis() + 15_000;
        while (version() != 4 && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }

        assertEquals(4, version());
    }

    @Test
    void aBadFileAtStartFailsWithEveryProblemListed() {
        DeclaredToolsException failure = assertThrows(DeclaredToolsException.class, () -> {
            DeclarationReader.Result result = DeclarationReader.read(
                    ToolFiles.read(List.of("src/test/resources/declarative/bad/values.yaml",
                            "src/test/resources/declarative/bad/unknown-source.yaml")),
                    new DeclarationReader.Context(java.util.Set.of("default"), java.util.Set.of(), SqlGuard.defaults(),
                            name -> null));
            throw new DeclaredToolsException(result.problems());
        });

        assertEquals(8, failure.problems().size());
        assertTrue(failure.getMessage().startsWith("The tool files have 8 problem(s):"), failure.getMessage());
        assertTrue(failure.getMessage().contains("bad/unknown-source.yaml:3: tools.lost_tool.source: unknown source 'nowhere'"),
                failure.getMessage());
    }
}
