package io.sqlagent.knowledge;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Whether the agent may add to its knowledge base ({@code save_learning}, {@code save_validated_query}). */
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
}
