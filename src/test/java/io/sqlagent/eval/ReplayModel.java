package io.sqlagent.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.ScriptedOpenAiServer.Turn;
import io.sqlagent.agent.model.ModelReplay;

/**
 * The shipped replay file ({@link ReplayScript#SHIPPED}) behind {@link ScriptedOpenAiServer#program}, so
 * the evaluations also go through the real OpenAI client: the turn comes from the last question in the
 * request and the model turns since. Judge prompts get {@code correct} when the graded answer holds 3503.
 */
public final class ReplayModel implements Function<JsonNode, Turn> {

    private static final AtomicInteger CALL_IDS = new AtomicInteger();

    private final ReplayScript script;

    private ReplayModel(ReplayScript script) {
        this.script = script;
    }

    /** The replay of the shipped Chinook set. */
    public static ReplayModel chinook() {
        return new ReplayModel(ReplayScript.read(ReplayScript.SHIPPED));
    }

    @Override
    public Turn apply(JsonNode request) {
        List<ModelReplay.Message> conversation = new ArrayList<>();
        request.path("messages").forEach(message -> conversation.add(message(message)));
        String asked = conversation.stream().filter(message -> message.role() == ModelReplay.Role.USER)
                .reduce((first, second) -> second).map(ModelReplay.Message::text).orElse("");
        if (asked.startsWith("You are grading")) {
            String graded = asked.substring(asked.indexOf("Answer to grade:"));
            boolean right = graded.contains("3503") || graded.contains("3,503");
            return ScriptedOpenAiServer
                    .text("{\"verdict\": \"" + (right ? "correct" : "incorrect") + "\", \"reason\": \"replayed\"}");
        }
        ModelReplay.Step next = script.next(conversation);
        if (next instanceof ModelReplay.Answer answer) {
            return ScriptedOpenAiServer.text(answer.text());
        }
        List<ScriptedOpenAiServer.Call> list = new ArrayList<>();
        ((ModelReplay.Calls) next).calls().forEach(call -> list.add(
                ScriptedOpenAiServer.call("replay-" + CALL_IDS.incrementAndGet(), call.tool(), call.arguments())));
        return new ScriptedOpenAiServer.ToolCalls(null, list);
    }

    private static ModelReplay.Message message(JsonNode message) {
        ModelReplay.Role role = switch (message.path("role").asText()) {
            case "user" -> ModelReplay.Role.USER;
            case "assistant" -> ModelReplay.Role.ASSISTANT;
            case "tool" -> ModelReplay.Role.TOOL;
            default -> ModelReplay.Role.OTHER;
        };
        return new ModelReplay.Message(role, message.path("content").asText());
    }
}
