package io.sqlagent.knowledge;

import io.sqlagent.Caller;
import io.sqlagent.tool.ToolScopes;

/**
 * Who reads the knowledge base, and so which saved items it may see: an approved item is shared by every caller,
 * a proposal (proposed or rejected) only by its author (the principal id it was proposed by) and by reviewers
 * (scope {@code knowledge:review}). Every read applies it — lists, reads by id, the near-duplicate and same-title
 * checks of a save — so nothing one principal proposed reaches another before a reviewer approves it.
 *
 * @param principal the caller's principal id
 * @param reviewer whether the caller may review, and so read every item
 */
public record KnowledgeReader(String principal, boolean reviewer) {

    /** The reader {@code caller} is. */
    public static KnowledgeReader of(Caller caller) {
        return new KnowledgeReader(caller.name(), caller.has(ToolScopes.KNOWLEDGE_REVIEW));
    }

    /**
     * Whether this reader proposed an item proposed by {@code proposedBy}. An anonymous caller is nobody's author:
     * every caller without credentials has that name.
     */
    public boolean authored(String proposedBy) {
        return proposedBy != null && proposedBy.equals(principal) && !Caller.ANONYMOUS.equals(principal);
    }

    /** Whether this reader may see an item with {@code status}, proposed by {@code proposedBy}. */
    public boolean mayRead(String status, String proposedBy) {
        return reviewer || "approved".equals(status) || authored(proposedBy);
    }

    boolean mayRead(ReviewedItem item) {
        return mayRead(item.status, item.proposedBy);
    }

    /** The principal matched against {@code proposed_by} in the store: none (no row matches) for an anonymous caller. */
    String author() {
        return Caller.ANONYMOUS.equals(principal) ? "" : principal;
    }
}
