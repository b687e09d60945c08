package io.sqlagent.declarative;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.http.RawHttp;
import io.sqlagent.security.TestIdentities;
import io.sqlagent.sql.engine.mysql.MariaDbRoles;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.sqlagent.sql.run.Pause;
import io.sqlagent.sql.source.ExternalPostgresResource;

/**
 * Declared tools on MySQL/MariaDB sources ({@link ExternalPostgresResource}: {@code gadgets} and {@code music} on the
 * test MariaDB, loaded at start from {@code src/test/resources/declarative/mariadb}): the statement is read and checked
 * in MySQL's dialect as its file loads, each {@code :name} is bound as a {@code ?} mark (never spliced), and a call
 * runs like {@code run_sql} there: read-only transaction, the table policy and hidden columns, the caps, exact values.
 * A PostgreSQL tool in the same files still runs. Skipped where MariaDB cannot be had (failed under CI).
 */
@QuarkusTest
@WithTestResource(ExternalPostgresResource.class)
class DeclaredToolsOnMariaDbTest {

    @Inject
    DeclarativeTools tools;

    private Path file;

    @BeforeEach
    void needsMariaDb() {
        Assumptions.assumeTrue(MariaDbServer.available(), "mariadbd not installed: MariaDB tests skipped");
        file = Path.of(System.getProperty(ExternalPostgresResource.RELOAD_DIRECTORY)).resolve("more.yaml");
    }

    @AfterEach
    void removeTheFile() throws IOException {
        if (file != null && Files.deleteIfExists(file)) {
            assertThat(tools.reload().applied()).isTrue();
        }
    }

    private static ValidatableResponse call(String tool, Map<String, Object> arguments) {
        return call(Map.of(), tool, arguments);
    }

    private static ValidatableResponse call(Map<String, String> caller, String tool, Map<String, Object> arguments) {
        return given().headers(caller).contentType(ContentType.JSON)
                .body(SnakeCaseJson.MAPPER.valueToTree(arguments).toString())
                .when().post("/api/tools/" + tool).then();
    }

    @Test
    void aDeclaredToolBindsItsParametersOnMariaDb() {
        call("gadgets_in_price_range", Map.of("low", 20, "high", 100)).statusCode(200)
                .body("result.rows.name", is(List.of("fan", "kettle", "radio")))
                .body("result.rows.id", is(List.of(4, 2, 3)))
                // :name inside a string, a backslash-escaped one included, and in a # comment stays text.
                .body("result.rows[0].literal", is(":low"))
                .body("result.rows[0].quoted", is("\":high"));
        String body = call("gadgets_in_price_range", Map.of("low", 19.9, "high", 34.5, "pattern", "%e%", "factor", 3,
                "max_rows", 1)).statusCode(200).body("result.row_count", is(1)).extract().asString();
        // DECIMAL(10,2) keeps its digits, times a bound integer too.
        assertThat(body).contains("\"name\":\"kettle\"", "\"price\":34.50", "\"scaled\":103.50");

        // A name written twice takes its value twice; an array takes one mark per element.
        call("gadgets_by_ids", Map.of("ids", List.of(1, 3), "one", 4)).statusCode(200)
                .body("result.rows.id", is(List.of(1, 3, 4)));
        call("gadgets_by_ids", Map.of("ids", List.of(2))).statusCode(200).body("result.rows.id", is(List.of(2)));
    }

    @Test
    void parametersAreValidatedBeforeAnythingRuns() {
        call("gadgets_in_price_range", Map.of("low", -1, "high", 10)).statusCode(400)
                .body("details[0].argument", is("low"));
        call("gadgets_in_price_range", Map.of("low", 1)).statusCode(400).body("details[0].argument", is("high"));
        call("gadgets_by_ids", Map.of("ids", List.of(1, 2, 3, 4, 5, 6))).statusCode(400)
                .body("details[0].argument", is("ids"));
        call("gadget_values", Map.of("decimal", "1; DROP TABLE gadget", "big", 1, "text", "x", "flag", true))
                .statusCode(400).body("details[0].argument", is("decimal"));
    }

