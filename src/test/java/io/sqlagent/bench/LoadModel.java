package io.sqlagent.bench;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;

import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.agent.ScriptedOpenAiServer;

/**
 * What the scripted model answers during a load run, decided from each request: a question (the
 * last message is the user's) gets one {@code run_sql} call, a tool result gets a short answer in
 * three pieces. A conversation's first question counts the tracks; a follow-up, which carries the
 * history, asks for a small join. Every run is named by its question, which is unique.
 */
final class LoadModel {

    static final String COUNT_SQL = "SELECT count(*) AS tracks FROM track";
    static final String JOIN_SQL = "SELECT g.name AS genre, count(*) AS tracks FROM track t JOIN genre g "
            + "ON g.genre_id = t.genre_id GROUP BY g.name ORDER BY tracks DESC LIMIT 3";
    /** Model calls per question: the tool call, then the answer. */
    static final int TURNS_PER_QUESTION = 2;

    private final AtomicLong calls = new AtomicLong();

    ScriptedOpenAiServer.Turn answer(JsonNode request) {
        JsonNode messages = request.path("messages");
        JsonNode last = messages.get(messages.size() - 1);
        if ("tool".equals(last.path("role").asText())) {
            return text("The answer ", "is in the ", "result above.");
        }
        String sql = userMessages(messages) == 1 ? COUNT_SQL : JOIN_SQL;
        return toolCalls(call("call_" + calls.incrementAndGet(), "run_sql", "{\"sql\":\"" + sql + "\"}"));
    }

    /** The run a request belongs to: its last question. */
    static String runOf(JsonNode request) {
        JsonNode messages = request.path("messages");
        for (int index = messages.size() - 1; index >= 0; index--) {
            if ("user".equals(messages.get(index).path("role").asText())) {
                return messages.get(index).path("content").asText();
            }
        }
        return "";
    }

    private static int userMessages(JsonNode messages) {
        int count = 0;
        for (JsonNode message : messages) {
            if ("user".equals(message.path("role").asText())) {
                count++;
            }
        }
        return count;
    }
}
