package io.sqlagent.agent.conversation;

import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * Where a page of {@code GET /api/conversations} ended: the last conversation's {@code updated_at}
 * and id (ids break ties), sent to the client as an opaque URL-safe token.
 */
public record ConversationCursor(OffsetDateTime updatedAt, UUID id) {

    /** The token a client sends back as {@code before}. */
    public String encode() {
        String text = updatedAt + "|" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The cursor of a token, or empty when it is not one this service gave out. */
    public static Optional<ConversationCursor> decode(String token) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int bar = text.indexOf('|');
            if (bar < 0) {
                return Optional.empty();
            }
            return Optional.of(new ConversationCursor(OffsetDateTime.parse(text.substring(0, bar)),
                    UUID.fromString(text.substring(bar + 1))));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
