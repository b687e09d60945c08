package io.sqlagent.builtin;

import java.util.Map;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.smallrye.mutiny.Uni;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.knowledge.KnowledgeReader;
import io.sqlagent.knowledge.KnowledgeReviews;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.TypedTool;

/**
 * {@code list_proposals}: what the agent proposed to learn and waits for a reviewer (while
 * {@code sqlagent.learning.approval=required}), with provenance. Scope {@code knowledge:review};
 * never offered to the agent. The same list as {@code GET /api/knowledge/proposals}.
 */
@Singleton
@ToolDefinition(name = "list_proposals", title = "List knowledge proposals", namespace = "knowledge", tags = { "knowledge",
        "review" }, readOnly = true, description = "List the learnings and validated queries the agent proposed that wait for review, oldest first, with their provenance (question, conversation, SQL, who proposed them, when).", returns = "{\"items\":[{id, kind: learning|validated_query, status, title|name, ..., provenance}]}", usage = "Review each item, then approve (optionally with edits), reject or delete it with review_proposal.")
public class ListProposalsTool extends TypedTool<ListProposalsTool.Arguments> {

    private final KnowledgeReviews reviews;

    ListProposalsTool(KnowledgeReviews reviews) {
        this.reviews = reviews;
    }

    /** Arguments of {@code list_proposals}. */
    public record Arguments(
            @Param(description = "Most proposals to list (default 50).", minimum = 1, maximum = 100) Optional<Integer> limit) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        return reviews.proposals(arguments.limit().orElse(50), KnowledgeReader.of(context.identity()))
                .map(items -> Map.of("items", items));
    }
}
