package io.sqlagent.eval;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.SseClient;

/**
 * The shipped replay file as the model, with no model server at all: the demo question gets its answer,
 * the Chinook suite passes, and the service says which model answers.
 */
@QuarkusTest
@TestProfile(TestProfiles.Replayed.class)
class ReplayModelTest {

    @TestHTTPResource("/api/chat")
    URI chat;

    @TestHTTPResource("/api/evals/runs")
    URI runs;

    @Test
    void theDemoQuestionIsAnsweredFromTheReplayFile() throws Exception {
        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"How many tracks are there?\"}");

        assertEquals("done", result.last().name(), result.events().toString());
        assertEquals("run_sql", result.first("tool_call").data().path("name").asText());
        assertEquals(3503, result.first("tool_result").data().path("result").path("rows").path(0).path("tracks").asInt(),
                result.first("tool_result").toString());
        assertTrue(result.content().contains("3,503"), result.content());
    }

    @Test
    void aQuestionWithoutARecordingIsToldSo() throws Exception {
        SseClient.Result result = SseClient.chat(chat, "{\"question\":\"Which planet is largest?\"}");

        assertEquals("done", result.last().name(), result.events().toString());
        assertTrue(result.content().contains("no recording for this question"), result.content());
    }

    @Test
    void theInfoNamesTheReplayAsTheModel() {
        given().when().get("/api/info").then().statusCode(200)
                .body("model", is("replay (classpath:replay/chinook.yaml)"));
    }

    @Test
    void theChinookSuitePassesAtLeastNinetyPercent() throws Exception {
        String id = given().contentType(ContentType.JSON).body("{\"suite\":\"chinook\",\"concurrency\":4}").when()
                .post("/api/evals/runs").then().statusCode(202).header("Location", containsString("/api/evals/runs/"))
                .extract().path("id");
        List<SseClient.Event> events = new ArrayList<>();
        try (SseClient client = SseClient.get(URI.create(runs + "/" + id + "/events"))) {
            for (var event = client.next(); event.isPresent(); event = client.next()) {
                events.add(event.get());
            }
        }
        assertEquals("done", events.get(events.size() - 1).name(), events.toString());

        JsonPath report = given().when().get("/api/evals/runs/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals("replay (classpath:replay/chinook.yaml)", report.getString("model"));
        assertEquals(62, report.getInt("summary.total"));
        assertTrue(report.getFloat("summary.accuracy") >= 0.9f, "accuracy " + report.getFloat("summary.accuracy"));
    }

    @Test
    void aReplayFileThatCannotBeReadIsNamed() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> ReplayScript.read("target/no-such-replay.yaml"));
        assertTrue(missing.getMessage().contains("sqlagent.model.replay-file")
                && missing.getMessage().contains("target/no-such-replay.yaml"), missing.getMessage());
        IllegalArgumentException resource = assertThrows(IllegalArgumentException.class,
                () -> ReplayScript.read("classpath:replay/other.yaml"));
        assertTrue(resource.getMessage().contains("replay/other.yaml"), resource.getMessage());
        IllegalArgumentException suite = assertThrows(IllegalArgumentException.class,
                () -> ReplayScript.read("pom.xml"));
        assertTrue(suite.getMessage().contains("pom.xml"), suite.getMessage());
    }
}
