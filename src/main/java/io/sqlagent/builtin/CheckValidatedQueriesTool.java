package io.sqlagent.builtin;

import jakarta.inject.Singleton;

import io.smallrye.mutiny.Uni;
import io.sqlagent.knowledge.ValidatedQueries;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.TypedTool;

/**
 * {@code check_validated_queries}: runs every validated query again as the caller's {@code run_sql}
 * and flags those that no longer run or whose result drifted (left out of searches until a later
 * check finds them as they were). Scope {@code knowledge:review}; never offered to the agent. The
 * same as {@code POST /api/knowledge/validated-queries/check}.
 */
@Singleton
@ToolDefinition(name = "check_validated_queries", title = "Check validated queries", namespace = "knowledge", tags = {
        "knowledge",
        "review" }, description = "Run every saved validated query again and flag those that no longer run or whose result changed since it was validated.", returns = "{\"checked\":n,\"counts\":{\"ok\",\"failed\",\"drifted\",\"skipped\"},\"flagged\":[{id,name,status,message}]}", usage = "Run after schema or data changes; fix or delete what is flagged with review_proposal.")
public class CheckValidatedQueriesTool extends TypedTool<CheckValidatedQueriesTool.Arguments> {

    private final ValidatedQueries queries;

    CheckValidatedQueriesTool(ValidatedQueries queries) {
        this.queries = queries;
    }

    /** No arguments. */
    public record Arguments() {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        return queries.checkAll(context).map(ValidatedQueries::summary);
    }
}