    @Test
    void anInjectionAttemptIsBoundAsAValue() {
        for (String attack : List.of("lamp' OR '1'='1", "lamp\\' OR 1=1 -- ", "x'; DROP TABLE gadget; -- ",
                "lamp\" OR \"1\"=\"1", "' UNION SELECT id, code, 0 FROM gadget_secret #")) {
            call("gadget_by_name", Map.of("name", attack)).statusCode(200).body("result.row_count", is(0));
        }
        call("gadget_by_name", Map.of("name", "lamp")).statusCode(200).body("result.rows[0].id", is(1));
        assertThat(MariaDbServer.get().root("SELECT count(*) FROM shop.gadget").strip())
                .isEqualTo(String.valueOf(ExternalPostgresResource.GADGETS));
    }

    @Test
    void valuesComeBackExactThroughBoundParameters() {
        String body = call("gadget_values", Map.of("decimal", "12345678901234567890.0123456789",
                "big", 9007199254740993L, "text", "A\u0000b", "flag", true)).statusCode(200)
                .body("result.rows[0].none", is(1)).extract().asString();
        assertThat(body).contains("\"d\":12345678901234567890.0123456789", "\"big\":9007199254740993",
                "\"u\":18446744073709551615", "\"day\":\"2024-02-29\"", "\"bytes\":\"0x410062\"", "\"flag\":1");
    }

    @Test
    void theCapsHoldOnADeclaredMariaDbTool() {
        call("gadgets_two_at_a_time", Map.of()).statusCode(200)
                .body("result.rows.id", is(List.of(1, 2)))
                .body("result.truncated", is(true));
    }

    @Test
    void aChinookToolOnMariaDbAnswersAsOnPostgres() {
        String table = call("music_sales_in", Map.of("country", "USA")).statusCode(200).extract().jsonPath()
                .getString("result");
        assertThat(table).contains("| USA | 523.06 | 91 |");
    }

    @Test
    void aPostgresToolBesideThemStillRuns() {
        call("shop_track", Map.of("id", 3)).statusCode(200).body("result.rows[0].name", is("song 3"));
        call("shop_track", Map.of("id", "3 OR 1=1")).statusCode(400);
    }

    @Test
    void theTablePolicyHoldsOnDeclaredMariaDbTools() {
        // Allowed columns of a table with hidden ones: answered.
        call("buyer_names", Map.of("gadget", "lamp")).statusCode(200).body("result.rows.name", is(List.of("Ann")));

        // A hidden column or a denied table, in any spelling: the file does not load, naming file, line and why.
        assertRefusedAtLoad("""
                tools:
                  buyer_emails:
                    source: gadgets
                    description: Reads a hidden column.
                    statement: SELECT `EMAIL` FROM shop.Gadget_Buyer WHERE id = :id
                    parameters:
                      - { name: id, type: integer, required: true }
                """, ":5: tools.buyer_emails.statement: the statement reads what the table policy refuses: Column "
                + "gadget_buyer.email is hidden");
        assertRefusedAtLoad("""
                tools:
                  gadget_costs:
                    source: gadgets
                    description: Reads a denied table through a view.
                    statement: SELECT name, supplier FROM gadget_supply WHERE name = :name
                    parameters:
                      - { name: name, type: string, required: true }
                """, ":5: tools.gadget_costs.statement: the statement reads what the table policy refuses: Table "
                + "gadget_cost is not available to the agent");
        call("buyer_emails", Map.of("id", 1)).statusCode(404);
    }

    @Test
    void aStatementMariaDbsCheckRefusesDoesNotLoad() {
        assertRefusedAtLoad("""
                tools:
                  server_file:
                    source: gadgets
                    description: Reads a file of the server.
                    statement: SELECT LOAD_FILE(:path) AS content
                    parameters:
                      - { name: path, type: string, required: true }
                """, ":5: tools.server_file.statement: a readOnly tool needs a single read-only query: ",
                "reads a file on the database server");
        assertRefusedAtLoad("""
                tools:
                  two_statements:
                    source: gadgets
                    description: Two statements.
                    statement: "SELECT id FROM gadget WHERE id = :id; DELETE FROM gadget"
                    parameters:
                      - { name: id, type: integer, required: true }
                """, ":5: tools.two_statements.statement: a readOnly tool needs a single read-only query: ");
        assertRefusedAtLoad("""
                tools:
                  set_variable:
                    source: gadgets
                    description: Writes a user variable.
                    statement: SELECT @seen := :id AS seen
                    parameters:
                      - { name: id, type: integer, required: true }
                """, ":5: tools.set_variable.statement: a readOnly tool needs a single read-only query: ");
        assertRefusedAtLoad("""
                tools:
                  delete_gadget:
                    source: gadgets
                    description: Deletes a gadget.
                    statement: DELETE FROM gadget WHERE id = :id
                    parameters:
                      - { name: id, type: integer, required: true }
                    security:
                      readOnly: false
                """, ": tools.delete_gadget.security.readOnly: statements that change data run on PostgreSQL sources "
                + "only; this tool's source is MariaDB");
        // What PostgreSQL's guard would allow is read in MySQL's dialect: a # starts a comment there, so :limit is text
        // and the parameter is unused.
        assertRefusedAtLoad("""
                tools:
                  pg_style:
                    source: gadgets
                    description: Written for PostgreSQL.
                    statement: "SELECT id FROM gadget # LIMIT :limit"
                    parameters:
                      - { name: limit, type: integer }
                """, "parameter 'limit' is never used in the statement");
        assertThat(MariaDbServer.get().root("SELECT count(*) FROM shop.gadget").strip())
                .isEqualTo(String.valueOf(ExternalPostgresResource.GADGETS));
    }

