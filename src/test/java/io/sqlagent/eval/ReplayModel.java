package io.sqlagent.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.agent.ModelReplay;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.ScriptedOpenAiServer.Turn;

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
        JsonNode messages = request.path("messages");
        int lastUser = -1;
        for (int i = 0; i < messages.size(); i++) {
            if ("user".equals(messages.get(i).path("role").asText())) {
                lastUser = i;
            }
        }
        String asked = lastUser < 0 ? "" : messages.get(lastUser).path("content").asText();
        if (asked.startsWith("You are grading")) {
            String graded = asked.substring(asked.indexOf("Answer to grade:"));
            boolean right = graded.contains("3503") || graded.contains("3,503");
            return ScriptedOpenAiServer
                    .text("{\"verdict\": \"" + (right ? "correct" : "incorrect") + "\", \"reason\": \"replayed\"}");
        }
        int step = 0;
        Optional<String> lastTool = Optional.empty();
        for (int i = lastUser + 1; i < messages.size(); i++) {
            String role = messages.get(i).path("role").asText();
            if ("assistant".equals(role)) {
                step++;
            } else if ("tool".equals(role)) {
                lastTool = Optional.of(messages.get(i).path("content").asText());
            }
        }
        ModelReplay.Step next = script.next(asked, step, lastTool);
        if (next instanceof ModelReplay.Answer answer) {
            return ScriptedOpenAiServer.text(answer.text());
        }
        List<ScriptedOpenAiServer.Call> list = new ArrayList<>();
        ((ModelReplay.Calls) next).calls().forEach(call -> list.add(
                ScriptedOpenAiServer.call("replay-" + CALL_IDS.incrementAndGet(), call.tool(), call.arguments())));
        return new ScriptedOpenAiServer.ToolCalls(null, list);
    }
}
