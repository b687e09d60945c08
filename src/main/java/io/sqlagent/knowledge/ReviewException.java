package io.sqlagent.knowledge;

import io.sqlagent.tool.ToolException;

/**
 * A review request that cannot be done, with the stable code and the HTTP status to answer it with:
 * an unknown item ({@code 404 proposal_not_found}), one reviewed already ({@code 409 already_reviewed}),
 * edits that are not valid ({@code 400 invalid_edits}) or that clash with another item
 * ({@code 409 duplicate}). Over MCP it is an ordinary tool failure with the same message.
 */
public class ReviewException extends ToolException {

    private final String code;
    private final int status;

    public ReviewException(String code, int status, String message) {
        super(message);
        this.code = code;
        this.status = status;
    }

    static ReviewException notFound(String id) {
        return new ReviewException("proposal_not_found", 404, "No knowledge item has id '" + KnowledgeItemId.shown(id)
                + "' (ids look like learning-12 or query-7)");
    }

    static ReviewException invalid(String message) {
        return new ReviewException("invalid_edits", 400, message);
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }
}
