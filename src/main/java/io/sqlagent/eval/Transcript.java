package io.sqlagent.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.agent.AgentEvent;

/**
 * What the agent did for one question, read from its events: the tool calls with their results,
 * the answer, and how the run ended. Built while the events arrive; read once the run is over.
 */
public final class Transcript {

    /** One tool call and how it ended. */
    public record Step(String tool, JsonNode arguments, boolean ok, String outcome, String error, long durationMs) {

        /** The SQL of a {@code run_sql} call (empty for other tools). */
        public Optional<String> sql() {
            return "run_sql".equals(tool) && arguments != null && arguments.path("sql").isTextual()
                    ? Optional.of(arguments.path("sql").asText())
                    : Optional.empty();
        }
    }

    private final String question;
    private final List<Step> steps = new ArrayList<>();
    private final List<JsonNode> pendingArguments = new ArrayList<>();
    private final List<String> pendingIds = new ArrayList<>();
    private final StringBuilder answer = new StringBuilder();
    private String conversationId;
    private AgentEvent.Done done;
    private AgentEvent.Error error;

    public Transcript(String question) {
        this.question = question;
    }

    /** Takes in the next event of the run. */
    public synchronized void add(AgentEvent event) {
        if (event instanceof AgentEvent.Conversation c) {
            conversationId = c.conversationId();
        } else if (event instanceof AgentEvent.ToolCallEvent call) {
            pendingIds.add(call.id());
            pendingArguments.add(call.arguments());
        } else if (event instanceof AgentEvent.ToolResultEvent result) {
            int index = pendingIds.indexOf(result.id());
            JsonNode arguments = index >= 0 ? pendingArguments.remove(index) : null;
            if (index >= 0) {
                pendingIds.remove(index);
            }
            steps.add(new Step(result.name(), arguments, result.ok(), result.outcome(), result.error(), result.durationMs()));
        } else if (event instanceof AgentEvent.Content content) {
            answer.append(content.delta());
        } else if (event instanceof AgentEvent.Done d) {
            done = d;
        } else if (event instanceof AgentEvent.Error e) {
            error = e;
        }
        // thinking is not graded
    }

    public String question() {
        return question;
    }

    public synchronized List<Step> steps() {
        return List.copyOf(steps);
    }

    public synchronized String answer() {
        return answer.toString();
    }

    public synchronized Optional<String> conversationId() {
        return Optional.ofNullable(conversationId);
    }

    public synchronized Optional<AgentEvent.Done> done() {
        return Optional.ofNullable(done);
    }

    public synchronized Optional<AgentEvent.Error> error() {
        return Optional.ofNullable(error);
    }

    /** The SQL of the last {@code run_sql} call that succeeded: the agent's final result. */
    public synchronized Optional<String> finalSql() {
        for (int i = steps.size() - 1; i >= 0; i--) {
            Step step = steps.get(i);
            if (step.ok() && step.sql().isPresent()) {
                return step.sql();
            }
        }
        return Optional.empty();
    }
}
