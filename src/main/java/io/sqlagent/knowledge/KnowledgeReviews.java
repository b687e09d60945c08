package io.sqlagent.knowledge;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.StorableText;
import io.sqlagent.tool.ToolCallContext;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
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

    private static final String PROPOSED = "status = 'proposed' ORDER BY created_at, id LIMIT $1";

    private static final String PROPOSED_BY = "status = 'proposed' AND proposed_by = $2 ORDER BY created_at, id LIMIT $1";

    private static final String SET_EMBEDDING = """
            UPDATE learning SET embedding = CAST(CAST($1 AS text) AS real[]) WHERE id = $2""";

    private final Pool store;
    private final LearningEmbeddings embeddings;
    private final ValidatedQueries queries;

    KnowledgeReviews(Pool store, LearningEmbeddings embeddings, ValidatedQueries queries) {
        this.store = store;
        this.embeddings = embeddings;
        this.queries = queries;
    }

    /**
     * The proposals waiting for a reviewer, oldest first, as {@link #view views}: every one for a reviewer, the
     * reader's own for anyone else.
     */
    public Uni<List<Map<String, Object>>> proposals(int limit, KnowledgeReader reader) {
        Object[] parameters = reader.reviewer() ? new Object[] { (long) limit }
                : new Object[] { (long) limit, reader.author() };
        String where = reader.reviewer() ? PROPOSED : PROPOSED_BY;
        return KnowledgeItems.learnings(store, where, parameters)
                .flatMap(learnings -> KnowledgeItems.patterns(store, where, parameters)
                        .map(patterns -> {
                            List<ReviewedItem> items = new ArrayList<>(learnings);
                            items.addAll(patterns);
                            return items;
                        }))
                .map(items -> items.stream()
                        .sorted(Comparator.comparing((ReviewedItem item) -> item.createdAt)
                                .thenComparing(item -> item.itemId().kind()).thenComparing(item -> item.id))
                        .limit(limit)
                        .map(KnowledgeReviews::view)
                        .toList());
    }

    /**
     * One item by its id, when {@code reader} may read it (any status for a reviewer or its author, approved for
     * anyone else, without what only the author and reviewers see: {@link #sharedView}); fails with
     * {@code proposal_not_found}, the same for an item that is not there and one the reader may not read.
     */
    public Uni<Map<String, Object>> item(String id, KnowledgeReader reader) {
        KnowledgeItemId item = id(id);
        return stored(item).map(found -> {
            ReviewedItem readable = found.filter(reader::mayRead).orElseThrow(() -> ReviewException.notFound(id));
            return reader.reviewer() || reader.authored(readable.proposedBy) ? view(readable) : sharedView(readable);
        });
    }

    /**
     * Approves a proposal, applying {@code edits} first; a validated query whose SQL is edited runs
     * again as {@code reviewer}'s {@code run_sql} and keeps its new result's shape. Answers the item as it is now.
     */
    public Uni<Map<String, Object>> approve(String id, ObjectNode edits, ToolCallContext reviewer) {
        KnowledgeItemId item = id(id);
        return proposal(item, id).flatMap(current -> {
            ProposalEdits parsed = ProposalEdits.parse(item.kind(), edits);
            return extras(current, parsed, reviewer)
                    .flatMap(extra -> decide(item, id, proposed -> {
                        parsed.values().forEach((field, value) -> edit(proposed, field, value));
                        extra.shape().ifPresent(shape -> checked((QueryPattern) proposed, shape));
                        proposed.status = "approved";
                        proposed.reviewedBy = reviewer.identity().name();
                        proposed.reviewedAt = OffsetDateTime.now();
                    }, extra.embedding()));
        });
    }

    /** Rejects a proposal, keeping {@code reason} with it. */
    public Uni<Map<String, Object>> reject(String id, String reason, String reviewer) {
        KnowledgeItemId item = id(id);
        if (reason != null && reason.length() > MAX_REASON) {
            return Uni.createFrom().failure(ReviewException.invalid("'reason' must be at most " + MAX_REASON + " characters"));
        }
        if (!StorableText.isStorable(reason)) {
            return Uni.createFrom()
                    .failure(ReviewException.invalid("'reason' " + StorableText.UNSTORABLE + "; nothing was changed"));
        }
        return decide(item, id, proposed -> {
            proposed.status = "rejected";
            proposed.reviewedBy = reviewer;
            proposed.reviewedAt = OffsetDateTime.now();
            proposed.reviewNote = reason == null || reason.isBlank() ? null : reason.strip();
        }, Optional.empty());
    }

    /** Deletes an item whatever its status; fails with {@code proposal_not_found} when there is none. */
    public Uni<Void> delete(String id) {
        KnowledgeItemId item = id(id);
        return KnowledgeItems.delete(store, item)
                .map(deleted -> {
                    if (!deleted) {
                        throw ReviewException.notFound(id);
                    }
                    return null;
                });
    }

    private static KnowledgeItemId id(String id) {
        return KnowledgeItemId.parse(id).orElseThrow(() -> ReviewException.notFound(id));
    }

    private Uni<Optional<ReviewedItem>> stored(KnowledgeItemId item) {
        return KnowledgeItems.find(store, item, false);
    }

    /** The item, when it is still a proposal; otherwise the failure to answer. */
    private Uni<ReviewedItem> proposal(KnowledgeItemId item, String id) {
        return stored(item).map(found -> proposed(found.orElse(null), item, id));
    }

    private static ReviewedItem proposed(ReviewedItem found, KnowledgeItemId item, String id) {
        if (found == null) {
            throw ReviewException.notFound(id);
        }
        if (!found.status.equals("proposed")) {
            throw alreadyReviewed(item, found);
        }
        return found;
    }

    /**
     * The guarded decision: in one transaction, the item is locked, checked to be still a proposal
     * (two reviewers at once: the second finds it decided), changed by {@code decision} and, for a
     * learning whose text changed, given its new {@code embedding}. Answers the item as it is now.
     */
    private Uni<Map<String, Object>> decide(KnowledgeItemId item, String id, Consumer<ReviewedItem> decision,
            Optional<Float[]> embedding) {
        return store.withTransaction(connection -> KnowledgeItems.find(connection, item, true)
                .map(found -> {
                    ReviewedItem proposed = proposed(found.orElse(null), item, id);
                    decision.accept(proposed);
                    return proposed;
                })
                .call(decided -> KnowledgeItems.update(connection, decided))
                .call(decided -> embedding.isEmpty() ? Uni.createFrom().voidItem()
                        : setEmbedding(connection, item, embedding.get())))
                .map(KnowledgeReviews::view)
                .onFailure(KnowledgeReviews::duplicate)
                .transform(failure -> new ReviewException("duplicate", 409, "The edits clash with another item: "
                        + uniqueViolation(failure).map(PgException::getErrorMessage).orElse("")
                        + ". Nothing was changed."));
    }

    private static Uni<Void> setEmbedding(SqlClient connection, KnowledgeItemId item, Float[] embedding) {
        return connection.preparedQuery(SET_EMBEDDING).execute(Tuple.of(LearningEmbeddings.literal(embedding), item.number()))
                .replaceWithVoid();
    }

    private static boolean duplicate(Throwable failure) {
        return uniqueViolation(failure).isPresent();
    }

    private static Optional<PgException> uniqueViolation(Throwable failure) {
        for (Throwable cause = failure; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof PgException pg && "23505".equals(pg.getSqlState())) {
                return Optional.of(pg);
            }
        }
        return Optional.empty();
    }

    private static ReviewException alreadyReviewed(KnowledgeItemId item, ReviewedItem current) {
        String by = current.reviewedBy == null ? "" : current.reviewedBy;
        return new ReviewException("already_reviewed", 409, "Knowledge item " + item + " is not a proposal: it was "
                + current.status + (by.isEmpty() ? "" : " by " + by)
                + (current.reviewedAt == null ? "" : " at " + current.reviewedAt)
                + ". Nothing was changed.");
    }

    /** What an edit implies besides the edited fields: a learning's new embedding, a query's new result shape. */
    private record Extras(Optional<Float[]> embedding, Optional<ResultShape> shape) {
    }

    private Uni<Extras> extras(ReviewedItem current, ProposalEdits edits, ToolCallContext reviewer) {
        if (current instanceof Learning learning) {
            if (!edits.values().containsKey("title") && !edits.values().containsKey("description")) {
                return Uni.createFrom().item(new Extras(Optional.empty(), Optional.empty()));
            }
            String title = (String) edits.values().getOrDefault("title", learning.title);
            String description = (String) edits.values().getOrDefault("description", learning.description);
            return embeddings.embed(LearningEmbeddings.text(title, description))
                    .map(vector -> new Extras(Optional.of(vector), Optional.empty()));
        }
        if (edits.sql().isEmpty()) {
            return Uni.createFrom().item(new Extras(Optional.empty(), Optional.empty()));
        }
        return queries.run(edits.sql().get(), reviewer).map(shape -> new Extras(Optional.empty(), Optional.of(shape)));
    }

    private static void checked(QueryPattern pattern, ResultShape shape) {
        pattern.resultColumns = shape.columns().toString();
        pattern.resultRows = shape.rows();
        pattern.resultDigest = shape.digest();
        pattern.checkStatus = "ok";
    }

    /** Sets one field {@link ProposalEdits} allows (its names are the columns'). */
    private static void edit(ReviewedItem item, String field, Object value) {
        if (field.equals("sql")) {
            item.sql = (String) value;
        } else if (item instanceof Learning learning) {
            switch (field) {
                case "title" -> learning.title = (String) value;
                case "description" -> learning.description = (String) value;
                case "category" -> learning.category = (String) value;
                default -> throw new IllegalArgumentException("not an editable field of a learning: " + field);
            }
        } else if (item instanceof QueryPattern pattern) {
            switch (field) {
                case "name" -> pattern.name = (String) value;
                case "question" -> pattern.question = (String) value;
                case "summary" -> pattern.summary = (String) value;
                case "tables_used" -> pattern.tablesUsed = (String[]) value;
                case "data_quality_notes" -> pattern.dataQualityNotes = (String) value;
                default -> throw new IllegalArgumentException("not an editable field of a validated query: " + field);
            }
        }
    }

    /**
     * An item as reviewers see it: its content, its status and its provenance (who proposed it,
     * from which conversation and question, who reviewed it, when and why); a validated query also
     * the shape of its result and its last check.
     */
    static Map<String, Object> view(ReviewedItem item) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", item.itemId().toString());
        view.put("kind", item.itemId().kind());
        view.put("status", item.status);
        if (item instanceof Learning learning) {
            view.put("title", learning.title);
            view.put("description", learning.description);
            view.put("category", learning.category);
            view.put("sql", learning.sql);
        } else if (item instanceof QueryPattern pattern) {
            view.put("name", pattern.name);
            view.put("question", pattern.question);
            view.put("sql", pattern.sql);
            view.put("summary", pattern.summary);
            view.put("tables_used", pattern.tablesUsed == null ? List.of() : List.of(pattern.tablesUsed));
            view.put("data_quality_notes", pattern.dataQualityNotes);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("columns", pattern.resultColumns == null ? null : json(pattern.resultColumns));
            result.put("row_count", pattern.resultRows);
            result.put("digest", pattern.resultDigest);
            result.put("check_status", pattern.checkStatus);
            result.put("check_message", pattern.checkMessage);
            result.put("checked_at", text(pattern.checkedAt));
            view.put("result", result);
        }
        Map<String, Object> provenance = new LinkedHashMap<>();
        provenance.put("source", item.source);
        if (item instanceof QueryPattern pattern) {
            provenance.put("source_file", pattern.sourceFile);
        }
        provenance.put("conversation_id", item.conversationId);
        provenance.put("question", item.asked);
        provenance.put("proposed_by", item.proposedBy);
        provenance.put("proposed_at", text(item.createdAt));
        provenance.put("reviewed_by", item.reviewedBy);
        provenance.put("reviewed_at", text(item.reviewedAt));
        provenance.put("review_note", item.reviewNote);
        view.put("provenance", provenance);
        return view;
    }

    /**
     * An approved item as a caller who neither proposed nor reviews it sees it: its content, and of its provenance
     * only the channel and the times. The question, the conversation and the principals stay with the author and the
     * reviewers (a question can name what its asker saw), and so do a validated query's row count, digest and check
     * message, which come from one caller's run under its row-level security.
     */
    static Map<String, Object> sharedView(ReviewedItem item) {
        Map<String, Object> view = view(item);
        @SuppressWarnings("unchecked")
        Map<String, Object> provenance = (Map<String, Object>) view.get("provenance");
        provenance.keySet().retainAll(List.of("source", "source_file", "proposed_at", "reviewed_at"));
        if (view.get("result") instanceof Map<?, ?> result) {
            @SuppressWarnings("unchecked")
            Map<String, Object> shown = (Map<String, Object>) result;
            shown.keySet().retainAll(List.of("columns", "check_status", "checked_at"));
        }
        return view;
    }

    private static String text(OffsetDateTime time) {
        return time == null ? null : time.toString();
    }

    private static JsonNode json(String value) {
        try {
            return SnakeCaseJson.MAPPER.readTree(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("The store holds result columns that are not JSON", e);
        }
    }
}
