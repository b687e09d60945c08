package io.sqlagent.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads server-sent events from the wire, as a chat UI would: a real HTTP/1.1 request, the body
 * parsed line by line ({@code event:}, {@code data:}, blank line ends an event).
 */
public final class SseClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** One event: its name, its JSON data and its id (null when it has none). */
    public record Event(String name, JsonNode data, String id) {
        public Event(String name, JsonNode data) {
            this(name, data, null);
        }

        @Override
        public String toString() {
            return (id == null ? "" : id + " ") + name + " " + data;
        }
    }

    /** The fields the SSE standard defines; a line naming another is ignored by browsers and flagged here. */
    private static final java.util.Set<String> FIELDS = java.util.Set.of("event", "data", "id", "retry");

    private final HttpResponse<InputStream> response;
    private final BufferedReader reader;
    private final List<String> foreignLines = new ArrayList<>();

    private SseClient(HttpResponse<InputStream> response) {
        this.response = response;
        this.reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    /** Posts {@code body} to {@code uri} and returns the open stream. */
    public static SseClient post(URI uri, String body) throws IOException, InterruptedException {
        return post(uri, body, java.util.Map.of());
    }

    /** Posts {@code body} with extra {@code headers} (an identity, say) and returns the open stream. */
    public static SseClient post(URI uri, String body, java.util.Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return new SseClient(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream()));
    }

    /** Opens {@code uri} with GET and returns the open stream. */
    public static SseClient get(URI uri) throws IOException, InterruptedException {
        return get(uri, java.util.Map.of());
    }

    /**
     * Opens {@code uri} with GET and extra {@code headers} ({@code Last-Event-ID}, an identity) and returns the open stream.
     */
    public static SseClient get(URI uri, java.util.Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .header("Accept", "text/event-stream").GET();
        headers.forEach(request::header);
        return new SseClient(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream()));
    }

    /** Reads every event left until the server ends the stream. */
    public Result rest() throws IOException {
        List<Event> events = new ArrayList<>();
        for (Optional<Event> event = next(); event.isPresent(); event = next()) {
            events.add(event.get());
        }
        return new Result(status(), contentType(), events);
    }

    /** The body of an answer that is not a stream (an error). */
    public String body() throws IOException {
        return reader.lines().collect(Collectors.joining("\n"));
    }

    /** Posts and reads every event until the server ends the stream. */
    public static Result chat(URI uri, String body) throws IOException, InterruptedException {
        return chat(uri, body, java.util.Map.of());
    }

    /** Posts with extra {@code headers} and reads every event until the server ends the stream. */
    public static Result chat(URI uri, String body, java.util.Map<String, String> headers)
            throws IOException, InterruptedException {
        try (SseClient client = post(uri, body, headers)) {
            return client.rest();
        }
    }

    public int status() {
        return response.statusCode();
    }

    public String contentType() {
        return response.headers().firstValue("Content-Type").orElse("");
    }

    /** The next event, or empty at the end of the stream. */
    public Optional<Event> next() throws IOException {
        String name = "message";
        String id = null;
        StringBuilder data = null;
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (line.isEmpty()) {
                if (data != null) {
                    return Optional.of(new Event(name, JSON.readTree(data.toString()), id));
                }
                continue;
            }
            if (line.startsWith("event:")) {
                name = line.substring(6).strip();
            } else if (line.startsWith("id:")) {
                id = line.substring(3).strip();
            } else if (line.startsWith("data:")) {
                String piece = line.substring(5);
                piece = piece.startsWith(" ") ? piece.substring(1) : piece;
                data = data == null ? new StringBuilder(piece) : data.append('\n').append(piece);
            } else if (!line.startsWith(":") && !FIELDS.contains(line.split(":", 2)[0])) {
                foreignLines.add(line);
            }
        }
        return data == null ? Optional.empty() : Optional.of(new Event(name, JSON.readTree(data.toString()), id));
    }

    /** The lines read so far that are neither a comment nor a field of the SSE standard. */
    public List<String> foreignLines() {
        return List.copyOf(foreignLines);
    }

    /** Reads until an event matches; fails at the end of the stream. */
    public Event until(Predicate<Event> wanted) throws IOException {
        for (Optional<Event> event = next(); event.isPresent(); event = next()) {
            if (wanted.test(event.get())) {
                return event.get();
            }
        }
        throw new AssertionError("the stream ended before the expected event");
    }

    /** Closes the connection (the client goes away). */
    @Override
    public void close() throws IOException {
        reader.close();
    }

    /** A whole stream. */
    public record Result(int status, String contentType, List<Event> events) {

        public List<String> names() {
            return events.stream().map(Event::name).toList();
        }

        public List<Event> named(String name) {
            return events.stream().filter(e -> e.name().equals(name)).toList();
        }

        public Event first(String name) {
            return named(name).stream().findFirst().orElseThrow(() -> new AssertionError("no " + name + " event in " + events));
        }

        public Event last() {
            return events.get(events.size() - 1);
        }

        /** The answer: the content deltas joined. */
        public String content() {
            return named("content").stream().map(e -> e.data().path("delta").asText()).collect(Collectors.joining());
        }

        public String conversationId() {
            return first("conversation").data().path("conversation_id").asText();
        }
    }
}
