package io.sqlagent.agent.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.TextNode;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.tool.Outcome;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolResult;

/** A turn's tool calls as the run handles them: ids, names and arguments made usable, then each matched to its result. */
class RequestedCallsTest {

    private static ToolExecutionRequest request(String id, String name, String arguments) {
        return ToolExecutionRequest.builder().id(id).name(name).arguments(arguments).build();
    }

    @Test
    void missingAndRepeatedIdsAreReplacedByUniqueOnes() {
        List<RequestedCalls.Requested> calls = RequestedCalls.normalized(List.of(request(null, "run_sql", "{}"),
                request("a", "run_sql", "{}"), request("a", "run_sql", "{}"), request(" ", "run_sql", "{}")));

        List<String> ids = calls.stream().map(RequestedCalls.Requested::id).toList();
        assertTrue(ids.get(0).startsWith("call_1_"), ids.toString());
        assertEquals("a", ids.get(1));
        assertTrue(ids.get(2).startsWith("call_3_"), ids.toString());
        assertTrue(ids.get(3).startsWith("call_4_"), ids.toString());
        assertEquals(4, Set.copyOf(ids).size(), ids.toString());
        assertEquals(ids.get(2), calls.get(2).call().id(), "the call runs under the id the model is answered with");
    }

    @Test
    void aNulInANameBecomesAReplacementCharacterAndAMissingNameIsEmpty() {
        List<RequestedCalls.Requested> calls = RequestedCalls.normalized(List.of(request("a", "run_sql\u0000", "{}"),
                request("b", null, "{}")));

        assertEquals("run_sql\uFFFD", calls.get(0).name());
        assertEquals("run_sql\uFFFD", calls.get(0).call().name());
        assertEquals("", calls.get(1).name());
    }

    @Test
    void blankOrMissingArgumentsAreAnEmptyObject() {
        List<RequestedCalls.Requested> calls = RequestedCalls.normalized(List.of(request("a", "t", ""),
                request("b", "t", null), request("c", "t", "  ")));

        calls.forEach(call -> assertEquals(SnakeCaseJson.MAPPER.createObjectNode(), call.call().arguments(), call.toString()));
        assertEquals("", calls.get(1).request().arguments());
    }

    @Test
    void argumentsThatAreNotAnObjectAreKeptWithAReasonAndShownAsSent() {
        List<RequestedCalls.Requested> calls = RequestedCalls.normalized(List.of(request("a", "run_sql", "[1]"),
                request("b", "run_sql", "{\"sql\": ")));

        assertNull(calls.get(0).call());
        assertEquals("The arguments must be a JSON object, not array; call run_sql again with an object",
                calls.get(0).malformed());
        assertEquals(TextNode.valueOf("[1]"), calls.get(0).eventArguments());
        assertNull(calls.get(1).call());
        assertTrue(calls.get(1).malformed().startsWith("The arguments are not valid JSON ("), calls.get(1).malformed());
        assertTrue(calls.get(1).malformed().endsWith("); call run_sql again with a JSON object"), calls.get(1).malformed());
    }

    @Test
    void theStoredCallsKeepTheArgumentsAsTheModelSentThem() {
        List<RequestedCalls.Requested> calls = RequestedCalls.normalized(List.of(request("a", "run_sql", "{ \"sql\" : 1 }"),
                request("b", "x", "oops")));

        assertEquals("[{\"id\":\"a\",\"name\":\"run_sql\",\"arguments\":\"{ \\\"sql\\\" : 1 }\"},"
                + "{\"id\":\"b\",\"name\":\"x\",\"arguments\":\"oops\"}]", RequestedCalls.stored(calls).toString());
    }

    @Test
    void resultsComeBackInTheOrderAskedWithMalformedAndNotOfferedCallsAnswered() {
        List<RequestedCalls.Requested> calls = RequestedCalls.normalized(List.of(request("a", "run_sql", "{}"),
                request("b", "run_sql", "[]"), request("c", "write_file", "{}"), request("d", "introspect_schema", "{}")));
        Predicate<String> offered = Set.of("run_sql", "introspect_schema")::contains;

        List<ToolCall> runnable = RequestedCalls.runnable(calls, offered);
        assertEquals(List.of("a", "d"), runnable.stream().map(ToolCall::id).toList());
        List<ToolExecution> executions = runnable.stream()
                .map(call -> new ToolExecution(call, ToolCallContext.of("agent"),
                        ToolResult.success(TextNode.valueOf(call.id())),
                        Instant.EPOCH, Duration.ofMillis(7)))
                .toList();

        List<RequestedCalls.Ended> ended = RequestedCalls.ended(calls, offered, executions,
                List.of("run_sql", "introspect_schema"));

        assertEquals(List.of("a", "b", "c", "d"), ended.stream().map(e -> e.requested().id()).toList());
        assertEquals(ToolResult.success(TextNode.valueOf("a")), ended.get(0).result());
        assertEquals(7, ended.get(0).durationMs());
        assertEquals(Outcome.INVALID_ARGUMENTS, ended.get(1).result().outcome());
        assertEquals(0, ended.get(1).durationMs());
        assertEquals(new ToolResult.Failure(Outcome.UNKNOWN_TOOL,
                "No tool named 'write_file' is offered in this chat. Available tools: run_sql, introspect_schema", List.of()),
                ended.get(2).result());
        assertEquals(ToolResult.success(TextNode.valueOf("d")), ended.get(3).result());
        assertNotEquals(ended.get(0).result(), ended.get(3).result());
    }

    @Test
    void aLongUnofferedNameIsShortenedInTheAnswer() {
        String name = "x".repeat(100);
        List<RequestedCalls.Requested> calls = RequestedCalls.normalized(List.of(request("a", name, "{}")));

        ToolResult result = RequestedCalls.ended(calls, n -> false, List.of(), List.of("run_sql")).get(0).result();

        assertTrue(((ToolResult.Failure) result).message().startsWith("No tool named '" + "x".repeat(64) + "…' is offered"),
                result.toString());
    }
}
