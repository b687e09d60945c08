package io.sqlagent.declarative;

import java.util.List;
import java.util.Optional;

/**
 * The {@code security} block of a declared tool.
 *
 * @param readOnly the statement must be a single read-only query and runs in a {@code READ ONLY} transaction
 * @param maxQueryLength longest statement, in characters, after arrays are expanded
 * @param forbiddenKeywords words (upper-cased) the statement must not contain as SQL tokens
 * @param audit whether the audit log records the call's arguments
 * @param scopes scopes a caller needs, every one (enforced by {@link io.sqlagent.tool.ToolScopes})
 * @param requiredAuthority one more scope a caller needs
 * @param warning a caution shown with the tool
 */
public record DeclaredToolSecurity(boolean readOnly, int maxQueryLength, List<String> forbiddenKeywords, boolean audit,
        List<String> scopes, Optional<String> requiredAuthority, Optional<String> warning) {

    /** Default longest statement. */
    public static final int DEFAULT_MAX_QUERY_LENGTH = 10_000;

    public DeclaredToolSecurity {
        forbiddenKeywords = List.copyOf(forbiddenKeywords);
        scopes = List.copyOf(scopes);
    }
}
