package io.sqlagent.agent;

import static io.restassured.RestAssured.given;
import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The agent end to end: the real langchain4j OpenAI client against the scripted server, the real
 * tools on the embedded Chinook database, the SSE read from the wire.
 */
@QuarkusTest
@ScriptedModel
class AgentChatTest {

    @TestHTTPResource("/api/chat")
    URI chat;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    @jakarta.inject.Inject
    io.vertx.mutiny.sqlclient.Pool store;

    static String ask(String question) {
        return "{\"question\":\"" + question + "\"}";
    }

    static String ask(String question, String conversationId) {
        return "{\"question\":\"" + question + "\",\"conversation_id\":\"" + conversationId + "\"}";
    }

    /** The messages of the n-th request the model received. */
    private JsonNode messages(int request) {
        return model.requests().get(request).path("messages");
    }

    private static List<String> toolNames(JsonNode request) {
        List<String> names = new ArrayList<>();
        request.path("tools").forEach(tool -> names.add(tool.path("function").path("name").asText()));
        return names;
    }

    @Test
    void introspectsRunsSqlOnChinookAndAnswers() throws Exception {
        model.then(toolCalls(call("c1", "introspect_schema", "{\"table_name\":\"track\"}")),
                toolCalls(call("c2", "run_sql", "{\"sql\":\"SELECT count(*) AS tracks FROM track\"}")),
                text("There are ", "3503 tracks."));

        SseClient.Result result = SseClient.chat(chat, ask("How many tracks are there?"));

        assertEquals(200, result.status());
        assertTrue(result.contentType().startsWith("text/event-stream"), result.contentType());
        assertEquals(List.of("conversation", "tool_call", "tool_result", "tool_call", "tool_result", "content", "done"),
                result.names(), result.events().toString());
        SseClient.Event introspect = result.named("tool_call").get(0);
        assertEquals("c1", introspect.data().path("id").asText());
        assertEquals("introspect_schema", introspect.data().path("name").asText());
        assertEquals("track", introspect.data().path("arguments").path("table_name").asText());
        SseClient.Event schema = result.named("tool_result").get(0);
        assertTrue(schema.data().path("ok").asBoolean());
        SseClient.Event count = result.named("tool_result").get(1);
        assertEquals("run_sql", count.data().path("name").asText());
        assertEquals(3503, count.data().path("result").path("rows").get(0).path("tracks").asInt(), count.toString());
        assertTrue(count.data().path("duration_ms").isIntegralNumber());
        assertEquals("There are 3503 tracks.", result.content());
        JsonNode done = result.last().data();
        assertEquals(3, done.path("iterations").asInt());
        assertEquals("answer", done.path("stop_reason").asText());
        assertEquals(3 * 42, done.path("usage").path("input_tokens").asInt());
        assertEquals(3 * 7, done.path("usage").path("output_tokens").asInt());

        // What the model saw: the system prompt, the question and the tools; then each tool's result.
        JsonNode first = model.requests().get(0);
        assertEquals("system", first.path("messages").get(0).path("role").asText());
        assertTrue(first.path("messages").get(0).path("content").asText().contains("save_learning"));
        assertEquals("How many tracks are there?", first.path("messages").get(1).path("content").asText());
        assertTrue(toolNames(first).containsAll(List.of("run_sql", "introspect_schema", "search_knowledge", "save_learning",
                "save_validated_query")), toolNames(first).toString());
        assertFalse(toolNames(first).contains("browse_tools"));
        JsonNode third = messages(2);
        JsonNode sqlResult = third.get(third.size() - 1);
        assertEquals("tool", sqlResult.path("role").asText());
        assertEquals("c2", sqlResult.path("tool_call_id").asText());
        assertTrue(sqlResult.path("content").asText().contains("3503"), sqlResult.toString());

        // The conversation is stored, step by step.
        JsonPath stored = given().when().get("/api/conversations/" + result.conversationId()).then().statusCode(200)
                .extract().jsonPath();
        assertEquals(List.of("user", "assistant", "tool", "assistant", "tool", "assistant"), stored.getList("messages.role"));
        assertEquals("There are 3503 tracks.", stored.getString("messages[5].content"));
        assertEquals("run_sql", stored.getString("messages[3].tool_calls[0].name"));
        assertEquals("success", stored.getString("messages[4].outcome"));
        assertEquals("answer", stored.getString("runs[0].outcome"));
        assertEquals(3, stored.getInt("runs[0].iterations"));
        assertEquals("How many tracks are there?", stored.getString("title"));
    }

