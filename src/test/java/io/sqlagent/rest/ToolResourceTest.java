package io.sqlagent.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.audit.AuditLog;
import io.sqlagent.audit.AuditRows;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;

@QuarkusTest
@ScriptedModel
class ToolResourceTest {

    @Inject
    AuditLog auditLog;

    @Inject
    Pool store;

    @Inject
    MeterRegistry meters;

    @Test
    void listsToolsInShortForm() {
        given().when().get("/api/tools")
                .then().statusCode(200)
                .body("name", hasItems("browse_tools", "test_echo"))
                // No workspace policy is configured here: no workspace tool is offered.
                .body("name", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem("read_file")))
                .body("find { it.name == 'test_echo' }.summary", is("Repeats a text."))
                .body("find { it.name == 'test_echo' }.parameters", nullValue());
    }

    @Test
    void listsToolsInTheFormsModelApisTake() {
        JsonPath openAi = given().queryParam("format", "openai").when().get("/api/tools").then().statusCode(200).extract()
                .jsonPath();
        JsonPath anthropic = given().queryParam("format", "anthropic").when().get("/api/tools").then().statusCode(200).extract()
                .jsonPath();

        Map<String, Object> openAiEcho = openAi.getMap("find { it.function.name == 'test_echo' }");
        Map<String, Object> anthropicEcho = anthropic.getMap("find { it.name == 'test_echo' }");
        assertEquals("function", openAiEcho.get("type"));
        @SuppressWarnings("unchecked")
        Map<String, Object> parameters = (Map<String, Object>) ((Map<String, Object>) openAiEcho.get("function"))
                .get("parameters");
        assertEquals(parameters, anthropicEcho.get("input_schema"));
        assertEquals(List.of("text", "times", "shout", "tone", "tags"),
                List.copyOf(((Map<?, ?>) parameters.get("properties")).keySet()));
    }

    @Test
    void anUnknownFormatIsABadRequest() {
        given().queryParam("format", "xml").when().get("/api/tools")
                .then().statusCode(400)
                .body("error", is("invalid_format"))
                .body("message", is("Unknown format 'xml'; use short, full, openai or anthropic"));
    }

    @Test
    void describesOneToolInFull() {
        given().when().get("/api/tools/test_echo")
                .then().statusCode(200)
                .body("name", is("test_echo"))
                .body("description", is("Repeats a text. For tests."))
                .body("parameters.properties.times.maximum", is(5))
                .body("read_only", is(true));
        given().when().get("/api/tools/no_such_tool")
                .then().statusCode(404)
                .body("error", is("unknown_tool"));
    }

    @Test
    void callsAToolAndReturnsItsResult() {
        given().contentType(ContentType.JSON)
                .body("{\"text\":\"ab\",\"times\":2,\"shout\":true,\"tone\":\"calm\",\"tags\":[\"x\"]}")
                .when().post("/api/tools/test_echo")
                .then().statusCode(200)
                .body("result.text", is("ABAB"));
    }

    @Test
    void invalidArgumentsAreA400ListingEveryProblem() {
        given().contentType(ContentType.JSON).body("{\"times\":9,\"tone\":\"angry\",\"colour\":\"red\"}")
                .when().post("/api/tools/test_echo")
                .then().statusCode(400)
                .body("error", is("invalid_arguments"))
                .body("message", startsWith("Invalid arguments for tool 'test_echo': "))
                .body("details.argument", equalTo(List.of("text", "times", "tone", "colour")))
                .body("details[0].problem", is("is required"))
                .body("details[1].problem", is("must be at most 5 (got 9)"));
    }

    @Test
    void anEmptyBodyMeansNoArguments() {
        given().when().post("/api/tools/test_echo")
                .then().statusCode(400)
                .body("details[0].argument", is("text"));
        given().when().post("/api/tools/browse_tools")
                .then().statusCode(400)
                .body("details[0].argument", is("action"));
        given().contentType(ContentType.JSON).body(" \n\t ").when().post("/api/tools/test_echo")
                .then().statusCode(400)
                .body("error", is("invalid_arguments"))
                .body("details[0].argument", is("text"));
    }

    @Test
    void malformedOrNonObjectBodiesAreBadRequestsNeverServerErrors() {
        for (String body : List.of("{", "{\"text\":", "{'text':'single quotes'}", "{\"text\":\"a\",\"text\":\"b\"}", "nope")) {
            given().contentType(ContentType.JSON).body(body).when().post("/api/tools/test_echo")
                    .then().statusCode(400)
                    .body("error", is("malformed_json"))
                    .body("message", startsWith("The body is not valid JSON: "))
                    // Only where in the body: not Jackson's description of its input.
                    .body("message", not(containsString("Source")))
                    .body("message", not(containsString("StreamReadFeature")));
        }
        given().contentType(ContentType.JSON).body("[1,2]").when().post("/api/tools/test_echo")
                .then().statusCode(400)
                .body("error", is("invalid_body"))
                .body("message", is("The body must be a JSON object of arguments, not an array"));
        given().contentType(ContentType.JSON).body("\"text\"").when().post("/api/tools/test_echo")
                .then().statusCode(400).body("message", is("The body must be a JSON object of arguments, not a string"));
        given().contentType(ContentType.JSON).body("null").when().post("/api/tools/test_echo")
                .then().statusCode(400).body("message", is("The body must be a JSON object of arguments, not null"));
    }

    @Test
    void aBodyOverTheLimitIsA413() throws Exception {
        // The service answers from Content-Length, before reading any of the body, and closes the
        // connection: the client sends the head only (a client that went on sending could see its
        // pipe broken before it reads the answer).
        String answer;
        try (java.net.Socket socket = new java.net.Socket("localhost", io.restassured.RestAssured.port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /api/tools/test_echo HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1100020\r\n\r\n{\"text\":\"xxxx")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }

        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
        assertTrue(body.contains("\"error\":\"body_too_large\""), answer);
        assertTrue(body.contains("the limit is 1048576 (sqlagent.tools.max-request-size)"), answer);
    }

    @Test
    void aBlockedCallIsA403WithTheReason() {
        given().when().post("/api/tools/test_guarded")
                .then().statusCode(403)
                .body("error", is("blocked"))
                .body("message", is("test_guarded may not be called over REST"));
    }

    @Test
    void aFailingToolIsA422WithoutInternals() {
        given().when().post("/api/tools/test_failing")
                .then().statusCode(422)
                .body("error", is("tool_failed"))
                .body("message",
                        allOf(startsWith(
                                "Tool 'test_failing' failed (IllegalStateException: connection to backend lost) [error id "),
                                not(containsString("\tat ")), not(containsString("io.sqlagent"))));
    }

    @Test
    void anUnknownToolIsA404() {
        given().contentType(ContentType.JSON).body("{}").when().post("/api/tools/drop_database")
                .then().statusCode(404)
                .body("error", is("unknown_tool"))
                .body("message", startsWith("No tool is named 'drop_database'. Available tools: "));
    }

    @Test
    void aStopIsReported() {
        given().when().post("/api/tools/test_stop")
                .then().statusCode(200)
                .body("stopped", is("enough for today"));
    }

    @Test
    void callsAreCountedAndTimedInPrometheus() {
        given().contentType(ContentType.JSON).body("{\"text\":\"m\"}").when().post("/api/tools/test_echo").then()
                .statusCode(200);
        given().when().post("/api/tools/test_failing").then().statusCode(422);

        String metrics = given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString();

        assertTrue(metrics.contains("sqlagent_tool_calls_total{caller=\"rest\",outcome=\"success\",tool=\"test_echo\""),
                metrics);
        assertTrue(metrics.contains("sqlagent_tool_calls_total{caller=\"rest\",outcome=\"failure\",tool=\"test_failing\""));
        assertTrue(metrics
                .contains("sqlagent_tool_calls_duration_seconds_count{caller=\"rest\",outcome=\"success\",tool=\"test_echo\""));
    }

    @Test
    void everyCallIsAuditedInTheStoreWithArgumentsOnlyWhenTheToolAsks() throws Exception {
        given().contentType(ContentType.JSON).body("{\"note\":\"keep me\"}").when().post("/api/tools/test_audited").then()
                .statusCode(200);
        given().contentType(ContentType.JSON).body("{\"text\":\"private words\"}").when().post("/api/tools/test_echo").then()
                .statusCode(200);
        given().when().post("/api/tools/made_up_tool").then().statusCode(404);

        Row audited = AuditRows.await(auditLog, store, "test_audited", "TRUE");
        Row echo = AuditRows.await(auditLog, store, "test_echo", "TRUE");
        Row unknown = AuditRows.await(auditLog, store, "made_up_tool", "TRUE");

        assertEquals("rest", audited.getString("caller"));
        assertEquals("success", audited.getString("outcome"));
        assertEquals("keep me", audited.getJsonObject("arguments").getString("note"));
        assertEquals("{\"noted\":\"keep me\"}".length(), audited.getInteger("result_bytes"));
        assertTrue(audited.getLong("duration_us") >= 0);
        assertEquals(null, echo.getValue("arguments"), "arguments recorded for a tool that did not ask");
        assertEquals("unknown_tool", unknown.getString("outcome"));
        assertTrue(unknown.getString("message").startsWith("No tool is named 'made_up_tool'"));
    }

    @Test
    void anArgumentWithNulIsAuditedCleanedAndTheCallsAfterItToo() throws Exception {
        double droppedBefore = dropped();

        given().contentType(ContentType.JSON).body("{\"note\":\"nul \\u0000 here\"}").when().post("/api/tools/test_audited")
                .then().statusCode(200).body("result.noted", is("nul \u0000 here"));
        given().contentType(ContentType.JSON).body("{\"note\":\"after the nul\"}").when().post("/api/tools/test_audited")
                .then().statusCode(200);
        given().when().post("/api/tools/made_up\u0000tool").then().statusCode(404);

        Row nul = AuditRows.await(auditLog, store, "test_audited", "arguments->>'note' LIKE 'nul %'");
        Row after = AuditRows.await(auditLog, store, "test_audited", "arguments->>'note' = 'after the nul'");
        Row unknown = AuditRows.await(auditLog, store, "made_up\uFFFDtool", "TRUE");

        assertEquals("nul \uFFFD here", nul.getJsonObject("arguments").getString("note"));
        assertEquals("success", after.getString("outcome"));
        assertEquals("unknown_tool", unknown.getString("outcome"));
        // A filter holding NUL finds what was stored cleaned (before: 500 with PostgreSQL's encoding error).
        given().queryParam("tool", "made_up\u0000tool").when().get("/api/audit").then().statusCode(200)
                .body("items[0].tool", is("made_up\uFFFDtool"));
        given().queryParam("principal", "no\u0000body").when().get("/api/audit").then().statusCode(200)
                .body("items", hasSize(0));
        assertEquals(droppedBefore, dropped(), "nothing was dropped");
    }

    @Test
    void aRecordTheStoreRefusesIsDroppedAndCountedWhileTheOthersAreWritten() throws Exception {
        // The store refuses one row as it would any row it cannot take: by a constraint, for this test only.
        store.query("ALTER TABLE tool_call_audit ADD CONSTRAINT test_refuse_note"
                + " CHECK (arguments->>'note' IS DISTINCT FROM 'refused by the store') NOT VALID").execute()
                .await().atMost(Duration.ofSeconds(5));
        try {
            double droppedBefore = dropped();

            given().contentType(ContentType.JSON).body("{\"note\":\"refused by the store\"}").when()
                    .post("/api/tools/test_audited")
                    .then().statusCode(200);
            given().contentType(ContentType.JSON).body("{\"note\":\"written beside it\"}").when()
                    .post("/api/tools/test_audited")
                    .then().statusCode(200);

            AuditRows.await(auditLog, store, "test_audited", "arguments->>'note' = 'written beside it'");
            auditLog.flush().await().atMost(Duration.ofSeconds(5));
            assertEquals(0L,
                    store.query("SELECT count(*) FROM tool_call_audit WHERE arguments->>'note' = 'refused by the store'")
                            .execute().await().atMost(Duration.ofSeconds(5)).iterator().next().getLong(0));
            assertEquals(droppedBefore + 1, dropped());
        } finally {
            store.query("ALTER TABLE tool_call_audit DROP CONSTRAINT test_refuse_note").execute().await()
                    .atMost(Duration.ofSeconds(5));
        }
    }

    private double dropped() {
        return meters.get("sqlagent.audit.dropped").counter().count();
    }

    @Test
    void theOpenApiDocumentDescribesTheToolEndpoints() {
        given().when().get("/q/openapi?format=json")
                .then().statusCode(200)
                .body("paths.'/api/tools'.get.summary", is("List the tools"))
                .body("paths.'/api/tools/{name}'.post.responses.keySet()", hasItems("200", "400", "403", "404", "413", "422"));
    }
}
