package io.sqlagent.agent.conversation;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.MessageText;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.StorableText;
import io.sqlagent.store.StoreMigrations;
import io.sqlagent.store.StoreSchemaUnavailableException;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Conversations in the store ({@code conversation}, {@code conversation_message},
 * {@code conversation_run}): created by a run's first question, appended to as the run goes, read
 * back as history for a follow-up and as a whole by {@code GET /api/conversations/{id}}.
 */
@ApplicationScoped
public class ConversationStore {

    /**
     * A conversation with its first question, in one statement (one round trip): the message's foreign key is
     * checked at the end of the statement, when the conversation is there.
     */
    private static final String INSERT_CONVERSATION = """
            WITH started AS (INSERT INTO conversation (id, principal, title) VALUES ($1, $2, $3))
            INSERT INTO conversation_message (conversation_id, run_id, role, content) VALUES ($1, $4, 'user', $5)""";

    /**
     * Whose conversations these are, as stored: conversations from before owners were recorded
     * belong to the anonymous caller, which is who could reach them then.
     */
    private static final String OWNER = "coalesce(principal, '" + Caller.ANONYMOUS + "')";

    private static final String EXISTS = """
            SELECT 1 FROM conversation WHERE id = $1 AND %s = $2""".formatted(OWNER);

    private static final String CONVERSATION = """
            SELECT id, title, created_at, updated_at FROM conversation WHERE id = $1 AND %s = $2""".formatted(OWNER);

    private static final String HISTORY = """
            SELECT role, content, tool_calls::text AS tool_calls, tool_call_id, tool_name, outcome, duration_ms
            FROM conversation_message WHERE conversation_id = $1 ORDER BY id DESC LIMIT $2""";

    /**
     * {@code tool_calls} goes in and comes out as JSON text ({@code ::text}), which the store parses and writes: the
     * SQL client's own JSON values would be a Vert.x tree written from and read into the service's Jackson tree, a
     * parse and a write more per message each way.
     */
    private static final String INSERT_MESSAGE = """
            INSERT INTO conversation_message
                (conversation_id, run_id, role, content, tool_calls, tool_call_id, tool_name, outcome, duration_ms)
            VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7, $8, $9)""";

    /** A finished run, and the conversation marked as updated, in one statement: atomic, and one round trip. */
    private static final String INSERT_RUN = """
            WITH recorded AS (
                INSERT INTO conversation_run
                    (id, conversation_id, question, started_at, duration_ms, iterations, input_tokens, output_tokens,
                     outcome, error_code)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10))
            UPDATE conversation SET updated_at = now() WHERE id = $2""";

    private static final String MESSAGES = """
            SELECT run_id, role, content, tool_calls::text AS tool_calls, tool_call_id, tool_name, outcome, duration_ms,
                created_at
            FROM conversation_message WHERE conversation_id = $1 ORDER BY id""";

    private static final String RUNS = """
            SELECT id, question, started_at, duration_ms, iterations, input_tokens, output_tokens, outcome, error_code
            FROM conversation_run WHERE conversation_id = $1 ORDER BY started_at""";

    /** One page of an owner's conversations, newest first; the cursor's ($3, $4) when given. */
    private static final String LIST = """
            SELECT id, title, created_at, updated_at FROM conversation
            WHERE %s = $1 AND ($3::timestamptz IS NULL OR (updated_at, id) < ($3::timestamptz, $4::uuid))
            ORDER BY updated_at DESC, id DESC LIMIT $2""".formatted(OWNER);

    private final Pool store;
    private final StoreMigrations migrations;

    ConversationStore(Pool store, StoreMigrations migrations) {
        this.store = store;
        this.migrations = migrations;
    }

    /**
     * One stored message.
     *
     * @param role {@code user}, {@code assistant} or {@code tool}
     * @param content the question, the model's text, or the tool result sent to the model
     * @param toolCalls an assistant turn's calls: {@code [{"id","name","arguments"}]}
     * @param toolCallId a tool result's call id
     * @param toolName a tool result's tool
     * @param outcome a tool result's outcome ({@code success}, {@code failure}, ...)
     * @param durationMs a tool result's duration
     */
    public record Message(String role, String content, JsonNode toolCalls, String toolCallId, String toolName,
            String outcome, Long durationMs) {

        public static Message user(String question) {
            return new Message("user", question, null, null, null, null, null);
        }

        public static Message assistant(String text, JsonNode toolCalls) {
            return new Message("assistant", text, toolCalls, null, null, null, null);
        }

        public static Message tool(String callId, String toolName, String content, String outcome, long durationMs) {
            return new Message("tool", content, null, callId, toolName, outcome, durationMs);
        }
    }

