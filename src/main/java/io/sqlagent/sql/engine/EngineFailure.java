package io.sqlagent.sql.engine;

import java.util.Optional;

/**
 * A server's refusal of a statement in engine-free terms, phrased for the model to fix its SQL.
 *
 * @param message the server's message
 * @param sqlState the SQLSTATE (PostgreSQL's own, or MySQL's five-character state beside its error number)
 * @param code the engine's own error code ({@code 1146} for MySQL's unknown table), when it has one
 * @param position 1-based character position of the error in the statement, when the server gave one
 * @param timedOut whether the statement was stopped by its time limit
 */
public record EngineFailure(String message, String sqlState, Optional<Integer> code, Optional<Integer> position,
        boolean timedOut) {
}
