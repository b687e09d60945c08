package io.sqlagent.knowledge;

import java.time.OffsetDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * What the agent saves and a reviewer decides on ({@link Learning}, {@link QueryPattern}): the
 * columns both tables share, the review state and the provenance.
 */
@MappedSuperclass
public abstract class ReviewedItem extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String sql;
    /** {@code agent}, {@code file} (query patterns), or what saved a learning. */
    public String source;
    @Column(name = "conversation_id")
    public String conversationId;
    @Column(name = "created_at", insertable = false, updatable = false)
    public OffsetDateTime createdAt;
    /** {@code proposed}, {@code approved} or {@code rejected}. */
    public String status;
    /** The question asked in the conversation it was saved from. */
    public String asked;
    @Column(name = "proposed_by")
    public String proposedBy;
    @Column(name = "reviewed_by")
    public String reviewedBy;
    @Column(name = "reviewed_at")
    public OffsetDateTime reviewedAt;
    @Column(name = "review_note")
    public String reviewNote;

    /** The item's id in the review API. */
    abstract KnowledgeItemId itemId();
}
