package io.sqlagent.agent.loop;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.sqlagent.tool.BeforeToolHook;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolScopes;

/**
 * The agent never reviews knowledge: a call of a reviewers' tool ({@code knowledge:review}:
 * {@code list_proposals}, {@code review_proposal}, {@code check_validated_queries}) made by the
 * agent loop is blocked, whatever the chat's caller may do, so a model cannot approve what it
 * proposed. The tools are not offered to it either; this catches a model that names one anyway.
 */
@ApplicationScoped
public class ReviewersOnly implements BeforeToolHook {

    private final ToolScopes scopes;

    ReviewersOnly(ToolScopes scopes) {
        this.scopes = scopes;
    }

    @Override
    public int priority() {
        return -100;
    }

    @Override
    public Uni<Decision> before(ToolCall call, ToolDescriptor descriptor, ToolCallContext context) {
        if (AgentRun.CALLER.equals(context.caller()) && scopes.forReviewers(descriptor)) {
            return BeforeToolHook.block("Tool '" + descriptor.name()
                    + "' is for people reviewing the agent's knowledge; the agent may not call it.");
        }
        return BeforeToolHook.proceed(call);
    }
}
