package io.sqlagent.sql.run;

import java.util.Optional;

/**
 * CDI event fired when PostgreSQL rejects a statement the agent ran, so that learning can notice
 * the error and, if the agent recovers, remember the fix.
 *
 * @param source the source's name
 * @param sql the statement
 * @param sqlState the SQLSTATE code
 * @param message the message the model saw
 * @param conversationId the conversation, when the call came from the agent
 */
public record SqlErrorOccurred(String source, String sql, String sqlState, String message, Optional<String> conversationId) {
}
