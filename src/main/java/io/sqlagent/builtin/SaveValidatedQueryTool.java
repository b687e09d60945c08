package io.sqlagent.builtin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.smallrye.mutiny.Uni;
import io.sqlagent.knowledge.KnowledgeFile;
import io.sqlagent.knowledge.KnowledgeStore;
import io.sqlagent.knowledge.LearningConfig;
import io.sqlagent.sql.QueryRunner;
import io.sqlagent.sql.SourceRegistry;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.TablePolicy;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.TypedTool;
import io.sqlagent.tool.schema.Param;

/**
 * {@code save_validated_query}: stores a query that answered a question, so similar questions
 * find proven SQL. The SQL must pass what {@code run_sql} checks before running — the guard, the
 * table policy, hidden columns — since a pattern is SQL the agent will run again; a second pattern for the same question or
 * with the same name is refused. Not a
 * CDI bean: the knowledge tool source registers it only while {@code sqlagent.learning.enabled} is true.
 */
@ToolDefinition(name = "save_validated_query", title = "Save validated query", namespace = "knowledge", tags = { "knowledge",
        "pattern",
        "save" }, auditArguments = true, description = "Save a validated query pattern to the knowledge base. Use this when you have successfully executed a SQL query that correctly answers a user question. This helps future queries by providing proven patterns.", returns = "{\"success\":true,\"message\":\"Query pattern saved successfully.\",\"pattern_id\":n,\"name\":...,\"tables_used\":[...]}", usage = "Save only SQL that ran and answered the question correctly.")
public class SaveValidatedQueryTool extends TypedTool<SaveValidatedQueryTool.Arguments> {

    private final KnowledgeStore store;
    private final SqlGuard guard;
    private final LearningConfig learning;
    private final RunSqlChecks checks;

    /** What else {@code run_sql} would refuse a statement for: tables outside the policy, hidden columns. */
    public record RunSqlChecks(TablePolicy tables, QueryRunner runner, SourceRegistry sources, SqlConfig config) {
    }

    /**
     * A tool saving into {@code store} SQL that {@code guard} allows and {@code checks} pass,
     * refusing while {@code learning} is disabled.
     */
    public SaveValidatedQueryTool(KnowledgeStore store, SqlGuard guard, LearningConfig learning, RunSqlChecks checks) {
        this.store = store;
        this.guard = guard;
        this.learning = learning;
        this.checks = checks;
    }

    /** Arguments of {@code save_validated_query}. */
    public record Arguments(
            @Param(description = "A short, descriptive name for the query pattern (max 100 characters).", maxLength = 100) String name,
            @Param(description = "The natural language question this query answers.", maxLength = 2000) String question,
            @Param(description = "The validated SQL query that correctly answers the question.", maxLength = 100_000) String sql,
            @Param(description = "A brief summary of what the query does and what data it returns.", maxLength = 5000) String summary,
            @Param(description = "List of table names used in the query.", maxItems = 100) List<String> tablesUsed,
            @Param(description = "Optional: Notes about data quality issues, edge cases, or important considerations for this query.", maxLength = 5000) Optional<String> dataQualityNotes) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        if (!learning.enabled()) {
            throw new ToolRefusedException(SaveLearningTool.DISABLED);
        }
        if (arguments.name().isBlank() || arguments.question().isBlank() || arguments.summary().isBlank()) {
            throw new ToolException("The name, question and summary must not be blank.");
        }
        return guard.checkOffEventLoop(arguments.sql()).flatMap(verdict -> {
            if (!verdict.allowed()) {
                return Uni.createFrom().failure(new ToolRefusedException(verdict.reason()));
            }
            Optional<String> refused = checks.tables().refusal(verdict.tables());
            if (refused.isPresent()) {
                return Uni.createFrom().failure(new ToolRefusedException(refused.get()));
            }
            return hiddenColumnsChecked(arguments.sql()).flatMap(ok -> save(arguments, context));
        });
    }

    /** A pattern is SQL the agent will run again: one that run_sql would refuse for a hidden column is not kept. */
    private Uni<Void> hiddenColumnsChecked(String sql) {
        return checks.sources().find(checks.config().source())
                .map(source -> checks.runner().checkHiddenColumns(source, sql))
                .orElseGet(() -> Uni.createFrom().voidItem());
    }

    private Uni<Map<String, Object>> save(Arguments arguments, ToolCallContext context) {
        List<String> tables = arguments.tablesUsed().stream().map(String::strip).filter(t -> !t.isEmpty()).distinct().toList();
        KnowledgeFile.Pattern pattern = new KnowledgeFile.Pattern(arguments.name().strip(), arguments.question().strip(),
                arguments.sql().strip(), arguments.summary().strip(), tables,
                arguments.dataQualityNotes().filter(text -> !text.isBlank()).orElse(null));
        return store.saveAgentPattern(pattern, context.conversationId().orElse(null))
                .map(id -> {
                    Map<String, Object> answer = new LinkedHashMap<>();
                    answer.put("success", true);
                    answer.put("message", "Query pattern saved successfully.");
                    answer.put("pattern_id", id);
                    answer.put("name", pattern.name());
                    answer.put("tables_used", tables);
                    return answer;
                });
    }
}