    /** How a run ended, for the record. */
    public record Run(UUID id, UUID conversationId, String question, Instant startedAt, long durationMs, int iterations,
            long inputTokens, long outputTokens, String outcome, String errorCode) {
    }

    private Uni<Void> ready() {
        return migrations.ready() ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(new StoreSchemaUnavailableException());
    }

    /** Longest title: the first question, shortened. */
    static final int TITLE_LENGTH = 80;

    /**
     * Starts a conversation of {@code principal}, titled after its first question, and stores that question as
     * run {@code runId}'s first message.
     */
    public Uni<Void> create(UUID id, UUID runId, String firstQuestion, String principal) {
        String title = MessageText.shorten(firstQuestion.strip().replaceAll("\\s+", " "), TITLE_LENGTH - 1);
        Tuple values = Tuple.of(id, StorableText.clean(principal), StorableText.clean(title), runId,
                StorableText.clean(firstQuestion));
        return ready().flatMap(ok -> store.preparedQuery(INSERT_CONVERSATION)
                .execute(values)).replaceWithVoid();
    }

    /** Whether the conversation exists and belongs to {@code principal}. */
    public Uni<Boolean> exists(UUID id, String principal) {
        return ready().flatMap(ok -> store.preparedQuery(EXISTS).execute(Tuple.of(id, principal)))
                .map(rows -> rows.size() > 0);
    }

    /**
     * The last {@code limit} messages, oldest first, starting at a question so that no tool
     * result is separated from the call that asked for it.
     */
    public Uni<List<Message>> history(UUID id, int limit) {
        return ready().flatMap(ok -> store.preparedQuery(HISTORY)
                .execute(Tuple.of(id, limit)))
                .map(rows -> {
                    List<Message> messages = new ArrayList<>();
                    for (Row row : rows) {
                        messages.add(message(row));
                    }
                    Collections.reverse(messages);
                    int first = 0;
                    while (first < messages.size() && !"user".equals(messages.get(first).role())) {
                        first++;
                    }
                    return List.copyOf(messages.subList(first, messages.size()));
                });
    }

