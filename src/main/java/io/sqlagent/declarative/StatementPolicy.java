package io.sqlagent.declarative;

import java.util.Optional;
import java.util.Set;

/**
 * Checks a declared statement against the table policy and hidden columns as its file loads, so that a tool which
 * would read what the policy refuses is never offered ({@link DeclarativeTools} asks PostgreSQL for the statement's
 * plan, or another engine's server what the statement names, where it can; each call is checked again).
 */
@FunctionalInterface
public interface StatementPolicy {

    /** Lets every statement load: the check is left to each call. */
    StatementPolicy NONE = (source, sql, tables) -> Optional.empty();

    /**
     * Why the statement may not be declared, if it may not.
     *
     * @param source the source the tool runs on
     * @param sql the statement with positional parameters ({@code $1}, ..., or MySQL's {@code ?})
     * @param tables the relations PostgreSQL's guard found named in it; empty on another engine, whose names only its
     *        server resolves (an unqualified one is a table of the source's own database)
     */
    Optional<String> refusal(String source, String sql, Set<String> tables);
}
