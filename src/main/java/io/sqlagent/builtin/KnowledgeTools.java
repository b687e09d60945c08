package io.sqlagent.builtin;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.sqlagent.knowledge.KnowledgeStore;
import io.sqlagent.knowledge.LearningConfig;
import io.sqlagent.sql.QueryRunner;
import io.sqlagent.sql.SourceRegistry;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.TablePolicy;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.tool.ToolRegistration;
import io.sqlagent.tool.ToolSource;
import io.sqlagent.tool.TypedTool;

/**
 * Contributes the two tools that write to the knowledge base, only while
 * {@code sqlagent.learning.enabled} is true: when learning is off they are neither listed nor
 * callable, rather than offered to the model and then refused. ({@code search_knowledge} is an
 * ordinary tool bean: reading is always allowed.) It lives beside the tools it offers: {@code builtin} depends on
 * {@code knowledge}, never the other way round.
 */
@ApplicationScoped
public class KnowledgeTools implements ToolSource {

    private final KnowledgeStore store;
    private final SqlGuard guard;
    private final LearningConfig learning;
    private final SaveValidatedQueryTool.RunSqlChecks checks;

    KnowledgeTools(KnowledgeStore store, SqlGuard guard, LearningConfig learning, TablePolicy tables, QueryRunner runner,
            SourceRegistry sources, SqlConfig config) {
        this.store = store;
        this.guard = guard;
        this.learning = learning;
        this.checks = new SaveValidatedQueryTool.RunSqlChecks(tables, runner, sources, config);
    }

    @Override
    public List<ToolRegistration> registrations() {
        if (!learning.enabled()) {
            return List.of();
        }
        return List.of(
                new ToolRegistration(TypedTool.describe(SaveLearningTool.class), () -> new SaveLearningTool(store, learning)),
                new ToolRegistration(TypedTool.describe(SaveValidatedQueryTool.class),
                        () -> new SaveValidatedQueryTool(store, guard, learning, checks)));
    }
}
