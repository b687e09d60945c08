package io.sqlagent.sql.engine;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * What a statement will read, with its names resolved by the server: every table it reads, also through views, with
 * the table's columns, and what the statement names. The service's table policy and hidden columns are applied to
 * this, above the engine ({@code sql.run}); the engine only says what is read, and says so on the safe side: a
 * relation may be listed that the server would not read, never the other way round. PostgreSQL's plan answers the
 * same question in its own way ({@code run.PgPlanCheck}), so only the other engines give this.
 */
@FunctionalInterface
public interface StatementReads {

    /**
     * What {@code sql} reads, looked up on {@code connection} inside the statement's transaction (before the statement
     * runs, as the caller's account sees the schema).
     *
     * @param tables the tables the statement names, from the engine's statement check: {@code name} or
     *        {@code schema.name}, folded as the check folds them
     */
    Uni<Reads> of(SqlConnection connection, String sql, Set<String> tables);

    /**
     * What a statement reads.
     *
     * @param defaultSchema the schema unqualified names resolve to (MySQL's current database); an unqualified entry
     *        of the table policy or of the hidden columns means a table of this schema
     * @param relations every table and view the statement reads, directly or through views
     * @param named every name the statement, and the definition of each view it reads, holds, folded: a column is
     *        read only if its name is among these, unless {@code wholeRows} says otherwise
     * @param wholeRows when the statement reads columns it does not name ({@code *}, {@code t.*}, a natural join):
     *        what it wrote, for the refusal; then every column of every relation counts as read
     */
    record Reads(String defaultSchema, List<Relation> relations, Set<String> named, Optional<String> wholeRows) {
    }

    /**
     * A table or view a statement reads.
     *
     * @param schema its schema (database), as the server spells it
     * @param name its name, as the server spells it
     * @param columns its columns; empty for a view
     * @param through the view the statement reads it through (the outermost), empty when it names it itself
     * @param unchecked why what a view reads cannot be known (its definition cannot be read, or it calls a stored
     *        function); empty for a table or a view whose reads are listed
     */
    record Relation(String schema, String name, List<String> columns, Optional<String> through,
            Optional<String> unchecked) {
    }
}
