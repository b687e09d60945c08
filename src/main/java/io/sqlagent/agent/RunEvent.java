package io.sqlagent.agent;

import java.util.Optional;
import java.util.UUID;

import io.sqlagent.http.Uuids;

/**
 * One event of a chat run as it goes on the wire and into the store: its SSE {@code id}
 * ({@code <run id>:<seq>}, seq counting from 1 in the run), its name and its JSON data.
 */
public record RunEvent(UUID runId, int seq, String name, String data) {

    /** The SSE {@code id:} of the event, which a client sends back as {@code Last-Event-ID}. */
    public String id() {
        return id(runId, seq);
    }

    /** Whether the run ends with this event ({@code done} or {@code error}). */
    public boolean last() {
        return isLast(name);
    }

    static boolean isLast(String name) {
        return "done".equals(name) || "error".equals(name);
    }

    static String id(UUID runId, int seq) {
        return runId + ":" + seq;
    }

    /** A {@code Last-Event-ID} value taken apart: the run and the last seq the client has. */
    public record Position(UUID runId, int seq) {

        /** {@code <run id>:<seq>} as this service wrote it, or empty for anything else. */
        public static Optional<Position> parse(String lastEventId) {
            if (lastEventId == null) {
                return Optional.empty();
            }
            String text = lastEventId.strip();
            int colon = text.lastIndexOf(':');
            if (colon < 0 || colon == text.length() - 1 || text.length() > 64) {
                return Optional.empty();
            }
            Optional<UUID> run = Uuids.parse(text.substring(0, colon));
            String digits = text.substring(colon + 1);
            if (run.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9') || digits.length() > 9) {
                return Optional.empty();
            }
            return Optional.of(new Position(run.get(), Integer.parseInt(digits)));
        }
    }
}
