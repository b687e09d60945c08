package io.sqlagent.builtin;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.sqlagent.knowledge.KnowledgeStore;
import io.sqlagent.knowledge.LearningConfig;
import io.sqlagent.knowledge.ValidatedQueries;
import io.sqlagent.tool.ToolProvider;
import io.sqlagent.tool.ToolRegistration;
import io.sqlagent.tool.TypedTool;

/**
 * Contributes the two tools that write to the knowledge base, only while
 * {@code sqlagent.learning.enabled} is true: when learning is off they are neither listed nor
 * callable, rather than offered to the model and then refused. ({@code search_knowledge} is an
 * ordinary tool bean: reading is always allowed.) It lives beside the tools it offers: {@code builtin} depends on
 * {@code knowledge}, never the other way round.
 */
@ApplicationScoped
public class KnowledgeTools implements ToolProvider {

    private final KnowledgeStore store;
    private final LearningConfig learning;
    private final ValidatedQueries queries;

    KnowledgeTools(KnowledgeStore store, LearningConfig learning, ValidatedQueries queries) {
        this.store = store;
        this.learning = learning;
        this.queries = queries;
    }

    @Override
    public List<ToolRegistration> registrations() {
        if (!learning.enabled()) {
            return List.of();
        }
        return List.of(
                new ToolRegistration(TypedTool.describe(SaveLearningTool.class), () -> new SaveLearningTool(store, learning)),
                new ToolRegistration(TypedTool.describe(SaveValidatedQueryTool.class),
                        () -> new SaveValidatedQueryTool(store, learning, queries)));
    }
}
