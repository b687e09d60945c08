package io.sqlagent.knowledge;

import io.vertx.mutiny.sqlclient.Row;

/**
 * A learning the agent saved ({@code learning}), with its review state and provenance, read and written by plain
 * SQL ({@link KnowledgeItems}). The columns that are the store's business are not read: the generated
 * {@code search} and {@code dedup_key}, and the {@code embedding}, written and compared in SQL
 * ({@link LearningEmbeddings}).
 */
public class Learning extends ReviewedItem {

    public String title;
    public String description;
    public String category;

    /** The learning a row of {@link KnowledgeItems#LEARNING_COLUMNS} holds. */
    static Learning of(Row row) {
        Learning learning = new Learning();
        learning.read(row);
        learning.title = row.getString("title");
        learning.description = row.getString("description");
        learning.category = row.getString("category");
        return learning;
    }

    @Override
    KnowledgeItemId itemId() {
        return KnowledgeItemId.learning(id);
    }
}
