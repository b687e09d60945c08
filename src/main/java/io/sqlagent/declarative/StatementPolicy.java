package io.sqlagent.declarative;

import java.util.Optional;
import java.util.Set;

/**
 * Checks a declared statement against the table policy and hidden columns as its file loads, so that a tool which
 * would read what the policy refuses is never offered ({@link DeclarativeTools} asks PostgreSQL for the statement's
 * plan where it can; each call is checked again by its plan).
 */
@FunctionalInterface
public interface StatementPolicy {

    /** Lets every statement load: the check is left to each call. */
    StatementPolicy NONE = (source, sql, tables) -> Optional.empty();

    /**
     * Why the statement may not be declared, if it may not.
     *
     * @param source the source the tool runs on
     * @param sql the statement with positional parameters ({@code $1}, ...)
     * @param tables the relations the guard found named in it
     */
    Optional<String> refusal(String source, String sql, Set<String> tables);
}