    @Test
    void aMariaDbSourceDeclaredInAToolFileServesItsTools() throws IOException {
        Files.writeString(file, """
                sources:
                  gadget_shop:
                    url: "%s"
                    maxPoolSize: 2
                tools:
                  cheapest_gadget:
                    source: gadget_shop
                    description: The cheapest gadget under a price.
                    statement: SELECT `name`, price FROM gadget WHERE price < :under ORDER BY price LIMIT 1
                    parameters:
                      - { name: under, type: float, required: true }
                  declared_buyer_emails:
                    source: gadget_shop
                    description: Reads a hidden column; its source is declared here, so each call is checked.
                    statement: SELECT email FROM gadget_buyer WHERE id = :id
                    parameters:
                      - { name: id, type: integer, required: true }
                """.formatted(MariaDbServer.get().agentUrl()));
        assertThat(tools.reload().applied()).isTrue();

        String body = call("cheapest_gadget", Map.of("under", 30)).statusCode(200).extract().asString();
        assertThat(body).contains("\"name\":\"lamp\"", "\"price\":19.90");
        String refused = call("declared_buyer_emails", Map.of("id", 1)).statusCode(403).body("error", is("blocked"))
                .body("message", containsString("gadget_buyer.email is hidden")).extract().asString();
        assertThat(refused).doesNotContain(ExternalPostgresResource.BUYER_EMAIL);
    }

    @Test
    void aDeclaredToolRunsUnderTheCallersMariaDbRole() throws IOException {
        // Source roles maps db_role to a MariaDB role (MariaDbRoles): the tool's statement reads a table only clerk_a's
        // role may read, so the account alone cannot check its plan as the file loads; each call runs as its caller.
        Files.writeString(file, """
                tools:
                  clerk_a_value:
                    source: roles
                    description: The value only clerk_a may read.
                    statement: SELECT a FROM role_a WHERE id = :id
                    parameters:
                      - { name: id, type: integer, required: true }
                  who_runs_it:
                    source: roles
                    description: The role a call runs under.
                    statement: SELECT CURRENT_ROLE() AS r, :n AS n
                    parameters:
                      - { name: n, type: integer, required: true }
                """);
        DeclarativeTools.Reload reload = tools.reload();
        assertThat(reload.problems()).isEmpty();
        assertThat(reload.tools()).contains("clerk_a_value", "who_runs_it");

        Map<String, String> alice = TestIdentities.headers("alice", "sql:read", "db_role=clerk_a");
        Map<String, String> bob = TestIdentities.headers("bob", "sql:read", "db_role=clerk_b");
        Map<String, String> mallory = TestIdentities.headers("mallory", "sql:read", "db_role=root");
        call(alice, "clerk_a_value", Map.of("id", 1)).statusCode(200)
                .body("result.rows[0].a", is(MariaDbRoles.ONLY_A));
        call(alice, "who_runs_it", Map.of("n", 1)).statusCode(200).body("result.rows[0].r", is("clerk_a"));
        call(bob, "who_runs_it", Map.of("n", 2)).statusCode(200).body("result.rows[0].r", is("clerk_b"));
        // Another principal on the same pooled connection: the server refuses what its role does not grant.
        String refused = call(bob, "clerk_a_value", Map.of("id", 1)).statusCode(422)
                .body("message", containsString("SELECT command denied")).extract().asString();
        assertThat(refused).doesNotContain(MariaDbRoles.ONLY_A);
        // A role the source does not allow is forbidden before anything runs.
        call(mallory, "clerk_a_value", Map.of("id", 1)).statusCode(403);
        // No identity: the account's own privileges, no role left over from the calls before.
        call(Map.of(), "who_runs_it", Map.of("n", 3)).statusCode(200).body("result.rows[0].r", nullValue());
        call(Map.of(), "clerk_a_value", Map.of("id", 1)).statusCode(422);
    }