    @Test
    void columnsThatShareANameReachTheEventAndTheModelWithEveryValue() throws Exception {
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT ar.name, t.name, 2.50::numeric(5,2) AS price "
                + "FROM artist ar JOIN album al USING (artist_id) JOIN track t USING (album_id) ORDER BY t.track_id LIMIT 1\"}")),
                text("AC/DC."));

        SseClient.Result result = SseClient.chat(chat, ask("Who made the first track?"));

        JsonNode event = result.first("tool_result").data();
        assertEquals("AC/DC", event.path("result").path("rows").get(0).path("name").asText(), event.toString());
        assertEquals("For Those About To Rock (We Salute You)",
                event.path("result").path("rows").get(0).path("name_2").asText());
        assertEquals("name_2", event.path("result").path("columns").get(1).path("key").asText());
        String seenByModel = messages(1).get(messages(1).size() - 1).path("content").asText();
        assertTrue(seenByModel.contains("\"rows\":[{\"name\":\"AC/DC\",\"name_2\":\"For Those About To Rock (We Salute You)\","
                + "\"price\":2.50}]"), seenByModel);
    }

    @Test
    void aFollowUpQuestionSeesTheConversationSoFar() throws Exception {
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT count(*) AS n FROM artist\"}")), text("275 artists."));
        SseClient.Result first = SseClient.chat(chat, ask("How many artists?"));
        String conversation = first.conversationId();

        model.then(text("Of those, 204 have albums."));
        SseClient.Result second = SseClient.chat(chat, ask("And how many of them have albums?", conversation));

        assertEquals(conversation, second.conversationId());
        assertEquals("answer", second.last().data().path("stop_reason").asText());
        JsonNode sent = messages(2);
        List<String> roles = new ArrayList<>();
        sent.forEach(m -> roles.add(m.path("role").asText()));
        assertEquals(List.of("system", "user", "assistant", "tool", "assistant", "user"), roles);
        assertEquals("How many artists?", sent.get(1).path("content").asText());
        assertEquals("275 artists.", sent.get(4).path("content").asText());
        assertEquals("And how many of them have albums?", sent.get(5).path("content").asText());
        JsonPath stored = given().when().get("/api/conversations/" + conversation).then().statusCode(200).extract().jsonPath();
        assertEquals(2, stored.getList("runs").size());
        assertEquals(6, stored.getList("messages").size());
    }

    @Test
    void anUnknownConversationIs404() {
        given().contentType("application/json").body(ask("Hello?", "00000000-0000-0000-0000-000000000000"))
                .when().post("/api/chat").then().statusCode(404).contentType("application/json")
                .body("error", is("conversation_not_found"))
                .body("message", containsString("00000000-0000-0000-0000-000000000000"));
        assertTrue(model.requests().isEmpty());
    }

    @Test
    void aLongAnswerStreamsAsItComesAndTextBeforeToolCallsIsThinking() throws Exception {
        String sentence = "Chinook has many tracks across its genres, and rock is by far the largest of them all here. ";
        model.then(
                toolCalls("Let me count the tracks first.", call("c1", "run_sql", "{\"sql\":\"SELECT count(*) FROM track\"}")),
                text(sentence, sentence, sentence, "The end."));

        SseClient.Result result = SseClient.chat(chat, ask("Tell me about the tracks"));

        assertEquals(List.of("conversation", "thinking", "tool_call", "tool_result", "content", "content", "content", "done"),
                result.names(), result.events().toString());
        assertEquals("Let me count the tracks first.", result.first("thinking").data().path("delta").asText());
        // Held until 160 characters (two sentences), then sent as it comes.
        assertEquals(sentence + sentence, result.named("content").get(0).data().path("delta").asText());
        assertEquals(sentence, result.named("content").get(1).data().path("delta").asText());
        assertEquals(sentence + sentence + sentence + "The end.", result.content());
    }

    @Test
    void sqlErrorIsLearnedFromAndTheRetrySucceeds() throws Exception {
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT trackname FROM track LIMIT 1\"}")),
                toolCalls(call("c2", "save_learning", "{\"title\":\"Track names are in track.name\",\"description\":"
                        + "\"The track table calls its title column name, not trackname\",\"category\":\"schema_fix\","
                        + "\"sql\":\"SELECT name FROM track LIMIT 1\"}")),
                toolCalls(call("c3", "run_sql", "{\"sql\":\"SELECT name FROM track ORDER BY track_id LIMIT 1\"}")),
                text("The first track is For Those About To Rock (We Salute You)."));

        SseClient.Result result = SseClient.chat(chat, ask("What is the first track called?"));

        List<SseClient.Event> results = result.named("tool_result");
        assertFalse(results.get(0).data().path("ok").asBoolean());
        assertEquals("failure", results.get(0).data().path("outcome").asText());
        assertTrue(results.get(0).data().path("error").asText().contains("column \"trackname\" does not exist"),
                results.get(0).toString());
        assertTrue(results.get(1).data().path("ok").asBoolean(), results.get(1).toString());
        assertEquals("schema_fix", results.get(1).data().path("result").path("category").asText());
        assertEquals("For Those About To Rock (We Salute You)",
                results.get(2).data().path("result").path("rows").get(0).path("name").asText());
        assertEquals("answer", result.last().data().path("stop_reason").asText());
        // The model got PostgreSQL's message with the position.
        JsonNode second = messages(1);
        String error = second.get(second.size() - 1).path("content").asText();
        assertTrue(error.contains("42703") && error.contains("at character"), error);

        // Both learnings are searchable: the one the model saved and the one learned from the recovered error.
        JsonPath found = awaitLearning("trackname", "column \"trackname\" does not exist");
        assertTrue(found.getList("result.learnings.title").contains("Track names are in track.name"), found.prettify());
        // Provenance: who saved each, in which conversation.
        var rows = store.preparedQuery(
                "SELECT title, source, conversation_id, created_at FROM learning WHERE conversation_id = $1 ORDER BY id")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(result.conversationId())).await()
                .atMost(java.time.Duration.ofSeconds(5));
        List<String> provenance = new ArrayList<>();
        rows.forEach(row -> provenance.add(row.getString("source") + ": " + row.getString("title")));
        assertEquals(List.of("agent: Track names are in track.name", "auto: column \"trackname\" does not exist"), provenance);
        // The same mistake again is not learned twice.
        model.then(toolCalls(call("d1", "run_sql", "{\"sql\":\"SELECT trackname FROM track\"}")),
                toolCalls(call("d2", "run_sql", "{\"sql\":\"SELECT name FROM track LIMIT 1\"}")), text("Done."));
        SseClient.chat(chat, ask("What is a track called?"));
        Thread.sleep(500); // the auto-learning is saved behind the call; give a duplicate the time to appear
        JsonPath again = searchLearnings("trackname");
        assertEquals(1,
                again.getList("result.learnings.title").stream().filter("column \"trackname\" does not exist"::equals).count(),
                again.prettify());
    }

    private static JsonPath searchLearnings(String query) {
        return given().contentType("application/json").body("{\"query\":\"" + query + "\",\"type\":\"learnings\",\"limit\":20}")
                .when().post("/api/tools/search_knowledge").then().statusCode(200).extract().jsonPath();
    }

    /** Waits (at most 10 s) for the auto-learning, saved behind the tool call. */
    private static JsonPath awaitLearning(String query, String title) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            JsonPath found = searchLearnings(query);
            int index = found.getList("result.learnings.title").indexOf(title);
            if (index >= 0) {
                assertEquals("schema_fix", found.getString("result.learnings[" + index + "].category"));
                assertTrue(found.getString("result.learnings[" + index + "].sql").contains("SELECT name FROM track"));
                return found;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no auto-learning titled " + title + " in " + found.prettify());
            }
            Thread.sleep(100);
        }
    }

    @Test
    void theSameValidatedQuestionTwiceIsAnErrorTheModelSees() throws Exception {
        String save = "{\"name\":\"tracks_per_genre_test\",\"question\":\"How many tracks are in each genre?\","
                + "\"sql\":\"SELECT g.name, count(*) FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name\","
                + "\"summary\":\"Track count per genre\",\"tables_used\":[\"track\",\"genre\"]}";
        model.then(toolCalls(call("s1", "save_validated_query", save)), text("Saved."));
        SseClient.Result first = SseClient.chat(chat, ask("Remember how to count tracks per genre"));
        assertTrue(first.first("tool_result").data().path("ok").asBoolean(), first.events().toString());

        model.then(
                toolCalls(call("s2", "save_validated_query", save.replace("tracks_per_genre_test", "tracks_per_genre_again"))),
                text("It was already known."));
        SseClient.Result second = SseClient.chat(chat, ask("Remember it again"));

        SseClient.Event refused = second.first("tool_result");
        assertFalse(refused.data().path("ok").asBoolean());
        assertTrue(refused.data().path("error").asText().toLowerCase().contains("already"), refused.toString());
        JsonNode sent = messages(3);
        assertTrue(sent.get(sent.size() - 1).path("content").asText().contains("\"error\""));
        assertEquals("answer", second.last().data().path("stop_reason").asText());
        JsonPath patterns = given().contentType("application/json")
                .body("{\"query\":\"tracks in each genre\",\"type\":\"patterns\",\"limit\":20}")
                .when().post("/api/tools/search_knowledge").then().statusCode(200).extract().jsonPath();
        assertTrue(patterns.getList("result.query_patterns.name").contains("tracks_per_genre_test"));
        assertFalse(patterns.getList("result.query_patterns.name").contains("tracks_per_genre_again"));
    }

    @Test
    void malformedArgumentsAndUnknownToolsAreFailuresTheModelCanFix() throws Exception {
        model.then(toolCalls(call("m1", "run_sql", "{\"sql\": SELECT"), call("m2", "drop_database", "{}"),
                call("m3", "run_sql", "{\"query\":\"SELECT 1\"}")), text("Sorry, fixed."));

        SseClient.Result result = SseClient.chat(chat, ask("Break things"));

        List<SseClient.Event> results = result.named("tool_result");
        assertEquals(3, results.size());
        assertEquals("invalid_arguments", results.get(0).data().path("outcome").asText());
        assertTrue(results.get(0).data().path("error").asText().contains("not valid JSON"));
        assertEquals("{\"sql\": SELECT", result.named("tool_call").get(0).data().path("arguments").asText());
        assertEquals("unknown_tool", results.get(1).data().path("outcome").asText());
        assertEquals("invalid_arguments", results.get(2).data().path("outcome").asText());
        assertTrue(results.get(2).data().path("error").asText().contains("sql"), results.get(2).toString());
        assertEquals("answer", result.last().data().path("stop_reason").asText());
        JsonNode sent = messages(1);
        assertEquals(3, java.util.stream.StreamSupport.stream(sent.spliterator(), false)
                .filter(m -> m.path("role").asText().equals("tool")).count());
    }

    @Test
    void severalCallsInOneTurnAllRunAndAToolCanStopTheRun() throws Exception {
        model.then(toolCalls(call("p1", "introspect_schema", "{}"), call("p2", "search_knowledge", "{\"query\":\"revenue\"}")),
                toolCalls(call("p3", "test_stop", "{}")));

        SseClient.Result result = SseClient.chat(chat, ask("Look around"));

        List<SseClient.Event> results = result.named("tool_result");
        assertEquals(List.of("p1", "p2", "p3"), results.stream().map(e -> e.data().path("id").asText()).toList());
        assertTrue(results.get(0).data().path("ok").asBoolean());
        assertTrue(results.get(1).data().path("ok").asBoolean());
        assertEquals("stopped", results.get(2).data().path("outcome").asText());
        assertEquals("enough for today", results.get(2).data().path("error").asText());
        assertEquals("stopped", result.last().data().path("stop_reason").asText());
        assertEquals(2, model.requests().size());
    }

    @Test
    void aLargeToolResultIsCutInTheEventButNotForTheModel() throws Exception {
        model.then(
                toolCalls(call("l1", "run_sql", "{\"sql\":\"SELECT track_id, name FROM track ORDER BY track_id LIMIT 200\"}")),
                text("Listed."));

        SseClient.Result result = SseClient.chat(chat, ask("List tracks"));

        JsonNode event = result.first("tool_result").data();
        assertTrue(event.path("truncated").asBoolean(), event.toString());
        assertTrue(event.path("result").isTextual());
        assertTrue(event.path("result").asText().length() < 2100);
        JsonNode sent = messages(1);
        JsonNode rows = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(sent.get(sent.size() - 1).path("content").asText());
        assertEquals(200, rows.path("rows").size());
    }

    @Test
    void clientErrorsOfTheModelServerAreErrorEventsToo() throws Exception {
        // 429 is retried, then model_rate_limited (ModelFaultsTest).
        for (int status : new int[] { 400, 401, 403 }) {
            model.then(new ScriptedOpenAiServer.Failure(status, "refused with " + status));
            SseClient.Result result = SseClient.chat(chat, ask("Status " + status + "?"));
            assertEquals(List.of("conversation", "error"), result.names());
            assertEquals("model_error", result.last().data().path("code").asText());
            assertTrue(result.last().data().path("message").asText().contains("HTTP " + status), result.last().toString());
        }
    }

    @Test
    void aModelServerErrorEndsTheRunWithAnErrorEvent() throws Exception {
        // Every retry fails the same way (ModelFaultsTest has the retries).
        model.program(request -> new ScriptedOpenAiServer.Failure(500, "the model is on fire"));

        SseClient.Result result = SseClient.chat(chat, ask("Anyone there?"));

        assertEquals(List.of("conversation", "error"), result.names());
        JsonNode error = result.last().data();
        assertEquals("model_unavailable", error.path("code").asText());
        assertTrue(error.path("message").asText().contains("500"), error.toString());
        assertTrue(error.path("message").asText().contains("the model is on fire"), error.toString());
        assertFalse(error.toString().contains("test-key"), "the API key never reaches the client");
        JsonPath stored = given().when().get("/api/conversations/" + result.conversationId()).then().statusCode(200)
                .extract().jsonPath();
        assertEquals("error", stored.getString("runs[0].outcome"));
        assertEquals("model_unavailable", stored.getString("runs[0].error_code"));
    }

    private static double metric(String prefix) {
        String text = given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString();
        return text.lines().filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void runsIterationsAndTokensAreCounted() throws Exception {
        double answered = metric("sqlagent_agent_runs_total{outcome=\"answer\"");
        double input = metric("sqlagent_agent_tokens_total{type=\"input\"");
        double output = metric("sqlagent_agent_tokens_total{type=\"output\"");
        double iterations = metric("sqlagent_agent_iterations_sum");
        double errors = metric("sqlagent_agent_runs_total{outcome=\"error\"");
        model.then(toolCalls(call("k1", "run_sql", "{\"sql\":\"SELECT 1 AS one\"}")), text("One."));
        SseClient.chat(chat, ask("One?"));
        model.then(new ScriptedOpenAiServer.Failure(503, "overloaded"));
        SseClient.chat(chat, ask("Two?"));

        assertEquals(answered + 1, metric("sqlagent_agent_runs_total{outcome=\"answer\""));
        assertEquals(errors + 1, metric("sqlagent_agent_runs_total{outcome=\"error\""));
        assertEquals(input + 2 * 42, metric("sqlagent_agent_tokens_total{type=\"input\""));
        assertEquals(output + 2 * 7, metric("sqlagent_agent_tokens_total{type=\"output\""));
        assertEquals(iterations + 3, metric("sqlagent_agent_iterations_sum"));
    }

    @jakarta.inject.Inject
    io.sqlagent.tool.ToolRegistry registry;

    @Test
    void aChatThatNamesToolsetsOffersOnlyTheirToolsAndRunsNoOther() throws Exception {
        registry.replaceGroup("chat-test", List.of(), List.of(
                new io.sqlagent.tool.Toolset("chat_test_schema", "Schema only", null, List.of("introspect_schema"),
                        "chat-test")));
        try {
            model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT 1 AS one\"}")),
                    text("I may only look at the schema."));

            SseClient.Result result = SseClient.chat(chat,
                    "{\"question\":\"Count the tracks\",\"toolsets\":[\"chat_test_schema\"]}");

            assertEquals(List.of("introspect_schema"), toolNames(model.requests().get(0)));
            JsonNode refused = result.first("tool_result").data();
            assertEquals("unknown_tool", refused.path("outcome").asText());
            assertTrue(
                    refused.path("error").asText().contains("No tool named 'run_sql' is offered in this chat. Available tools: "
                            + "introspect_schema"),
                    refused.toString());
            assertEquals("answer", result.first("done").data().path("stop_reason").asText());
        } finally {
            registry.replaceGroup("chat-test", List.of(), List.of());
        }
    }

    /** The description the model was given for {@code tool} in the n-th request, or null when it was not offered. */
    private String offeredDescription(int request, String tool) {
        for (JsonNode offered : model.requests().get(request).path("tools")) {
            if (offered.path("function").path("name").asText().equals(tool)) {
                return offered.path("function").path("description").asText();
            }
        }
        return null;
    }

    @Test
    void theToolsOfferedFollowTheRegistryFromOneChatToTheNext() throws Exception {
        io.sqlagent.tool.ToolRegistration first = io.sqlagent.tool.ToolRegistration
                .of(io.sqlagent.tool.FakeTool.returning("chat_test_late", "one"));
        io.sqlagent.tool.Tool second = io.sqlagent.tool.FakeTool.returning("chat_test_late", "two");
        io.sqlagent.tool.ToolRegistration replaced = new io.sqlagent.tool.ToolRegistration(new io.sqlagent.tool.ToolDescriptor(
                "chat_test_late", "The replaced tool.", second.descriptor().parameters(), java.util.Optional.empty(),
                java.util.Optional.empty(), second.descriptor().metadata()), () -> second);
        try {
            model.then(text("Before."));
            SseClient.chat(chat, ask("Which tools?"));
            registry.replaceGroup("chat-test-late", List.of(first), List.of());
            model.then(text("Added."));
            SseClient.chat(chat, ask("Which tools now?"));
            registry.replaceGroup("chat-test-late", List.of(replaced), List.of());
            model.then(text("Replaced."));
            SseClient.chat(chat, ask("And now?"));
            registry.replaceGroup("chat-test-late", List.of(), List.of());
            model.then(text("Removed."));
            SseClient.chat(chat, ask("And at last?"));

            assertEquals(null, offeredDescription(0, "chat_test_late"));
            assertEquals("Fake tool chat_test_late. For tests.", offeredDescription(1, "chat_test_late"));
            assertEquals("The replaced tool.", offeredDescription(2, "chat_test_late"));
            assertEquals(null, offeredDescription(3, "chat_test_late"));
            assertTrue(toolNames(model.requests().get(3)).contains("run_sql"));
        } finally {
            registry.replaceGroup("chat-test-late", List.of(), List.of());
        }
    }
}
