package io.sqlagent.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.sql.engine.mysql.MariaDbRoles;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.sqlagent.sql.source.ExternalPostgresResource;
import io.vertx.core.MultiMap;

/**
 * The caller's role on a MariaDB source end to end, over REST and over a real MCP session: source {@code roles}
 * ({@link ExternalPostgresResource}, a pool of one connection) maps each principal's {@code db_role} attribute (as an
 * API key's attributes carry it) to a MariaDB role ({@link MariaDbRoles}' grants). Two principals see different tables
 * through {@code run_sql}, the server refusing each the other's; a caller with no identity (authentication off) runs
 * with the account's own privileges and no role; a principal without the claim, or naming a role the source does not
 * allow, is forbidden; a role the source allows but the server has not granted fails the call, naming the source and
 * the role, and nothing runs. Skipped where MariaDB cannot be had (failed under CI).
 */
@QuarkusTest
@WithTestResource(ExternalPostgresResource.class)
class MariaDbRoleClaimTest {

    private static final Map<String, String> ALICE = TestIdentities.headers("alice", "sql:read", "db_role=clerk_a");
    private static final Map<String, String> BOB = TestIdentities.headers("bob", "sql:read", "db_role=clerk_b");
    private static final Map<String, String> CAROL = TestIdentities.headers("carol", "sql:read", "pg_role=clerk_a");
    private static final Map<String, String> MALLORY = TestIdentities.headers("mallory", "sql:read", "db_role=stranger");
    private static final Map<String, String> EVE = TestIdentities.headers("eve", "sql:read", "db_role=root");
    private static final String WHO = "SELECT CURRENT_ROLE() AS r, CURRENT_USER() AS u, CONNECTION_ID() AS c";

    @BeforeEach
    void needsMariaDb() {
        Assumptions.assumeTrue(MariaDbServer.available(), "mariadbd not installed: MariaDB tests skipped");
    }

    private static ValidatableResponse runSql(Map<String, String> caller, String sql) {
        return given().headers(caller).contentType(ContentType.JSON)
                .body(SnakeCaseJson.MAPPER.valueToTree(Map.of("sql", sql, "source", "roles")).toString())
                .when().post("/api/tools/run_sql").then();
    }

    private static ValidatableResponse runSql(String sql) {
        return runSql(Map.of(), sql);
    }

    @Test
    void twoPrincipalsSeeWhatTheirRolesGrantOverRest() {
        runSql(ALICE, "SELECT a FROM role_a").statusCode(200).body("result.rows[0].a", is(MariaDbRoles.ONLY_A));
        runSql(BOB, "SELECT b FROM role_b").statusCode(200).body("result.rows[0].b", is(MariaDbRoles.ONLY_B));
        // The server refuses each the other's table, and the message names what was refused.
        runSql(ALICE, "SELECT b FROM role_b").statusCode(422).body("error", is("tool_failed"))
                .body("message", containsString("SELECT command denied")).body("message", containsString("role_b"));
        runSql(BOB, "SELECT a FROM role_a").statusCode(422).body("message", containsString("SELECT command denied"));
        int connection = runSql(ALICE, WHO).statusCode(200).body("result.rows[0].r", is("clerk_a"))
                .body("result.rows[0].u", containsString(MariaDbRoles.ACCOUNT)).extract().path("result.rows[0].c");
        runSql(BOB, WHO).statusCode(200).body("result.rows[0].r", is("clerk_b"))
                .body("result.rows[0].c", is(connection));
    }

    @Test
    void aCallerWithoutAnIdentityRunsWithNoRoleOnTheConnectionARoleJustLeft() {
        int connection = runSql(ALICE, WHO).statusCode(200).body("result.rows[0].r", is("clerk_a")).extract()
                .path("result.rows[0].c");
        // The pool's one connection, the role dropped before it came back: the account's own privileges only.
        runSql(WHO).statusCode(200).body("result.rows[0].r", nullValue()).body("result.rows[0].c", is(connection));
        runSql("SELECT id FROM role_pub").statusCode(200).body("result.rows[0].id", is(1));
        runSql("SELECT a FROM role_a").statusCode(422).body("message", containsString("SELECT command denied"));
    }

