package io.sqlagent.eval;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.AgentEvent;
import io.sqlagent.agent.loop.AgentService;

/**
 * The optional LLM judge (off unless a run or {@code sqlagent.eval.judge} asks for it): the model
 * grades an answer against the question and the reference result with a rubric in the spirit of
 * FLEX (is the answer faithful to the reference data, complete for what was asked, free of
 * invented facts). It goes through {@link AgentService} like every model call of the service, so
 * no other package talks to the model; the rubric tells it not to call tools.
 */
@ApplicationScoped
public class Judge {

    static final String RUBRIC = """
            You are grading a data assistant's answer. Do not call any tool. Judge only from what is below.
            Criteria: (1) faithful: every figure and name in the answer agrees with the reference result;
            (2) complete: it answers what was asked; (3) no invented facts. Small rounding differences are fine.
            Reply with one JSON object and nothing else: {"verdict": "correct" | "incorrect", "reason": "<one sentence>"}.

            Question: %s
            Reference result: %s
            Answer to grade: %s""";

    /**
     * The judge reads an answer the agent wrote, which may say anything; holding no scope, it is offered no tool, so
     * nothing it is told can read a source.
     */
    static final Caller JUDGE = Caller.of(Caller.INTERNAL + "eval-judge", Set.of(), Map.of());

    private final AgentService agent;

    Judge(AgentService agent) {
        this.agent = agent;
    }

    /** The judge's grade; a reply that is not the asked-for JSON fails with the reply quoted. */
    public Uni<Grade> grade(String question, String reference, String answer) {
        StringBuilder reply = new StringBuilder();
        return agent
                .start(RUBRIC.formatted(question, reference, answer), Optional.empty(),
                        JUDGE)
                .flatMap(start -> start.events()
                        .onItem().invoke(event -> {
                            if (event instanceof AgentEvent.Content content) {
                                reply.append(content.delta());
                            }
                        })
                        .collect().last())
                .map(last -> verdict(reply.toString()));
    }

    static Grade verdict(String reply) {
        int open = reply.indexOf('{');
        int close = reply.lastIndexOf('}');
        try {
            JsonNode json = open >= 0 && close > open ? SnakeCaseJson.MAPPER.readTree(reply.substring(open, close + 1)) : null;
            String verdict = json == null ? "" : json.path("verdict").asText();
            String reason = json == null ? "" : json.path("reason").asText();
            if ("correct".equals(verdict)) {
                return Grade.pass("The judge: " + reason);
            }
            if ("incorrect".equals(verdict)) {
                return Grade.fail("The judge: " + reason);
            }
        } catch (java.io.IOException e) {
            // falls through: not the JSON asked for
        }
        return Grade.fail("The judge did not answer with a verdict: " + reply.substring(0, Math.min(reply.length(), 200)));
    }
}
