package io.sqlagent.knowledge;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * A learning the agent saved ({@code learning}), with its review state and provenance. The columns
 * that are the store's business stay unmapped: the generated {@code search} and {@code dedup_key},
 * and the {@code embedding}, written and compared by native queries ({@link LearningEmbeddings}).
 */
@Entity
@Table(name = "learning")
public class Learning extends ReviewedItem {

    public String title;
    public String description;
    public String category;

    @Override
    KnowledgeItemId itemId() {
        return KnowledgeItemId.learning(id);
    }
}