    @Test
    void aCallerThatGoesAwayStopsADeclaredToolOnTheServer() throws Exception {
        String marker = "declared_gone_" + System.nanoTime();
        Files.writeString(file, """
                tools:
                  slow_count:
                    source: gadgets
                    description: A count that takes minutes.
                    statement: SELECT COUNT(*) AS n FROM seq_1_to_100000 a, seq_1_to_100000 b WHERE :marker <> '%s'
                    parameters:
                      - { name: marker, type: string, required: true }
                """.formatted(marker));
        assertThat(tools.reload().applied()).isTrue();
        try (RawHttp gone = RawHttp.postThenVanish(RestAssured.port, "/api/tools/slow_count", "{\"marker\":\"x\"}")) {
            awaitRunning(marker, 1, Duration.ofSeconds(10), "the statement never ran");
        }
        // KILL QUERY reaches the server long before the statement's 30 s time limit.
        awaitRunning(marker, 0, Duration.ofSeconds(5), "the declared tool's statement still runs after its caller left");
        call("gadget_by_name", Map.of("name", "lamp")).statusCode(200).body("result.rows[0].id", is(1));
    }

    /** Waits until {@code expected} statements carrying {@code marker} run on the test MariaDB. */
    private static void awaitRunning(String marker, int expected, Duration within, String failure) {
        long until = System.nanoTime() + within.toNanos();
        while (true) {
            int running = MariaDbServer.get().running(marker);
            if (running == expected) {
                return;
            }
            assertThat(System.nanoTime()).as(failure + " (" + running + " running)").isLessThan(until);
            Pause.sleep(Duration.ofMillis(100));
        }
    }

    @Test
    void aDeclaredSourceWithAnUnknownSchemeIsAProblemOfItsFile() throws IOException {
        Files.writeString(file, """
                sources:
                  odd:
                    url: "sqlserver://sa:secret-pw@127.0.0.1:1433/shop"
                """);
        DeclarativeTools.Reload reload = tools.reload();
        assertThat(reload.applied()).isFalse();
        assertThat(reload.problems().toString()).contains(file + ":3: sources.odd.url:", "'sqlserver'",
                "mariadb://host:port/database").doesNotContain("secret-pw");
    }

    @Test
    void aDeclaredMariaDbToolIsServedOverMcp() throws Exception {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        try {
            client.when().toolsList(page -> assertThat(page.findByName("gadget_by_name").inputSchema()
                    .getJsonArray("required").getList()).isEqualTo(List.of("name"))).thenAssertResults();
            client.when().toolsCall("gadget_by_name").withArguments(Map.of("name", "radio"))
                    .withAssert(response -> {
                        assertThat(response.isError()).as(response.toString()).isFalse();
                        assertThat(response.content().get(0).asText().text()).contains("\"price\":99.00");
                    }).send()
                    .toolsCall("gadget_by_name").withArguments(Map.of("name", "radio' OR '1'='1"))
                    .withAssert(response -> {
                        assertThat(response.isError()).as(response.toString()).isFalse();
                        assertThat(response.content().get(0).asText().text()).contains("\"row_count\":0");
                    }).send()
                    .thenAssertResults();
        } finally {
            client.disconnect();
        }
    }

    /**
     * Writes {@code yaml} as a tool file: the reload fails with a problem holding each of {@code expected}, changing nothing.
     */
    private void assertRefusedAtLoad(String yaml, String... expected) {
        try {
            Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        DeclarativeTools.Reload reload = tools.reload();
        assertThat(reload.applied()).isFalse();
        assertThat(reload.problems()).hasSize(1);
        assertThat(reload.problems().get(0).toString()).startsWith(file.toString()).contains(expected);
        assertThat(reload.tools()).contains("gadget_by_name", "shop_track");
    }
}
