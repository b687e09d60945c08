package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.security.TestIdentities;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.sqlagent.sql.source.ExternalPostgresResource;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;

/**
 * The SQL tools' {@code source} argument with two PostgreSQL sources ({@link ExternalPostgresResource}): {@code default}
 * ({@code shop}, 7 tracks) and {@code stock} ({@code part}, 3 rows, callers mapped to the role their {@code pg_role}
 * names, only {@code stock_clerk} allowed), over REST and over a real MCP session.
 */
@QuarkusTest
@WithTestResource(ExternalPostgresResource.class)
class SourceArgumentTest {

    /** The sources offered: a MariaDB one too where the tests can have MariaDB ({@link ExternalPostgresResource}). */
    static final List<String> SOURCES = MariaDbServer.available()
            ? List.of("default", "flaky", "gadgets", "music", "roles", "stock")
            : List.of("default", "stock");
    static final String LABELS = "default (PostgreSQL; the default), "
            + (MariaDbServer.available() ? "flaky (MariaDB), gadgets (MariaDB), music (MariaDB), roles (MariaDB), " : "")
            + "stock (PostgreSQL)";

    private static final Map<String, String> CLERK = TestIdentities.headers("clerk", "sql:read", "pg_role=stock_clerk");
    private static final Map<String, String> NO_ROLE = TestIdentities.headers("visitor", "sql:read", null);

    private static ValidatableResponse call(String tool, Map<String, Object> arguments) {
        return call(given(), tool, arguments);
    }

    private static ValidatableResponse call(RequestSpecification request, String tool, Map<String, Object> arguments) {
        return request.contentType(ContentType.JSON).body(SnakeCaseJson.MAPPER.valueToTree(arguments).toString())
                .when().post("/api/tools/" + tool).then();
    }

    @Test
    void runSqlQueriesTheNamedSourceAndTheDefaultWithoutOne() {
        call("run_sql", Map.of("sql", "SELECT count(*) AS n FROM part", "source", "stock"))
                .statusCode(200).body("result.rows[0].n", is(ExternalPostgresResource.PARTS));
        call("run_sql", Map.of("sql", "SELECT count(*) AS n FROM track"))
                .statusCode(200).body("result.rows[0].n", is(7));
        call("run_sql", Map.of("sql", "SELECT count(*) AS n FROM track", "source", "default"))
                .statusCode(200).body("result.rows[0].n", is(7));
        // Each source is its own database: the other's table is not there.
        call("run_sql", Map.of("sql", "SELECT count(*) AS n FROM track", "source", "stock"))
                .statusCode(422).body("message", org.hamcrest.Matchers.containsString("relation \"track\" does not exist"));
    }

    @Test
    void anUnknownSourceIsAnInvalidArgumentNamingTheSourcesThatExist() {
        for (String tool : List.of("run_sql", "introspect_schema", "search_schema")) {
            Map<String, Object> arguments = switch (tool) {
                case "run_sql" -> Map.of("sql", "SELECT 1", "source", "warehouse");
                case "search_schema" -> Map.of("query", "parts", "source", "warehouse");
                default -> Map.of("source", "warehouse");
            };
            String message = call(tool, arguments).statusCode(400)
                    .body("error", is("invalid_arguments"))
                    .extract().path("message");
            assertThat(message).as(tool).contains("source").contains("must be one of: " + String.join(", ", SOURCES));
        }
    }

    @Test
    void eachToolSchemaListsTheSourcesWithTheirEngines() {
        for (String tool : List.of("run_sql", "introspect_schema", "search_schema")) {
            given().when().get("/api/tools/" + tool).then().statusCode(200)
                    .body("parameters.properties.source.enum", is(SOURCES))
                    .body("parameters.properties.source.description",
                            is("The database source to use; leave out for the default one. Sources: " + LABELS + "."))
                    .body("parameters.required", not(hasItem("source")));
        }
    }

    @Test
    void introspectionAndSchemaSearchReadTheNamedSource() {
        call("introspect_schema", Map.of("source", "stock")).statusCode(200)
                .body("result.tables", is(List.of("part")));
        call("introspect_schema", Map.of()).statusCode(200)
                .body("result.tables", is(List.of("track")));
        call("introspect_schema", Map.of("source", "stock", "table_name", "part")).statusCode(200)
                .body("result.description", is("Spare parts kept in the warehouse"))
                .body("result.columns.name", is(List.of("id", "label")));
        call("search_schema", Map.of("query", "spare parts warehouse", "source", "stock")).statusCode(200)
                .body("result.tables[0].table", is("public.part"));
        call("search_schema", Map.of("query", "spare parts warehouse")).statusCode(200)
                .body("result.tables.table", not(hasItem("public.part")));
    }

