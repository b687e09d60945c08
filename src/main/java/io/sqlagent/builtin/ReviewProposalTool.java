package io.sqlagent.builtin;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.knowledge.KnowledgeReviews;
import io.sqlagent.knowledge.ReviewException;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.TypedTool;

/**
 * {@code review_proposal}: approves a proposal (optionally with edits), rejects it (optionally with
 * a reason) or deletes any knowledge item, recording who decided and when. Scope
 * {@code knowledge:review}; never offered to the agent. The same rules as the REST endpoints under
 * {@code /api/knowledge}: an unknown id, an item reviewed already and invalid edits change nothing.
 */
@Singleton
@ToolDefinition(name = "review_proposal", title = "Review a knowledge proposal", namespace = "knowledge", tags = { "knowledge",
        "review" }, auditArguments = true, description = "Approve (optionally with edits), reject (optionally with a reason) or delete a learning or validated query the agent saved. Edits: title, description, category, sql for a learning; name, question, sql, summary, tables_used, data_quality_notes for a validated query (an edited SQL runs again first).", returns = "{\"item\": {id, kind, status, ..., provenance}} for approve and reject; {\"deleted\": id} for delete", usage = "List proposals first with list_proposals; ids look like learning-12 or query-7.")
public class ReviewProposalTool extends TypedTool<ReviewProposalTool.Arguments> {

    private final KnowledgeReviews reviews;

    ReviewProposalTool(KnowledgeReviews reviews) {
        this.reviews = reviews;
    }

    /** Arguments of {@code review_proposal}. */
    public record Arguments(
            @Param(description = "The item's id, e.g. learning-12 or query-7.", maxLength = 40) String id,
            @Param(description = "What to do.", allowed = {
                    "approve", "reject", "delete" }) String decision,
            @Param(description = "Why it is rejected (reject only).", maxLength = 2000) Optional<String> reason,
            @Param(description = "Edit: a learning's title.", maxLength = 100) Optional<String> title,
            @Param(description = "Edit: a learning's description.", maxLength = 20_000) Optional<String> description,
            @Param(description = "Edit: a learning's category.", allowed = { "type_error", "schema_fix", "query_pattern",
                    "data_quality", "business_logic" }) Optional<String> category,
            @Param(description = "Edit: the SQL (a validated query's runs again before it is approved).", maxLength = 100_000) Optional<String> sql,
            @Param(description = "Edit: a validated query's name.", maxLength = 100) Optional<String> name,
            @Param(description = "Edit: a validated query's question.", maxLength = 2000) Optional<String> question,
            @Param(description = "Edit: a validated query's summary.", maxLength = 5000) Optional<String> summary,
            @Param(description = "Edit: a validated query's tables.", maxItems = 100) Optional<List<String>> tablesUsed,
            @Param(description = "Edit: a validated query's data quality notes.", maxLength = 5000) Optional<String> dataQualityNotes){

        /** The edits given, by field name. */
        ObjectNode edits() {
            ObjectNode edits = SnakeCaseJson.MAPPER.createObjectNode();
            title.ifPresent(value -> edits.put("title", value));
            description.ifPresent(value -> edits.put("description", value));
            category.ifPresent(value -> edits.put("category", value));
            sql.ifPresent(value -> edits.put("sql", value));
            name.ifPresent(value -> edits.put("name", value));
            question.ifPresent(value -> edits.put("question", value));
            summary.ifPresent(value -> edits.put("summary", value));
            tablesUsed.ifPresent(value -> value.forEach(edits.putArray("tables_used")::add));
            dataQualityNotes.ifPresent(value -> edits.put("data_quality_notes", value));
            return edits;
        }
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        ObjectNode edits = arguments.edits();
        if (!arguments.decision().equals("approve") && !edits.isEmpty()) {
            throw new ReviewException("invalid_edits", 400, "Edits are only made when approving; nothing was changed.");
        }
        if (!arguments.decision().equals("reject") && arguments.reason().isPresent()) {
            throw new ReviewException("invalid_edits", 400, "A reason is only kept when rejecting; nothing was changed.");
        }
        return switch (arguments.decision()) {
            case "approve" -> reviews.approve(arguments.id(), edits, context).map(item -> Map.of("item", item));
            case "reject" -> reviews.reject(arguments.id(), arguments.reason().orElse(null), context.identity().name())
                    .map(item -> Map.of("item", item));
            default -> reviews.delete(arguments.id()).replaceWith(Map.of("deleted", arguments.id()));
        };
    }
}
