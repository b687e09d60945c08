package io.sqlagent.knowledge;

/** What saving a learning or a validated query came to: stored (approved or proposed), or refused as a near-duplicate. */
public sealed interface SaveOutcome {

    /** Stored under {@code id}, with status {@code approved} or {@code proposed}. */
    record Stored(long id, String status) implements SaveOutcome {
    }

    /** Not stored: learning {@code id} says the same ({@code similarity} is the cosine of their embeddings). */
    record NearDuplicate(long id, String title, String status, double similarity) implements SaveOutcome {

        /** The pointer a caller gets: which learning, how close. */
        public java.util.Map<String, Object> pointer() {
            java.util.Map<String, Object> pointer = new java.util.LinkedHashMap<>();
            pointer.put("id", KnowledgeItemId.learning(id).toString());
            pointer.put("title", title);
            pointer.put("status", status);
            pointer.put("similarity", Math.round(similarity * 1000) / 1000.0);
            return pointer;
        }
    }
}
