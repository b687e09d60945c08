package io.sqlagent.eval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.sqlagent.ClasspathText;
import io.sqlagent.agent.model.ModelReplay;
import io.sqlagent.agent.model.ModelReplay.Answer;
import io.sqlagent.agent.model.ModelReplay.Call;
import io.sqlagent.agent.model.ModelReplay.Calls;
import io.sqlagent.agent.model.ModelReplay.Step;

/**
 * A replay file's recorded model turns (src/main/resources/replay/chinook.yaml shows the format): for
 * each question of an evaluation suite, the turn the model takes next, found from the question and the
 * number of model turns since it, so concurrent conversations never mix. A question of the suite with no
 * recording plays the default trajectory: run_sql with its golden SQL, then an answer quoting the result.
 */
public final class ReplayScript implements ModelReplay.Script {

    /** Where the shipped replay file is, as {@code sqlagent.model.replay-file} takes it. */
    public static final String SHIPPED = "classpath:replay/chinook.yaml";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Per question: the case's turn and its recorded steps (empty: the default trajectory). */
    private record Question(EvalCase.Turn turn, List<JsonNode> steps) {
    }

    private final Map<String, Question> questions = new HashMap<>();

    /** The replay of {@code suite}'s questions with the recordings of {@code recorded} ({@code cases} by id). */
    public ReplayScript(EvalSuite suite, JsonNode recorded) {
        for (EvalCase c : suite.cases()) {
            for (int i = 0; i < c.turns().size(); i++) {
                List<JsonNode> steps = new ArrayList<>();
                recorded.path(c.id()).path(i).forEach(steps::add);
                questions.putIfAbsent(c.turns().get(i).question(), new Question(c.turns().get(i), steps));
            }
        }
    }

    /**
     * The replay file at {@code location}: {@code classpath:<resource>} or a file path. Its {@code suite}
     * names a shipped suite, whose questions it answers.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static ReplayScript read(String location) {
        String text;
        if (location.startsWith("classpath:")) {
            String resource = location.substring("classpath:".length());
            text = ClasspathText.find(resource).orElseThrow(() -> new IllegalArgumentException(
                    "sqlagent.model.replay-file: no resource " + resource + " in the application (the shipped one is "
                            + SHIPPED + ")"));
        } else {
            try {
                text = Files.readString(Path.of(location));
            } catch (IOException | UncheckedIOException e) {
                throw new IllegalArgumentException("sqlagent.model.replay-file: cannot read " + location + ": " + e);
            }
        }
        JsonNode tree;
        try {
            tree = new YAMLMapper().readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "sqlagent.model.replay-file: " + location + " is not valid YAML: " + e.getMessage());
        }
        String suite = tree == null ? "" : tree.path("suite").asText();
        EvalSuite questions = CaseFiles.shipped(suite).orElseThrow(() -> new IllegalArgumentException(
                "sqlagent.model.replay-file: " + location + " must name a shipped suite in 'suite' (chinook), not '" + suite
                        + "'"));
        return new ReplayScript(questions, tree.path("cases"));
    }

    /**
     * The model's next turn for {@code asked} after {@code step} model turns, {@code lastToolResult} the
     * text of the last tool result since the question (for the default trajectory's answer).
     */
    @Override
    public Step next(String asked, int step, Optional<String> lastToolResult) {
        Question question = questions.get(asked.strip());
        if (question == null) {
            return new Answer("I have no recording for this question: this is the replay model, which answers only the "
                    + "questions of its replay file (docs/replay.md). Configure a model to ask anything.");
        }
        if (!question.steps().isEmpty()) {
            return step < question.steps().size() ? recorded(question.steps().get(step)) : new Answer("Done.");
        }
        if (question.turn().goldenSql().isEmpty()) {
            return new Answer(
                    "I can't do that: I only read data, and I do not change it or reveal credentials or server files.");
        }
        if (step == 0) {
            return new Calls(List.of(new Call("run_sql", JSON.createObjectNode().put("sql", question.turn().goldenSql().get())
                    .toString())));
        }
        return new Answer("The result: " + values(lastToolResult));
    }

    private static Step recorded(JsonNode step) {
        if (step.has("answer")) {
            return new Answer(step.path("answer").asText());
        }
        List<Call> calls = new ArrayList<>();
        step.path("calls").forEach(call -> calls.add(new Call(call.path("tool").asText(), call.path("arguments").toString())));
        return new Calls(calls);
    }

    /** Every value of the result the agent sent back, in order. */
    private static String values(Optional<String> toolResult) {
        if (toolResult.isEmpty()) {
            return "nothing";
        }
        List<String> values = new ArrayList<>();
        try {
            JsonNode result = JSON.readTree(toolResult.get());
            result.path("rows").forEach(row -> row.forEach(value -> values.add(value.isNull() ? "none" : value.asText())));
        } catch (IOException e) {
            return toolResult.get();
        }
        return String.join(", ", values);
    }
}
