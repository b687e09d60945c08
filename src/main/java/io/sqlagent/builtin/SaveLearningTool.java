package io.sqlagent.builtin;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.smallrye.mutiny.Uni;
import io.sqlagent.StorableText;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.knowledge.KnowledgeReader;
import io.sqlagent.knowledge.KnowledgeStore;
import io.sqlagent.knowledge.LearningConfig;
import io.sqlagent.knowledge.Provenance;
import io.sqlagent.knowledge.SaveOutcome;
import io.sqlagent.tool.ToolArgumentsException;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.TypedTool;

/**
 * {@code save_learning}: stores what the agent found out (a type mismatch, a schema surprise, a
 * business rule) so later questions can find it. The same title in the same category is stored
 * once; saving it again fails with the stored one's id. A learning that says the same as a stored one in
 * other words is not saved: the answer is {@code success: false} with {@code duplicate_of}. Both compare only with
 * learnings the caller may read (approved ones, its own proposals; every one for a reviewer). While
 * {@code sqlagent.learning.approval=required} what is saved is a proposal ({@code status: proposed}). Not a CDI bean: the
 * knowledge tool source
 * registers it only while {@code sqlagent.learning.enabled} is true.
 */
@ToolDefinition(name = "save_learning", title = "Save learning", namespace = "knowledge", tags = { "knowledge", "learning",
        "save" }, auditArguments = true, description = "Save a new learning to the knowledge base. Use this when you discover something important about the database schema, business logic, or query patterns that would be useful for future queries.", returns = "{\"success\":true,\"message\":\"Learning saved successfully.\",\"learning_id\":n,\"title\":...,\"category\":...,\"status\":\"approved\"|\"proposed\"}; "
                + "or {\"success\":false,\"message\":...,\"duplicate_of\":{\"id\",\"title\",\"status\",\"similarity\"}} when a stored learning says the same", usage = "Save after recovering from a SQL error or when the user corrects you; search_knowledge first to avoid repeats.")
public class SaveLearningTool extends TypedTool<SaveLearningTool.Arguments> {

    static final String DISABLED = "Learning is disabled (sqlagent.learning.enabled=false)";

    private final KnowledgeStore store;
    private final LearningConfig learning;

    /** A tool saving into {@code store}, refusing while {@code learning} is disabled. */
    public SaveLearningTool(KnowledgeStore store, LearningConfig learning) {
        this.store = store;
        this.learning = learning;
    }

    /** Arguments of {@code save_learning}. */
    public record Arguments(
            @Param(description = "A short, descriptive title for the learning (max 100 characters).", maxLength = 100) String title,
            @Param(description = "A detailed description of what was learned and why it matters.", maxLength = 20_000) String description,
            @Param(description = "The category of this learning.", allowed = {
                    "type_error", "schema_fix", "query_pattern", "data_quality", "business_logic" }) String category,
            @Param(description = "Optional: The SQL query related to this learning.", maxLength = 100_000) Optional<String> sql){
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        if (!learning.enabled()) {
            throw new ToolRefusedException(DISABLED);
        }
        if (!StorableText.isVisible(arguments.title()) || !StorableText.isVisible(arguments.description())) {
            throw new ToolException("The title and the description must not be blank.");
        }
        ToolArgumentsException.requireStorable("save_learning", "title", arguments.title(), "description",
                arguments.description(), "sql", arguments.sql().orElse(null));
        String title = arguments.title().strip();
        String sql = arguments.sql().filter(text -> !text.isBlank()).orElse(null);
        Provenance provenance = new Provenance(context.caller(), context.identity().name(), context.conversationId());
        return store.saveLearning(title, arguments.description().strip(), arguments.category(), sql, provenance,
                KnowledgeReader.of(context.identity()))
                .map(saved -> answer(saved, title, arguments.category()));
    }

    private static Map<String, Object> answer(SaveOutcome saved, String title, String category) {
        Map<String, Object> answer = new LinkedHashMap<>();
        if (saved instanceof SaveOutcome.NearDuplicate duplicate) {
            answer.put("success", false);
            answer.put("message", "Not saved: learning " + duplicate.pointer().get("id") + " ('" + duplicate.title()
                    + "') says the same (similarity " + duplicate.pointer().get("similarity")
                    + "). Search for it, and save only what it does not say.");
            answer.put("duplicate_of", duplicate.pointer());
            return answer;
        }
        SaveOutcome.Stored stored = (SaveOutcome.Stored) saved;
        boolean proposed = stored.status().equals("proposed");
        answer.put("success", true);
        answer.put("message", proposed ? "Learning proposed; it is used once a reviewer approves it."
                : "Learning saved successfully.");
        answer.put("learning_id", stored.id());
        answer.put("title", title);
        answer.put("category", category);
        answer.put("status", stored.status());
        return answer;
    }
}
