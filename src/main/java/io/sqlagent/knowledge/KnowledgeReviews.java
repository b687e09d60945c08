package io.sqlagent.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolJson;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;

/**
 * Reviewing what the agent learned: the proposals waiting (while {@code sqlagent.learning.approval=required}),
 * approving one (with edits), rejecting one (with a reason), deleting any item, each with its
 * provenance. A decision is written only if the item is still a proposal, so two reviewers at once
 * cannot both decide; the loser gets {@code already_reviewed}.
 */
@ApplicationScoped
public class KnowledgeReviews {

    static final int MAX_REASON = 2000;

    /** Columns that are the store's business, not the reviewer's. */
    private static final String HIDDEN = " - 'search' - 'embedding' - 'dedup_key'";

    private static final String PROPOSALS = """
            SELECT kind, item FROM (
                SELECT 'learning' AS kind, id, created_at, to_jsonb(l)%1$s AS item FROM learning l WHERE status = 'proposed'
                UNION ALL
                SELECT 'validated_query', id, created_at, to_jsonb(p)%1$s FROM query_pattern p WHERE status = 'proposed') s
            ORDER BY created_at, kind, id LIMIT $1""".formatted(HIDDEN);

    private static final String ONE = """
            SELECT to_jsonb(t)%s AS item FROM %s t WHERE id = $1""";

    private static final String REJECT = """
            UPDATE %s SET status = 'rejected', reviewed_by = $2, reviewed_at = now(), review_note = $3
            WHERE id = $1 AND status = 'proposed' RETURNING id""";

    private static final String DELETE = """
            DELETE FROM %s WHERE id = $1 RETURNING id""";

    private final Pool store;
    private final LearningEmbeddings embeddings;
    private final ValidatedQueries queries;

    KnowledgeReviews(Pool store, LearningEmbeddings embeddings, ValidatedQueries queries) {
        this.store = store;
        this.embeddings = embeddings;
        this.queries = queries;
    }

    /** The proposals waiting for a reviewer, oldest first, as {@link #view views}. */
    public Uni<List<Map<String, Object>>> proposals(int limit) {
        return store.preparedQuery(PROPOSALS).execute(Tuple.of(limit)).map(rows -> {
            List<Map<String, Object>> items = new ArrayList<>();
            for (Row row : rows) {
                items.add(view(row.getString("kind"), json(row.getValue("item"))));
            }
            return items;
        });
    }

    /** One item by its id (any status); fails with {@code proposal_not_found}. */
    public Uni<Map<String, Object>> item(String id) {
        KnowledgeItemId item = id(id);
        return stored(item).map(found -> view(item.kind(), found.orElseThrow(() -> ReviewException.notFound(id))));
    }

    /**
     * Approves a proposal, applying {@code edits} first; a validated query whose SQL is edited runs
     * again as {@code reviewer}'s {@code run_sql} and keeps its new result's shape. Answers the item as it is now.
     */
    public Uni<Map<String, Object>> approve(String id, ObjectNode edits, ToolCallContext reviewer) {
        KnowledgeItemId item = id(id);
        return proposal(item, id).flatMap(current -> {
            ProposalEdits parsed = ProposalEdits.parse(item.kind(), edits);
            return extras(item, current, parsed, reviewer)
                    .flatMap(extra -> update(item, parsed, extra, reviewer.identity().name()))
                    .flatMap(updated -> decided(item, id, updated));
        });
    }

    /** Rejects a proposal, keeping {@code reason} with it. */
    public Uni<Map<String, Object>> reject(String id, String reason, String reviewer) {
        KnowledgeItemId item = id(id);
        if (reason != null && reason.length() > MAX_REASON) {
            return Uni.createFrom().failure(ReviewException.invalid("'reason' must be at most " + MAX_REASON + " characters"));
        }
        return proposal(item, id).flatMap(current -> store.preparedQuery(REJECT.formatted(item.table()))
                .execute(Tuple.of(item.number(), reviewer, reason == null || reason.isBlank() ? null : reason.strip()))
                .flatMap(rows -> decided(item, id, rows.size() > 0)));
    }

    /** Deletes an item whatever its status; fails with {@code proposal_not_found} when there is none. */
    public Uni<Void> delete(String id) {
        KnowledgeItemId item = id(id);
        return store.preparedQuery(DELETE.formatted(item.table())).execute(Tuple.of(item.number())).map(rows -> {
            if (rows.size() == 0) {
                throw ReviewException.notFound(id);
            }
            return null;
        });
    }

    private static KnowledgeItemId id(String id) {
        return KnowledgeItemId.parse(id).orElseThrow(() -> ReviewException.notFound(id));
    }