    /** Appends messages of a run, in order, in one round trip. */
    public Uni<Void> append(UUID conversationId, UUID runId, List<Message> messages) {
        if (messages.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Tuple> batch = new ArrayList<>(messages.size());
        for (Message message : messages) {
            // A model may put NUL anywhere (text, tool names, arguments), which PostgreSQL refuses: cleaned, not fatal.
            batch.add(Tuple.tuple().addUUID(conversationId).addUUID(runId).addString(message.role())
                    .addString(StorableText.clean(message.content()))
                    .addString(message.toolCalls() == null ? null : StorableText.clean(message.toolCalls()).toString())
                    .addString(StorableText.clean(message.toolCallId())).addString(StorableText.clean(message.toolName()))
                    .addString(message.outcome())
                    .addLong(message.durationMs()));
        }
        return ready().flatMap(ok -> store.preparedQuery(INSERT_MESSAGE)
                .executeBatch(batch)).replaceWithVoid();
    }

    /** Records a finished run and marks the conversation as updated. */
    public Uni<Void> finish(Run run) {
        Tuple values = Tuple.tuple().addUUID(run.id()).addUUID(run.conversationId()).addString(run.question())
                .addOffsetDateTime(OffsetDateTime.ofInstant(run.startedAt(), java.time.ZoneOffset.UTC))
                .addLong(run.durationMs()).addInteger(run.iterations()).addLong(run.inputTokens())
                .addLong(run.outputTokens()).addString(run.outcome()).addString(run.errorCode());
        return ready().flatMap(ok -> store.preparedQuery(INSERT_RUN)
                .execute(values))
                .replaceWithVoid();
    }

    /**
     * One page of {@code principal}'s conversations, newest {@code updated_at} first: at most
     * {@code limit}, those before the {@code before} cursor when given. The answer's {@code next}
     * is the cursor of the following page, {@code null} on the last one.
     */
    public Uni<JsonNode> list(String principal, int limit, Optional<ConversationCursor> before) {
        Tuple values = Tuple.tuple().addString(principal).addInteger(limit + 1)
                .addOffsetDateTime(before.map(ConversationCursor::updatedAt).orElse(null))
                .addUUID(before.map(ConversationCursor::id).orElse(null));
        return ready().flatMap(ok -> store.preparedQuery(LIST).execute(values)).map(rows -> {
            var body = SnakeCaseJson.MAPPER.createObjectNode();
            var items = body.putArray("items");
            Row last = null;
            int count = 0;
            for (Row row : rows) {
                if (count++ == limit) {
                    break;
                }
                last = row;
                items.addObject()
                        .put("id", row.getUUID("id").toString())
                        .put("title", row.getString("title"))
                        .put("created_at", row.getOffsetDateTime("created_at").toInstant().toString())
                        .put("updated_at", row.getOffsetDateTime("updated_at").toInstant().toString());
            }
            if (rows.size() > limit && last != null) {
                body.put("next", new ConversationCursor(last.getOffsetDateTime("updated_at"), last.getUUID("id")).encode());
            } else {
                body.putNull("next");
            }
            return body;
        });
    }

    /** The whole conversation as {@code GET /api/conversations/{id}} returns it, or empty (also when another principal's). */
    public Uni<Optional<JsonNode>> view(UUID id, String principal) {
        return ready()
                .flatMap(ok -> store.preparedQuery(CONVERSATION)
                        .execute(Tuple.of(id, principal)))
                .flatMap(found -> {
                    if (found.size() == 0) {
                        return Uni.createFrom().item(Optional.<JsonNode> empty());
                    }
                    Row conversation = found.iterator().next();
                    return store.preparedQuery(MESSAGES)
                            .execute(Tuple.of(id))
                            .flatMap(messages -> store
                                    .preparedQuery(RUNS)
                                    .execute(Tuple.of(id))
                                    .map(runs -> Optional.of(view(conversation, messages, runs))));
                });
    }

    private static JsonNode view(Row conversation, RowSet<Row> messages, RowSet<Row> runs) {
        var body = SnakeCaseJson.MAPPER.createObjectNode();
        body.put("conversation_id", conversation.getUUID("id").toString());
        body.put("title", conversation.getString("title"));
        body.put("created_at", conversation.getOffsetDateTime("created_at").toInstant().toString());
        body.put("updated_at", conversation.getOffsetDateTime("updated_at").toInstant().toString());
        var messageArray = body.putArray("messages");
        for (Row row : messages) {
            var node = messageArray.addObject();
            Message message = message(row);
            node.put("run_id", row.getUUID("run_id").toString());
            node.put("role", message.role());
            node.put("content", message.content());
            if (message.toolCalls() != null) {
                node.set("tool_calls", message.toolCalls());
            }
            if ("tool".equals(message.role())) {
                node.put("tool_call_id", message.toolCallId());
                node.put("tool_name", message.toolName());
                node.put("outcome", message.outcome());
                node.put("duration_ms", message.durationMs());
            }
            node.put("created_at", row.getOffsetDateTime("created_at").toInstant().toString());
        }
        var runArray = body.putArray("runs");
        for (Row row : runs) {
            var node = runArray.addObject();
            node.put("run_id", row.getUUID("id").toString());
            node.put("question", row.getString("question"));
            node.put("started_at", row.getOffsetDateTime("started_at").toInstant().toString());
            node.put("duration_ms", row.getLong("duration_ms"));
            node.put("iterations", row.getInteger("iterations"));
            node.putObject("usage").put("input_tokens", row.getLong("input_tokens")).put("output_tokens",
                    row.getLong("output_tokens"));
            node.put("outcome", row.getString("outcome"));
            if (row.getString("error_code") != null) {
                node.put("error_code", row.getString("error_code"));
            }
        }
        return body;
    }

    private static Message message(Row row) {
        Object calls = row.getValue("tool_calls");
        JsonNode toolCalls = null;
        if (calls != null) {
            try {
                toolCalls = SnakeCaseJson.MAPPER.readTree(calls.toString());
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("a stored tool_calls value is not JSON", e);
            }
        }
        return new Message(row.getString("role"), row.getString("content"), toolCalls, row.getString("tool_call_id"),
                row.getString("tool_name"), row.getString("outcome"), row.getLong("duration_ms"));
    }
}
