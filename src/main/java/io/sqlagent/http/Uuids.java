package io.sqlagent.http;

import java.util.Optional;
import java.util.UUID;

/** UUID checks, written once: ids in paths and bodies are UUIDs in their canonical 36-character form. */
public final class Uuids {

    /** A UUID in its canonical form, as a pattern (for a {@code @Pattern} constraint): what {@link #parse} takes. */
    public static final String CANONICAL = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

    private Uuids() {
    }

    /**
     * The UUID {@code text} spells, or empty. {@link UUID#fromString} alone also takes short
     * forms such as {@code 1-2-3-4-5}, which no id the service gives out has.
     */
    public static Optional<UUID> parse(String text) {
        if (text == null || text.length() != 36) {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