    private Uni<Optional<JsonNode>> stored(KnowledgeItemId item) {
        return store.preparedQuery(ONE.formatted(HIDDEN, item.table())).execute(Tuple.of(item.number()))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(json(rows.iterator().next().getValue("item"))));
    }

    /** The item, when it is still a proposal; otherwise the failure to answer. */
    private Uni<JsonNode> proposal(KnowledgeItemId item, String id) {
        return stored(item).map(found -> {
            JsonNode current = found.orElseThrow(() -> ReviewException.notFound(id));
            if (!current.path("status").asText().equals("proposed")) {
                throw alreadyReviewed(item, current);
            }
            return current;
        });
    }

    /** After a guarded write: the item as it is now, or why nothing was written (deleted or decided meanwhile). */
    private Uni<Map<String, Object>> decided(KnowledgeItemId item, String id, boolean written) {
        return stored(item).map(found -> {
            JsonNode current = found.orElseThrow(() -> ReviewException.notFound(id));
            if (!written) {
                throw alreadyReviewed(item, current);
            }
            return view(item.kind(), current);
        });
    }

    private static ReviewException alreadyReviewed(KnowledgeItemId item, JsonNode current) {
        String by = current.path("reviewed_by").asText("");
        return new ReviewException("already_reviewed", 409, "Knowledge item " + item + " is not a proposal: it was "
                + current.path("status").asText() + (by.isEmpty() ? "" : " by " + by)
                + (current.path("reviewed_at").isTextual() ? " at " + current.path("reviewed_at").asText() : "")
                + ". Nothing was changed.");
    }

    /** Columns an edit implies besides the edited ones: a learning's new embedding, a query's new result shape. */
    private Uni<Map<String, Object>> extras(KnowledgeItemId item, JsonNode current, ProposalEdits edits,
            ToolCallContext reviewer) {
        Map<String, Object> extra = new LinkedHashMap<>();
        if (item.kind().equals(KnowledgeItemId.LEARNING)) {
            if (!edits.values().containsKey("title") && !edits.values().containsKey("description")) {
                return Uni.createFrom().item(extra);
            }
            String title = (String) edits.values().getOrDefault("title", current.path("title").asText());
            String description = (String) edits.values().getOrDefault("description", current.path("description").asText());
            return embeddings.embed(LearningEmbeddings.text(title, description)).map(vector -> {
                extra.put("embedding", vector);
                return extra;
            });
        }
        if (edits.sql().isEmpty()) {
            return Uni.createFrom().item(extra);
        }
        return queries.run(edits.sql().get(), reviewer).map(shape -> {
            extra.put("result_columns", new JsonArray(shape.columns().toString()));
            extra.put("result_rows", shape.rows());
            extra.put("result_digest", shape.digest());
            extra.put("check_status", "ok");
            return extra;
        });
    }

    /** The guarded approval: only a row that is still proposed is changed. Whether it was. */
    private Uni<Boolean> update(KnowledgeItemId item, ProposalEdits edits, Map<String, Object> extra, String reviewer) {
        StringBuilder sql = new StringBuilder("UPDATE ").append(item.table())
                .append(" SET status = 'approved', reviewed_by = $2, reviewed_at = now()");
        Tuple values = Tuple.tuple().addLong(item.number()).addString(reviewer);
        Map<String, Object> columns = new LinkedHashMap<>(edits.values());
        columns.putAll(extra);
        // Column names come from ProposalEdits' fixed lists and from extras above, never from the request.
        columns.forEach((column, value) -> {
            values.addValue(value);
            sql.append(", ").append(column).append(" = $").append(values.size());
        });
        sql.append(" WHERE id = $1 AND status = 'proposed' RETURNING id");
        return store.preparedQuery(sql.toString()).execute(values).map(rows -> rows.size() > 0)
                .onFailure(PgException.class).transform(failure -> "23505".equals(((PgException) failure).getSqlState())
                        ? new ReviewException("duplicate", 409, "The edits clash with another item: "
                                + ((PgException) failure).getErrorMessage() + ". Nothing was changed.")
                        : failure);
    }

    private static JsonNode json(Object value) {
        try {
            return ToolJson.MAPPER.readTree(value instanceof JsonObject object ? object.encode() : String.valueOf(value));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("The store returned an item that is not JSON", e);
        }
    }

    /**
     * An item as reviewers see it: its content, its status and its provenance (who proposed it,
     * from which conversation and question, who reviewed it, when and why); a validated query also
     * the shape of its result and its last check.
     */
    static Map<String, Object> view(String kind, JsonNode row) {
        Map<String, Object> view = new LinkedHashMap<>();
        boolean learning = kind.equals(KnowledgeItemId.LEARNING);
        long number = row.path("id").asLong();
        view.put("id", (learning ? KnowledgeItemId.learning(number) : KnowledgeItemId.query(number)).toString());
        view.put("kind", kind);
        view.put("status", text(row, "status"));
        List<String> fields = learning ? List.of("title", "description", "category", "sql")
                : List.of("name", "question", "sql", "summary", "tables_used", "data_quality_notes");
        fields.forEach(field -> view.put(field, row.path(field).isArray() ? row.get(field) : text(row, field)));
        if (!learning) {
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("columns", row.path("result_columns").isArray() ? row.get("result_columns") : null);
            result.put("row_count", row.path("result_rows").isNumber() ? row.get("result_rows").asInt() : null);
            result.put("digest", text(row, "result_digest"));
            result.put("check_status", text(row, "check_status"));
            result.put("check_message", text(row, "check_message"));
            result.put("checked_at", text(row, "checked_at"));
            view.put("result", result);
        }
        Map<String, Object> provenance = new LinkedHashMap<>();
        provenance.put("source", text(row, "source"));
        if (!learning) {
            provenance.put("source_file", text(row, "source_file"));
        }
        provenance.put("conversation_id", text(row, "conversation_id"));
        provenance.put("question", text(row, "asked"));
        provenance.put("proposed_by", text(row, "proposed_by"));
        provenance.put("proposed_at", text(row, "created_at"));
        provenance.put("reviewed_by", text(row, "reviewed_by"));
        provenance.put("reviewed_at", text(row, "reviewed_at"));
        provenance.put("review_note", text(row, "review_note"));
        view.put("provenance", provenance);
        return view;
    }

    private static String text(JsonNode row, String field) {
        JsonNode value = row.path(field);
        return value.isNull() || value.isMissingNode() ? null : value.asText();
    }
}
