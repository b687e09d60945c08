package io.sqlagent.builtin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.smallrye.mutiny.Uni;
import io.sqlagent.StorableText;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.knowledge.KnowledgeFile;
import io.sqlagent.knowledge.KnowledgeReader;
import io.sqlagent.knowledge.KnowledgeStore;
import io.sqlagent.knowledge.LearningConfig;
import io.sqlagent.knowledge.Provenance;
import io.sqlagent.knowledge.ResultShape;
import io.sqlagent.knowledge.SaveOutcome;
import io.sqlagent.knowledge.ValidatedQueries;
import io.sqlagent.tool.ToolArgumentsException;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.TypedTool;

/**
 * {@code save_validated_query}: stores a query that answered a question, so similar questions
 * find proven SQL. The SQL runs again first, as the caller's {@code run_sql} (guard, table policy,
 * hidden columns, read-only sandbox, the caller's scopes and database role): SQL that is refused or
 * fails is not kept, and what is kept records its result's shape and digest, which
 * {@code POST /api/knowledge/validated-queries/check} compares later. A second pattern for the same
 * question or with the same name is refused. While {@code sqlagent.learning.approval=required} it is
 * a proposal. Not a CDI bean: the knowledge tool source registers it only while
 * {@code sqlagent.learning.enabled} is true.
 */
@ToolDefinition(name = "save_validated_query", title = "Save validated query", namespace = "knowledge", tags = { "knowledge",
        "pattern",
        "save" }, auditArguments = true, description = "Save a validated query pattern to the knowledge base. Use this when you have successfully executed a SQL query that correctly answers a user question. This helps future queries by providing proven patterns.", returns = "{\"success\":true,\"message\":\"Query pattern saved successfully.\",\"pattern_id\":n,\"name\":...,\"tables_used\":[...],"
                + "\"status\":\"approved\"|\"proposed\",\"result\":{\"columns\":[{\"name\",\"type\"}],\"row_count\":n,\"digest\":...}}", usage = "Save only SQL that ran and answered the question correctly.")
public class SaveValidatedQueryTool extends TypedTool<SaveValidatedQueryTool.Arguments> {

    private final KnowledgeStore store;
    private final LearningConfig learning;
    private final ValidatedQueries queries;

    /** A tool saving into {@code store} SQL that {@code queries} ran, refusing while {@code learning} is disabled. */
    public SaveValidatedQueryTool(KnowledgeStore store, LearningConfig learning, ValidatedQueries queries) {
        this.store = store;
        this.learning = learning;
        this.queries = queries;
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
        if (!StorableText.isVisible(arguments.name()) || !StorableText.isVisible(arguments.question())
                || !StorableText.isVisible(arguments.summary())) {
            throw new ToolException("The name, question and summary must not be blank.");
        }
        ToolArgumentsException.requireStorable("save_validated_query", "name", arguments.name(), "question",
                arguments.question(), "sql", arguments.sql(), "summary", arguments.summary(), "tables_used",
                arguments.tablesUsed(), "data_quality_notes", arguments.dataQualityNotes().orElse(null));
        return queries.run(arguments.sql(), context).flatMap(shape -> save(arguments, shape, context));
    }

    private Uni<Map<String, Object>> save(Arguments arguments, ResultShape shape, ToolCallContext context) {
        List<String> tables = arguments.tablesUsed().stream().map(String::strip).filter(StorableText::isVisible).distinct()
                .toList();
        KnowledgeFile.Pattern pattern = new KnowledgeFile.Pattern(arguments.name().strip(), arguments.question().strip(),
                arguments.sql().strip(), arguments.summary().strip(), tables,
                arguments.dataQualityNotes().filter(text -> !text.isBlank()).orElse(null));
        Provenance provenance = new Provenance(context.caller(), context.identity().name(), context.conversationId());
        return store.saveAgentPattern(pattern, provenance, shape, KnowledgeReader.of(context.identity()))
                .map(saved -> {
                    SaveOutcome.Stored stored = (SaveOutcome.Stored) saved;
                    boolean proposed = stored.status().equals("proposed");
                    Map<String, Object> answer = new LinkedHashMap<>();
                    answer.put("success", true);
                    answer.put("message", proposed ? "Query pattern proposed; it is used once a reviewer approves it."
                            : "Query pattern saved successfully.");
                    answer.put("pattern_id", stored.id());
                    answer.put("name", pattern.name());
                    answer.put("tables_used", tables);
                    answer.put("status", stored.status());
                    Map<String, Object> result = new LinkedHashMap<>();
                    result.put("columns", shape.columns());
                    result.put("row_count", shape.rows());
                    result.put("digest", shape.digest());
                    answer.put("result", result);
                    return answer;
                });
    }
}
