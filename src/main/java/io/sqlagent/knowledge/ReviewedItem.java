package io.sqlagent.knowledge;

import java.time.OffsetDateTime;

import io.vertx.mutiny.sqlclient.Row;

/**
 * What the agent saves and a reviewer decides on ({@link Learning}, {@link QueryPattern}): the
 * columns both tables share, the review state and the provenance.
 */
public abstract class ReviewedItem {

    public Long id;

    public String sql;
    /** {@code agent}, {@code file} (query patterns), or what saved a learning. */
    public String source;
    public String conversationId;
    public OffsetDateTime createdAt;
    /** {@code proposed}, {@code approved} or {@code rejected}. */
    public String status;
    /** The question asked in the conversation it was saved from. */
    public String asked;
    public String proposedBy;
    public String reviewedBy;
    public OffsetDateTime reviewedAt;
    public String reviewNote;

    /** Sets the columns both tables share from {@code row}. */
    void read(Row row) {
        id = row.getLong("id");
        sql = row.getString("sql");
        source = row.getString("source");
        conversationId = row.getString("conversation_id");
        createdAt = row.getOffsetDateTime("created_at");
        status = row.getString("status");
        asked = row.getString("asked");
        proposedBy = row.getString("proposed_by");
        reviewedBy = row.getString("reviewed_by");
        reviewedAt = row.getOffsetDateTime("reviewed_at");
        reviewNote = row.getString("review_note");
    }

    /** The item's id in the review API. */
    abstract KnowledgeItemId itemId();
}