    @Test
    void aPrincipalWithoutTheClaimOrNamingARoleTheSourceDoesNotAllowIsForbidden() {
        String missing = runSql(CAROL, "SELECT id FROM role_pub").statusCode(403).body("error", is("forbidden"))
                .extract().path("message");
        assertThat(missing).contains("Source 'roles'", "MariaDB role", "'db_role' claim", "caller 'carol' has no such claim",
                "sqlagent.sources.roles.role-claim").doesNotContain("PostgreSQL");
        String refused = runSql(EVE, "SELECT id FROM role_pub").statusCode(403).body("error", is("forbidden"))
                .extract().path("message");
        assertThat(refused).contains("Caller 'eve' names the MariaDB role 'root'", "sqlagent.sources.roles.allowed-roles")
                .doesNotContain("PostgreSQL");
    }

    @Test
    void aRoleTheServerHasNotGrantedFailsTheCallAndNothingRuns() {
        // role_pub is readable without any role: the call fails because nothing ran, not because of what it read.
        String message = runSql(MALLORY, "SELECT id FROM role_pub").statusCode(422).body("error", is("tool_failed"))
                .extract().path("message");
        assertThat(message).contains("Source 'roles' could not take on the role 'stranger' that caller 'mallory' names",
                "must exist on the server and be granted to the source's account", "nothing was run")
                .doesNotContain("role-pw").doesNotContain("Exception");
        // The connection serves the next caller, without a role.
        runSql(WHO).statusCode(200).body("result.rows[0].r", nullValue());
    }

    @Test
    void twoMcpClientsSeeWhatTheirRolesGrant() throws Exception {
        McpStreamableTestClient alice = client(ALICE);
        McpStreamableTestClient bob = client(BOB);
        try {
            assertThat(firstValue(call(alice, "SELECT a FROM role_a"))).isEqualTo(MariaDbRoles.ONLY_A);
            assertThat(firstValue(call(bob, "SELECT b FROM role_b"))).isEqualTo(MariaDbRoles.ONLY_B);
            ToolResponse denied = call(bob, "SELECT a FROM role_a");
            assertThat(denied.isError()).as(denied.toString()).isTrue();
            assertThat(denied.firstContent().asText().text()).contains("SELECT command denied")
                    .doesNotContain(MariaDbRoles.ONLY_A);
            assertThat(firstValue(call(alice, "SELECT CURRENT_ROLE() AS r"))).isEqualTo("clerk_a");
        } finally {
            alice.disconnect();
            bob.disconnect();
        }
        McpStreamableTestClient carol = client(CAROL);
        try {
            ToolResponse forbidden = call(carol, "SELECT id FROM role_pub");
            assertThat(forbidden.isError()).isTrue();
            assertThat(forbidden.firstContent().asText().text()).contains("Source 'roles'", "MariaDB role");
        } finally {
            carol.disconnect();
        }
    }

    private static McpStreamableTestClient client(Map<String, String> caller) {
        return McpAssured.newStreamableClient()
                .setAdditionalHeaders(message -> MultiMap.caseInsensitiveMultiMap().addAll(caller)).build().connect();
    }

    private static ToolResponse call(McpStreamableTestClient client, String sql) {
        ToolResponse[] response = new ToolResponse[1];
        client.when().toolsCall("run_sql").withArguments(Map.of("sql", sql, "source", "roles"))
                .withAssert(r -> response[0] = r).send().thenAssertResults();
        return response[0];
    }

    private static String firstValue(ToolResponse response) throws Exception {
        assertThat(response.isError()).as(response.toString()).isFalse();
        return SnakeCaseJson.MAPPER.readTree(response.firstContent().asText().text()).at("/rows/0").elements().next()
                .asText();
    }
}
