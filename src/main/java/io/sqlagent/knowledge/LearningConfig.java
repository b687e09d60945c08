package io.sqlagent.knowledge;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Whether the agent may add to its knowledge base ({@code save_learning}, {@code save_validated_query}), and who decides. */
@ConfigMapping(prefix = "sqlagent.learning")
public interface LearningConfig {

    /**
     * Whether the two save tools are offered; when {@code false} they are not registered, and
     * {@code search_knowledge} leaves saved learnings out of its results.
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * Auto-learning: a failed statement the agent then recovers from (a later {@code run_sql}
     * in the same conversation succeeds) is saved as a learning, once. Only when learning is enabled.
     */
    @WithDefault("true")
    boolean auto();

    /**
     * Who approves what the agent saves: {@code auto} (it is searched at once) or {@code required}
     * (it is a proposal, searched only once a reviewer with scope {@code knowledge:review} approved it).
     */
    @WithDefault("auto")
    Approval approval();

    /**
     * A new learning whose meaning (cosine similarity of the all-MiniLM-L6-v2 embeddings of title
     * and description) is at least this close to a stored one is refused with a pointer to it.
     * On 68 labelled pairs (NearDuplicatePairsTest) paraphrases score 0.70–0.91 and different
     * learnings on the same tables 0.32–0.81; 0.74 flags them with precision and recall 0.92 each
     * (docs/knowledge.md). {@code 1} or more turns the check off.
     */
    @WithDefault("0.74")
    double duplicateSimilarity();

    /** Values of {@link #approval()}. */
    enum Approval {
        /** What is saved is approved at once (the behaviour before governed learning). */
        AUTO,
        /** What is saved waits for a reviewer. */
        REQUIRED
    }
}
