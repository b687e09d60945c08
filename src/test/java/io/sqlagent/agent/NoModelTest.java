package io.sqlagent.agent;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.sqlagent.TestProfiles;

/**
 * No model configured: the service runs, the tools work, a chat gets one error event naming the settings. It runs in
 * {@link TestProfiles.Restricted}, which has no scripted model, so the shipped model settings hold (the table it counts
 * is one the profile allows).
 */
@QuarkusTest
@TestProfile(TestProfiles.Restricted.class)
class NoModelTest {

    @TestHTTPResource("/api/chat")
    URI chat;

    @Test
    void aChatGetsOneErrorEventNamingTheSettings() throws Exception {
        SseClient.Result result = SseClient.chat(chat, AgentChatTest.ask("How many tracks?"));

        assertEquals(200, result.status());
        assertEquals(List.of("error"), result.names());
        assertEquals("model_not_configured", result.last().data().path("code").asText());
        String message = result.last().data().path("message").asText();
        assertTrue(message.contains("quarkus.langchain4j.openai.api-key")
                && message.contains("QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL"), message);
    }

    @Test
    void theToolsStillWorkAndTheServiceIsReady() {
        given().contentType("application/json").body("{\"sql\":\"SELECT count(*) AS n FROM track\"}")
                .when().post("/api/tools/run_sql").then().statusCode(200).body("result.rows[0].n", is(3503));
        given().when().get("/q/health/ready").then().statusCode(200);
    }
}
