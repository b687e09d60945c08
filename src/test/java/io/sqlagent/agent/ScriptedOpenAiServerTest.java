package io.sqlagent.agent;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The agent's model client as the service builds it (quarkus-langchain4j's OpenAI
 * {@link StreamingChatModel}) against the scripted server: streamed text, tool calls assembled
 * from chunks, usage, what goes over the wire, and HTTP errors. The base of every agent test.
 */
@QuarkusTest
@ScriptedModel
class ScriptedOpenAiServerTest {

    final ScriptedOpenAiServer server = ScriptedModelExtension.server();

    @Inject
    StreamingChatModel model;

    private record Outcome(List<String> deltas, ChatResponse response, Throwable error) {
    }

    private Outcome chat(ChatRequest request) throws Exception {
        List<String> deltas = new CopyOnWriteArrayList<>();
        CompletableFuture<Outcome> done = new CompletableFuture<>();
        model.chat(request, new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partial) {
                deltas.add(partial);
            }

            @Override
            public void onCompleteResponse(ChatResponse response) {
                done.complete(new Outcome(deltas, response, null));
            }

            @Override
            public void onError(Throwable error) {
                done.complete(new Outcome(deltas, null, error));
            }
        });
        return done.get(20, TimeUnit.SECONDS);
    }

    @Test
    void streamsTextDeltasAndReportsUsage() throws Exception {
        server.then(text("There are ", "3503", " tracks."));

        Outcome outcome = chat(ChatRequest.builder().messages(UserMessage.from("How many tracks?")).build());

        assertEquals(List.of("There are ", "3503", " tracks."), outcome.deltas());
        assertEquals("There are 3503 tracks.", outcome.response().aiMessage().text());
        assertEquals(42, outcome.response().tokenUsage().inputTokenCount());
        assertEquals(7, outcome.response().tokenUsage().outputTokenCount());
    }

    @Test
    void assemblesToolCallsFromChunksAndSendsToolSpecificationsInOpenAiForm() throws Exception {
        server.then(toolCalls(
                call("call_1", "introspect_schema", "{\"table_name\":\"track\"}"),
                call("call_2", "run_sql", "{\"sql\":\"SELECT count(*) FROM track\"}")));
        ToolSpecification runSql = ToolSpecification.builder().name("run_sql").description("Execute a SQL query.")
                .parameters(JsonObjectSchema.builder().addStringProperty("sql", "The SQL").required("sql").build()).build();

        Outcome outcome = chat(
                ChatRequest.builder().messages(UserMessage.from("How many tracks?")).toolSpecifications(runSql).build());

        List<ToolExecutionRequest> calls = outcome.response().aiMessage().toolExecutionRequests();
        assertEquals(2, calls.size());
        assertEquals("introspect_schema", calls.get(0).name());
        assertEquals("{\"table_name\":\"track\"}", calls.get(0).arguments());
        assertEquals("call_2", calls.get(1).id());
        assertEquals("{\"sql\":\"SELECT count(*) FROM track\"}", calls.get(1).arguments());
        JsonNode sent = server.requests().get(0);
        assertEquals(true, sent.path("stream").asBoolean());
        assertEquals("scripted-model", sent.path("model").asText());
        assertEquals("function", sent.at("/tools/0/type").asText());
        assertEquals("run_sql", sent.at("/tools/0/function/name").asText());
        assertEquals("string", sent.at("/tools/0/function/parameters/properties/sql/type").asText());
        assertEquals("How many tracks?", sent.at("/messages/0/content").asText());
    }

    @Test
    void anHttpErrorFromTheModelIsReportedNotHung() throws Exception {
        server.then(new ScriptedOpenAiServer.Failure(500, "model exploded"),
                new ScriptedOpenAiServer.Failure(500, "model exploded"));

        Outcome outcome = chat(ChatRequest.builder().messages(UserMessage.from("Hi")).build());

        assertTrue(outcome.error() != null, "no error reported");
        assertTrue(String.valueOf(outcome.error().getMessage()).contains("model exploded")
                || String.valueOf(outcome.error()).contains("500"), String.valueOf(outcome.error()));
    }

    @Test
    void answersByProgramWhenTheScriptIsEmptyAfterAFixedLatencyAndTimesEachRun() throws Exception {
        Duration latency = Duration.ofMillis(150);
        server.then(text("scripted first"))
                .program(request -> text("echo: ", request.at("/messages/0/content").asText()))
                .latency(latency)
                .recordRequests(false)
                .timeRuns(request -> request.at("/messages/0/content").asText());

        long started = System.nanoTime();
        Outcome scripted = chat(ChatRequest.builder().messages(UserMessage.from("run A")).build());
        Outcome programmed = chat(ChatRequest.builder().messages(UserMessage.from("run A")).build());
        Outcome other = chat(ChatRequest.builder().messages(UserMessage.from("run B")).build());
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertEquals("scripted first", scripted.response().aiMessage().text());
        assertEquals("echo: run A", programmed.response().aiMessage().text());
        assertEquals("echo: run B", other.response().aiMessage().text());
        ScriptedOpenAiServer.ModelTime runA = server.modelTime("run A");
        assertEquals(2, runA.turns());
        assertTrue(runA.duration().compareTo(latency.multipliedBy(2)) >= 0, runA.toString());
        assertEquals(1, server.modelTime("run B").turns());
        assertTrue(runA.duration().plus(server.modelTime("run B").duration()).compareTo(elapsed) <= 0,
                "the server cannot have answered for longer than the client waited");
        assertEquals(0, server.modelTime("run C").turns());
        assertTrue(server.requests().isEmpty(), "bodies were kept");
    }

    @Test
    void twoHundredConcurrentStreamsAllCompleteOnConnectionsTheyReuse() throws Exception {
        // The REST client's SSE reader closed a streamed response's connection when the stream
        // ended; with keep-alive the pool could hand that connection to the next request first,
        // which then failed with "Connection was closed" (found by bench/chat-load.sh, one call in
        // three). StreamedConnections keeps ended connections open for the next call instead.
        server.program(request -> text("a", "b", "c")).latency(Duration.ofMillis(20)).recordRequests(false);
        int callers = 200;
        int callsEach = 3;
        ExecutorService threads = Executors.newFixedThreadPool(callers);
        try {
            List<Future<List<Throwable>>> results = new ArrayList<>();
            for (int caller = 0; caller < callers; caller++) {
                results.add(threads.submit(() -> {
                    List<Throwable> errors = new ArrayList<>();
                    for (int call = 0; call < callsEach; call++) {
                        Outcome outcome = chat(ChatRequest.builder().messages(UserMessage.from("Hi")).build());
                        if (outcome.error() != null) {
                            errors.add(outcome.error());
                        }
                    }
                    return errors;
                }));
            }
            List<Throwable> errors = new ArrayList<>();
            for (Future<List<Throwable>> result : results) {
                errors.addAll(result.get(120, TimeUnit.SECONDS));
            }

            assertEquals(List.of(), errors.stream().map(String::valueOf).toList());
            assertEquals(callers * callsEach, server.chatRequests());
            assertTrue(server.connections() < callers * callsEach,
                    server.connections() + " connections for " + server.chatRequests() + " calls");
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void callsOneAfterAnotherReuseOneConnection() throws Exception {
        server.program(request -> text("a", "b"));

        for (int call = 0; call < 10; call++) {
            assertEquals(null, chat(ChatRequest.builder().messages(UserMessage.from("Hi " + call)).build()).error());
        }

        assertEquals(10, server.chatRequests());
        assertTrue(server.connections() <= 2, server.connections() + " connections for 10 calls one after another");
    }

    @Inject
    io.sqlagent.tool.ToolRegistry registry;

    @Test
    void everyRegisteredToolReachesTheModelWithTheSamePropertiesTypesAndRequiredArguments() throws Exception {
        server.then(text("ok"));
        List<io.sqlagent.tool.ToolDescriptor> descriptors = registry.list();

        chat(ChatRequest.builder().messages(UserMessage.from("Hi")).toolSpecifications(ToolSpecifications.of(descriptors))
                .build());

        JsonNode sent = server.requests().get(0).path("tools");
        assertEquals(descriptors.size(), sent.size());
        for (int i = 0; i < descriptors.size(); i++) {
            JsonNode ours = io.sqlagent.tool.ToolFormats.openAi(descriptors.get(i)).path("function");
            JsonNode wire = sent.get(i).path("function");
            assertEquals(ours.path("name"), wire.path("name"));
            assertEquals(ours.path("description"), wire.path("description"));
            assertEquals(ours.at("/parameters/required").isMissingNode() ? 0 : ours.at("/parameters/required").size(),
                    wire.at("/parameters/required").size(), ours.path("name").asText());
            ours.at("/parameters/properties").fields().forEachRemaining(property -> {
                JsonNode sentProperty = wire.at("/parameters/properties/" + property.getKey());
                assertEquals(property.getValue().path("type").asText(), sentProperty.path("type").asText(),
                        ours.path("name").asText() + "." + property.getKey());
                assertEquals(property.getValue().path("enum"), sentProperty.path("enum"), property.getKey());
            });
        }
        JsonNode searchLimit = find(sent, "search_knowledge").at("/function/parameters/properties/limit/description");
        assertEquals("Maximum number of results to return. (at least 1, at most 20)", searchLimit.asText());
    }

    private static JsonNode find(JsonNode tools, String name) {
        for (JsonNode tool : tools) {
            if (tool.at("/function/name").asText().equals(name)) {
                return tool;
            }
        }
        throw new AssertionError("no tool " + name + " was sent");
    }
}
