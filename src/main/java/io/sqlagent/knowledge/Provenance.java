package io.sqlagent.knowledge;

import java.util.Optional;
import java.util.UUID;

/**
 * Where something the agent saved comes from, kept with it: the channel that saved it
 * ({@code agent}, {@code mcp}, {@code rest}, {@code auto} for auto-learning), the principal, and
 * the conversation whose latest question is recorded beside it.
 *
 * @param source the channel
 * @param principal who proposed it
 * @param conversationId the conversation, if any
 */
public record Provenance(String source, String principal, Optional<String> conversationId) {

    /** The conversation as the store's key, when it is one (the question is looked up by it). */
    Optional<UUID> conversation() {
        try {
            return conversationId.map(UUID::fromString);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
