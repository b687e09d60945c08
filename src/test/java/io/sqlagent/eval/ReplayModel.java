package io.sqlagent.eval;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.ScriptedOpenAiServer.Turn;

/**
 * A model that answers each Chinook case from a recorded script ({@code evals/chinook-replay.yaml}),
 * for {@link ScriptedOpenAiServer#program}: it finds the case and turn by the last question in the
 * request, and the step by the model turns since. Concurrent cases never mix, since everything it
 * needs is in the request. Judge prompts get {@code correct} when the graded answer holds 3503.
 */
public final class ReplayModel implements Function<JsonNode, Turn> {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger CALL_IDS = new AtomicInteger();

    /** Per question: the case's turn and its recorded steps (empty: the default trajectory). */
    private record Question(EvalCase.Turn turn, List<JsonNode> steps) {
    }

    private final Map<String, Question> questions = new HashMap<>();

    public ReplayModel(EvalSuite suite) {
        JsonNode recorded;
        try (InputStream in = ReplayModel.class.getResourceAsStream("/evals/chinook-replay.yaml")) {
            recorded = new YAMLMapper().readTree(in).path("cases");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (EvalCase c : suite.cases()) {
            for (int i = 0; i < c.turns().size(); i++) {
                List<JsonNode> steps = new ArrayList<>();
                recorded.path(c.id()).path(i).forEach(steps::add);
                questions.putIfAbsent(c.turns().get(i).question(), new Question(c.turns().get(i), steps));
            }
        }
    }

    /** The replay of the shipped Chinook set. */
    public static ReplayModel chinook() {
        return new ReplayModel(CaseFiles.shipped("chinook").orElseThrow());
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
            boolean right = asked.substring(asked.indexOf("Answer to grade:")).contains("3503")
                    || asked.substring(asked.indexOf("Answer to grade:")).contains("3,503");
            return ScriptedOpenAiServer
                    .text("{\"verdict\": \"" + (right ? "correct" : "incorrect") + "\", \"reason\": \"replayed\"}");
        }
        int step = 0;
        JsonNode lastTool = null;
        for (int i = lastUser + 1; i < messages.size(); i++) {
            String role = messages.get(i).path("role").asText();
            if ("assistant".equals(role)) {
                step++;
            } else if ("tool".equals(role)) {
                lastTool = messages.get(i);
            }
        }
        Question question = questions.get(asked);
        if (question == null) {
            return ScriptedOpenAiServer.text("I have no recording for this question.");
        }
        if (!question.steps().isEmpty()) {
            return step < question.steps().size() ? recorded(question.steps().get(step)) : ScriptedOpenAiServer.text("Done.");
        }
        if (question.turn().goldenSql().isEmpty()) {
            return ScriptedOpenAiServer
                    .text("I can't do that: I only read data, and I do not change it or reveal credentials or server files.");
        }
        if (step == 0) {
            String arguments = JSON.createObjectNode().put("sql", question.turn().goldenSql().get()).toString();
            return ScriptedOpenAiServer.toolCalls(ScriptedOpenAiServer.call(callId(), "run_sql", arguments));
        }
        return ScriptedOpenAiServer.text("The result: " + values(lastTool));
    }

    private static Turn recorded(JsonNode step) {
        if (step.has("answer")) {
            return ScriptedOpenAiServer.text(step.path("answer").asText());
        }
        List<ScriptedOpenAiServer.Call> calls = new ArrayList<>();
        step.path("calls").forEach(call -> calls.add(ScriptedOpenAiServer.call(callId(), call.path("tool").asText(),
                call.path("arguments").toString())));
        return new ScriptedOpenAiServer.ToolCalls(null, calls);
    }

    private static String callId() {
        return "replay-" + CALL_IDS.incrementAndGet();
    }

    /** Every value of the result the agent sent back, in order. */
    private static String values(JsonNode toolMessage) {
        if (toolMessage == null) {
            return "nothing";
        }
        List<String> values = new ArrayList<>();
        try {
            JsonNode result = JSON.readTree(toolMessage.path("content").asText());
            result.path("rows").forEach(row -> row.forEach(value -> values.add(value.isNull() ? "none" : value.asText())));
        } catch (IOException e) {
            return toolMessage.path("content").asText();
        }
        return String.join(", ", values);
    }
}