    @Test
    void aCallerTheSourceMapsRunsAsItsRoleThere() {
        call(given().headers(CLERK), "run_sql", Map.of("sql", "SELECT current_user AS acting_as, count(*) AS n FROM part",
                "source", "stock"))
                .statusCode(200)
                .body("result.rows[0].acting_as", is("stock_clerk"))
                .body("result.rows[0].n", is(ExternalPostgresResource.PARTS));
    }

    @Test
    void aCallerTheSourceRefusesIsForbiddenThroughEveryToolAndSeesNothingOfIt() {
        for (Map<String, Object> arguments : List.<Map<String, Object>> of(
                Map.of("tool", "run_sql", "sql", "SELECT label FROM part"),
                Map.of("tool", "introspect_schema"),
                Map.of("tool", "introspect_schema", "table_name", "part"),
                Map.of("tool", "search_schema", "query", "spare parts"))) {
            Map<String, Object> sent = new java.util.HashMap<>(arguments);
            String tool = (String) sent.remove("tool");
            sent.put("source", "stock");
            String body = call(given().headers(NO_ROLE), tool, sent).statusCode(403)
                    .body("error", is("forbidden"))
                    .extract().asString();
            assertThat(body).as(tool).contains("Source 'stock'").contains("pg_role").doesNotContain("bolt")
                    .doesNotContain("Spare parts").doesNotContain("\"part\"");
        }
        // The clerk's role is one the default source does not allow: forbidden there, as its statements always were.
        call(given().headers(CLERK), "run_sql", Map.of("sql", "SELECT 1 AS one")).statusCode(403)
                .body("error", is("forbidden"))
                .body("message", org.hamcrest.Matchers.containsString("which source 'default' does not allow"));
    }

    @Test
    void anMcpClientSeesTheSourcesAndQueriesEach() throws Exception {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        try {
            client.when().toolsList(page -> {
                JsonObject source = page.findByName("run_sql").inputSchema().getJsonObject("properties")
                        .getJsonObject("source");
                assertThat(source.getJsonArray("enum").getList()).isEqualTo(SOURCES);
                assertThat(source.getString("description")).contains(LABELS);
            }).thenAssertResults();

            ToolResponse parts = mcpCall(client, "run_sql", Map.of("sql", "SELECT count(*) AS n FROM part", "source", "stock"));
            assertThat(parts.isError()).as(parts.toString()).isFalse();
            assertThat(SnakeCaseJson.MAPPER.readTree(parts.firstContent().asText().text()).at("/rows/0/n").asInt())
                    .isEqualTo(ExternalPostgresResource.PARTS);

            ToolResponse unknown = mcpCall(client, "run_sql", Map.of("sql", "SELECT 1", "source", "warehouse"));
            assertThat(unknown.isError()).isTrue();
            assertThat(unknown.firstContent().asText().text()).contains("must be one of: " + String.join(", ", SOURCES));
        } finally {
            client.disconnect();
        }
    }

    @Test
    void anMcpCallerTheSourceRefusesGetsAToolErrorAndNoRows() {
        McpStreamableTestClient client = McpAssured.newStreamableClient()
                .setAdditionalHeaders(message -> MultiMap.caseInsensitiveMultiMap().addAll(NO_ROLE)).build().connect();
        try {
            ToolResponse refused = mcpCall(client, "run_sql", Map.of("sql", "SELECT label FROM part", "source", "stock"));
            assertThat(refused.isError()).isTrue();
            assertThat(refused.firstContent().asText().text()).contains("Source 'stock'").doesNotContain("bolt");
            ToolResponse listing = mcpCall(client, "introspect_schema", Map.of("source", "stock"));
            assertThat(listing.isError()).isTrue();
            assertThat(listing.firstContent().asText().text()).doesNotContain("part");
        } finally {
            client.disconnect();
        }
    }

    private static ToolResponse mcpCall(McpStreamableTestClient client, String tool, Map<String, Object> arguments) {
        ToolResponse[] response = new ToolResponse[1];
        client.when().toolsCall(tool).withArguments(arguments).withAssert(r -> response[0] = r).send().thenAssertResults();
        return response[0];
    }
}
