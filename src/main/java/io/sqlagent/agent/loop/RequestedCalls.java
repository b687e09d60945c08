package io.sqlagent.agent.loop;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import io.sqlagent.MessageText;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.StorableText;
import io.sqlagent.tool.Outcome;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolResult;

/**
 * The tool calls of one model turn, as the run handles them: normalised (ids unique, names
 * storable, arguments parsed) and, once the runnable ones have been executed, put back in the order
 * the model asked with a result each. Pure: no I/O, no state.
 */
public final class RequestedCalls {

    private RequestedCalls() {
    }

    /**
     * A tool call the model asked for. {@code call} is the runnable call, or {@code null} when the
     * arguments are not a JSON object; then {@code malformed} says why, for the model.
     */
    record Requested(ToolExecutionRequest request, ToolCall call, String malformed) {

        String id() {
            return request.id();
        }

        String name() {
            return request.name();
        }

        /** What the {@code tool_call} event shows: the parsed object, or the raw text when it is not one. */
        JsonNode eventArguments() {
            return call != null ? call.arguments() : TextNode.valueOf(request.arguments());
        }
    }

    /** A tool call as it ended. */
    record Ended(Requested requested, ToolResult result, long durationMs) {
    }

    /** The model's calls with ids made unique and arguments parsed; malformed ones are kept to be answered with an error. */
    static List<Requested> normalized(List<ToolExecutionRequest> requests) {
        List<Requested> result = new ArrayList<>(requests.size());
        Set<String> ids = new HashSet<>();
        for (int index = 0; index < requests.size(); index++) {
            ToolExecutionRequest request = requests.get(index);
            String id = request.id();
            if (id == null || id.isBlank() || !ids.add(id)) {
                // Some OpenAI-compatible servers leave ids out; the model needs them to match results.
                id = "call_" + (index + 1) + "_" + UUID.randomUUID().toString().substring(0, 8);
                ids.add(id);
            }
            // A NUL in a name can name no tool, and PostgreSQL cannot store it: shown as U+FFFD, answered as unknown.
            String name = request.name() == null ? "" : StorableText.clean(request.name());
            String raw = request.arguments() == null ? "" : request.arguments();
            ToolExecutionRequest normalized = ToolExecutionRequest.builder().id(id).name(name).arguments(raw).build();
            result.add(parsed(normalized));
        }
        return result;
    }

    private static Requested parsed(ToolExecutionRequest request) {
        String raw = request.arguments();
        try {
            JsonNode parsed = raw.isBlank() ? SnakeCaseJson.MAPPER.createObjectNode() : SnakeCaseJson.MAPPER.readTree(raw);
            if (parsed == null || parsed.isMissingNode()) {
                parsed = SnakeCaseJson.MAPPER.createObjectNode();
            }
            if (parsed.isObject()) {
                return new Requested(request, new ToolCall(request.id(), request.name(), (ObjectNode) parsed), null);
            }
            return new Requested(request, null, "The arguments must be a JSON object, not "
                    + parsed.getNodeType().name().toLowerCase(Locale.ROOT) + "; call " + request.name()
                    + " again with an object");
        } catch (JsonProcessingException e) {
            return new Requested(request, null, "The arguments are not valid JSON (" + e.getOriginalMessage()
                    + "); call " + request.name() + " again with a JSON object");
        }
    }

    /** The calls as the conversation stores them: {@code [{"id","name","arguments"}]}, arguments as the model sent them. */
    static ArrayNode stored(List<Requested> requested) {
        ArrayNode calls = SnakeCaseJson.MAPPER.createArrayNode();
        for (Requested call : requested) {
            calls.addObject().put("id", call.id()).put("name", call.name()).put("arguments", call.request().arguments());
        }
        return calls;
    }

    /** The calls to run: well-formed, and one of the tools offered. */
    static List<ToolCall> runnable(List<Requested> requested, Predicate<String> offered) {
        return requested.stream().filter(call -> call.call() != null && offered.test(call.name())).map(Requested::call)
                .toList();
    }

    /**
     * Every call with its result, in the order asked: {@code executions} are the results of
     * {@link #runnable} in its order; a malformed call is answered with invalid arguments, one not
     * offered as an unknown tool (naming {@code toolNames}, those offered).
     */
    static List<Ended> ended(List<Requested> requested, Predicate<String> offered, List<ToolExecution> executions,
            List<String> toolNames) {
        List<Ended> ended = new ArrayList<>(requested.size());
        int next = 0;
        for (Requested call : requested) {
            if (call.call() == null) {
                ended.add(new Ended(call, ToolResult.invalidArguments(call.malformed(), List.of()), 0));
            } else if (!offered.test(call.name())) {
                ended.add(new Ended(call, notOffered(call.name(), toolNames), 0));
            } else {
                ToolExecution execution = executions.get(next++);
                ended.add(new Ended(call, execution.result(), execution.duration().toMillis()));
            }
        }
        return ended;
    }

    private static ToolResult notOffered(String name, List<String> toolNames) {
        String shown = MessageText.shorten(name, 64);
        return new ToolResult.Failure(Outcome.UNKNOWN_TOOL,
                "No tool named '" + shown + "' is offered in this chat. Available tools: " + String.join(", ", toolNames),
                List.of());
    }
}
