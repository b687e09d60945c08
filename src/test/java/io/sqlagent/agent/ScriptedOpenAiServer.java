package io.sqlagent.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An OpenAI-compatible chat-completions server for tests, on loopback: each request is answered
 * with the next scripted turn, streamed in the OpenAI wire format (text deltas, tool calls whose
 * arguments arrive in pieces, a usage chunk, {@code [DONE]}) or as an HTTP error. Requests are
 * recorded so tests can check what the real client sent. The way langchain4j's ChatModelMock
 * scripts a model, but over HTTP, so the real client, serialization and streaming run. For load
 * runs it can also answer by rule when the script is empty ({@link #program}), take a fixed time
 * per answer ({@link #latency}), keep no request bodies, and time its answers per run.
 */
public final class ScriptedOpenAiServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Turn> script = new ConcurrentLinkedQueue<>();
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final Map<String, ModelTime> modelTimes = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final java.util.Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private final AtomicInteger chatRequests = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    private volatile Function<JsonNode, Turn> program;
    private volatile Duration latency = Duration.ZERO;
    private volatile boolean recording = true;
    private volatile Function<JsonNode, String> runOf;

    /** One scripted answer. */
    public sealed interface Turn permits Text, ToolCalls, Failure, Stall, Raw, Broken {
    }

    /** Streams {@code pieces} as content deltas, then stops. */
    public record Text(List<String> pieces, Duration delay) implements Turn {
    }

    /** Streams {@code preamble} (if any) as content, then the tool calls, each call's arguments split in two chunks. */
    public record ToolCalls(String preamble, List<Call> calls) implements Turn {
    }

    /**
     * Starts a streamed answer, streams {@code pieces} as content, then sends nothing for {@code silence} (a model that hangs).
     */
    public record Stall(List<String> pieces, Duration silence) implements Turn {
    }

    /** One tool call. */
    public record Call(String id, String name, String arguments) {
    }

    /**
     * Answers with an HTTP error. {@code {authorization}} in the message is replaced by the request's
     * Authorization header, as servers that echo the request in their errors do.
     */
    public record Failure(int status, String message, String retryAfter) implements Turn {

        public Failure(int status, String message) {
            this(status, message, null);
        }
    }

    /**
     * Streams {@code pieces} as content, then breaks: with {@code reset}, the connection drops in
     * the middle of the response (a body that promised more bytes); without, the response ends
     * cleanly but without a finish reason or {@code [DONE]} (a stream that stops mid-answer).
     */
    public record Broken(List<String> pieces, boolean reset) implements Turn {
    }

    /**
     * Streams {@code events} as they are (each a whole SSE event, such as {@code "data: {oops\n\n"}): a server that sends what
     * it should not.
     */
    public record Raw(List<String> events) implements Turn {
    }

    /** The time the server spent answering one run's requests: from each request's arrival to its last byte. */
    public record ModelTime(int turns, long nanos) {

        static final ModelTime NONE = new ModelTime(0, 0);

        ModelTime plus(long answerNanos) {
            return new ModelTime(turns + 1, nanos + answerNanos);
        }

        public Duration duration() {
            return Duration.ofNanos(nanos);
        }
    }

    private ScriptedOpenAiServer(HttpServer server) {
        this.server = server;
    }

    /** Starts a server on a free loopback port. */
    public static ScriptedOpenAiServer start() throws IOException {
        // A backlog of 0 means the JDK's 50: a burst of new connections past that waits for a SYN retry (1 s).
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        ScriptedOpenAiServer scripted = new ScriptedOpenAiServer(http);
        http.createContext("/v1/chat/completions", scripted::handle);
        http.createContext("/v1/embeddings", scripted::embed);
        http.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "scripted-openai");
            thread.setDaemon(true);
            return thread;
        }));
        http.start();
        return scripted;
    }

    /** Dimensions of the scripted embeddings. */
    public static final int EMBEDDING_DIMENSIONS = 8;

    private final List<String> embedded = new CopyOnWriteArrayList<>();

    /** The texts the embeddings endpoint was asked to embed, in order. */
    public List<String> embeddedTexts() {
        return new ArrayList<>(embedded);
    }

    /**
     * {@code /v1/embeddings}: a deterministic bag-of-words vector per input (each word adds to one of
     * {@link #EMBEDDING_DIMENSIONS} buckets), so texts sharing words are close and others are not.
     */
    private void embed(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            List<String> inputs = new ArrayList<>();
            if (request.path("input").isArray()) {
                request.path("input").forEach(input -> inputs.add(input.asText()));
            } else {
                inputs.add(request.path("input").asText());
            }
            embedded.addAll(inputs);
            ObjectNode response = JSON.createObjectNode().put("object", "list").put("model", "scripted-embedding");
            ArrayNode data = response.putArray("data");
            for (int i = 0; i < inputs.size(); i++) {
                double[] vector = new double[EMBEDDING_DIMENSIONS];
                vector[0] = 0.01;
                for (String word : inputs.get(i).toLowerCase(java.util.Locale.ROOT).split("\\W+")) {
                    if (!word.isEmpty()) {
                        vector[Math.floorMod(word.hashCode(), EMBEDDING_DIMENSIONS)] += 1;
                    }
                }
                ArrayNode values = data.addObject().put("object", "embedding").put("index", i).putArray("embedding");
                for (double value : vector) {
                    values.add(value);
                }
            }
            response.putObject("usage").put("prompt_tokens", inputs.size()).put("total_tokens", inputs.size());
            byte[] body = JSON.writeValueAsBytes(response);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    /** The base URL a client should use ({@code http://127.0.0.1:port/v1}). */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** Queues the next answers. */
    public ScriptedOpenAiServer then(Turn... turns) {
        script.addAll(List.of(turns));
        return this;
    }

    public static Text text(String... pieces) {
        return new Text(List.of(pieces), Duration.ZERO);
    }

    public static ToolCalls toolCalls(Call... calls) {
        return new ToolCalls(null, List.of(calls));
    }

    /** Text, then tool calls, in one turn (a model that says what it is about to do). */
    public static ToolCalls toolCalls(String preamble, Call... calls) {
        return new ToolCalls(preamble, List.of(calls));
    }

    public static Stall stall(Duration silence) {
        return new Stall(List.of(), silence);
    }

    /** Streams {@code pieces}, then hangs for {@code silence} in the middle of the answer. */
    public static Stall stallAfter(Duration silence, String... pieces) {
        return new Stall(List.of(pieces), silence);
    }

    /** Streams {@code pieces} with {@code delay} before each. */
    public static Text slowText(Duration delay, String... pieces) {
        return new Text(List.of(pieces), delay);
    }

    public static Call call(String id, String name, String arguments) {
        return new Call(id, name, arguments);
    }

    /** Answers every request that finds the script empty with {@code program}'s turn for it (a model that follows rules). */
    public ScriptedOpenAiServer program(Function<JsonNode, Turn> program) {
        this.program = program;
        return this;
    }

    /** Waits {@code latency} before answering each request: the model's own time, fixed. */
    public ScriptedOpenAiServer latency(Duration latency) {
        this.latency = latency;
        return this;
    }

    /** Whether to keep request bodies for {@link #requests()} (on by default; a load run would keep them all). */
    public ScriptedOpenAiServer recordRequests(boolean recording) {
        this.recording = recording;
        return this;
    }

    /** Adds the time spent answering each request to the run that {@code runOf} names for the request body. */
    public ScriptedOpenAiServer timeRuns(Function<JsonNode, String> runOf) {
        this.runOf = runOf;
        return this;
    }

    /** The time spent answering {@code run}'s requests so far (see {@link #timeRuns}). */
    public ModelTime modelTime(String run) {
        return modelTimes.getOrDefault(run, ModelTime.NONE);
    }

    /** The most requests answered at the same time since the start or {@link #resetPeakInFlight()}. */
    public int peakInFlight() {
        return peakInFlight.get();
    }

    public void resetPeakInFlight() {
        peakInFlight.set(inFlight.get());
    }

    /**
     * The TCP connections chat requests came on since the start or {@link #reset()}, told apart by
     * the client's port (a new connection gets a new ephemeral port).
     */
    public int connections() {
        return clientPorts.size();
    }

    /** The chat requests received since the start or {@link #reset()}. */
    public int chatRequests() {
        return chatRequests.get();
    }

    /** Streams {@code pieces}, then drops the connection in the middle of the response. */
    public static Broken resetAfter(String... pieces) {
        return new Broken(List.of(pieces), true);
    }

    /** Streams {@code pieces}, then ends the response without a finish reason or {@code [DONE]}. */
    public static Broken endAfter(String... pieces) {
        return new Broken(List.of(pieces), false);
    }

    /** The request bodies received so far, in order. */
    public List<JsonNode> requests() {
        return new ArrayList<>(requests);
    }

    /** Forgets the script, the recorded requests and times, and any program, latency or timing set. */
    public void reset() {
        script.clear();
        requests.clear();
        modelTimes.clear();
        program = null;
        latency = Duration.ZERO;
        recording = true;
        runOf = null;
        clientPorts.clear();
        chatRequests.set(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        long received = System.nanoTime();
        peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        JsonNode request = null;
        clientPorts.add(exchange.getRemoteAddress().getPort());
        chatRequests.incrementAndGet();
        boolean dropped = false;
        try (exchange) {
            request = JSON.readTree(exchange.getRequestBody());
            if (recording) {
                requests.add(request);
            }
            Turn turn = next(request);
            if (!latency.isZero()) {
                Thread.sleep(latency.toMillis());
            }
            if (turn instanceof Failure failure) {
                String message = failure.message().replace("{authorization}",
                        String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
                byte[] body = JSON.writeValueAsBytes(JSON.createObjectNode().set("error",
                        JSON.createObjectNode().put("message", message).put("type", "server_error")));
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                if (failure.retryAfter() != null) {
                    exchange.getResponseHeaders().add("Retry-After", failure.retryAfter());
                }
                exchange.sendResponseHeaders(failure.status(), body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            if (turn instanceof Broken broken) {
                // A reset promises a body longer than it sends: closing it then drops the connection.
                exchange.sendResponseHeaders(200, broken.reset() ? 1 << 20 : 0);
                OutputStream out = exchange.getResponseBody();
                send(out, chunk(delta().put("role", "assistant").put("content", ""), null));
                for (String piece : broken.pieces()) {
                    send(out, chunk(delta().put("content", piece), null));
                }
                if (broken.reset() && !broken.pieces().isEmpty()) {
                    // A reset can reach the client before it has read the pieces, and the client's kernel then drops
                    // them: the answer had not begun for it, and it retried (ModelFaultsTest, once in a CI run). The
                    // pieces are given time to be read first.
                    out.flush();
                    Thread.sleep(250);
                }
                dropped = broken.reset();
                return;
            }
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            if (turn instanceof Stall stall) {
                send(out, chunk(delta().put("role", "assistant").put("content", ""), null));
                for (String piece : stall.pieces()) {
                    send(out, chunk(delta().put("content", piece), null));
                }
                Thread.sleep(stall.silence().toMillis());
                return;
            }
            if (turn instanceof Raw raw) {
                for (String event : raw.events()) {
                    out.write(event.getBytes(StandardCharsets.UTF_8));
                }
                out.flush();
                return;
            }
            if (turn instanceof Text text) {
                streamText(out, text);
            } else {
                streamToolCalls(out, (ToolCalls) turn);
            }
            send(out, usageChunk());
            out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException | InterruptedException e) {
            // The client went away: nothing more to send.
        }
        // Closing the exchange wrote the last byte (the chunked body's end).
        inFlight.decrementAndGet();
        Function<JsonNode, String> timed = runOf;
        if (timed != null && request != null) {
            long answered = System.nanoTime() - received;
            modelTimes.compute(timed.apply(request), (run, sum) -> (sum == null ? ModelTime.NONE : sum).plus(answered));
        }
        if (dropped) {
            // The JDK server closes the connection of a handler that throws, at once; an unfinished body alone
            // left it open now and then (the client then waited for the model timeout).
            throw new IOException("scripted connection reset");
        }
    }

    private Turn next(JsonNode request) {
        Turn turn = script.poll();
        Function<JsonNode, Turn> rules = program;
        if (turn == null && rules != null) {
            turn = rules.apply(request);
        }
        return turn != null ? turn : new Failure(500, "the test script has no more turns");
    }

    private static void streamText(OutputStream out, Text text) throws IOException, InterruptedException {
        send(out, chunk(delta().put("role", "assistant").put("content", ""), null));
        for (String piece : text.pieces()) {
            if (!text.delay().isZero()) {
                Thread.sleep(text.delay().toMillis());
            }
            send(out, chunk(delta().put("content", piece), null));
        }
        send(out, chunk(delta(), "stop"));
    }

    private static void streamToolCalls(OutputStream out, ToolCalls turn) throws IOException {
        send(out, chunk(delta().put("role", "assistant"), null));
        if (turn.preamble() != null) {
            send(out, chunk(delta().put("content", turn.preamble()), null));
        }
        for (int index = 0; index < turn.calls().size(); index++) {
            Call call = turn.calls().get(index);
            int half = call.arguments().length() / 2;
            send(out, chunk(toolCallDelta(index, call.id(), call.name(), call.arguments().substring(0, half)), null));
            send(out, chunk(toolCallDelta(index, null, null, call.arguments().substring(half)), null));
        }
        send(out, chunk(delta(), "tool_calls"));
    }

    private static ObjectNode toolCallDelta(int index, String id, String name, String arguments) {
        ObjectNode call = JSON.createObjectNode().put("index", index);
        if (id != null) {
            call.put("id", id).put("type", "function");
        }
        ObjectNode function = call.putObject("function");
        if (name != null) {
            function.put("name", name);
        }
        function.put("arguments", arguments);
        ObjectNode delta = delta();
        delta.putArray("tool_calls").add(call);
        return delta;
    }

    private static ObjectNode delta() {
        return JSON.createObjectNode();
    }

    private static ObjectNode chunk(ObjectNode delta, String finishReason) {
        ObjectNode chunk = JSON.createObjectNode().put("id", "chatcmpl-test").put("object", "chat.completion.chunk")
                .put("created", 1_700_000_000L).put("model", "scripted");
        ArrayNode choices = chunk.putArray("choices");
        ObjectNode choice = choices.addObject().put("index", 0);
        choice.set("delta", delta);
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return chunk;
    }

    private static ObjectNode usageChunk() {
        ObjectNode chunk = JSON.createObjectNode().put("id", "chatcmpl-test").put("object", "chat.completion.chunk")
                .put("created", 1_700_000_000L).put("model", "scripted");
        chunk.putArray("choices");
        chunk.putObject("usage").put("prompt_tokens", 42).put("completion_tokens", 7).put("total_tokens", 49);
        return chunk;
    }

    private static void send(OutputStream out, ObjectNode chunk) throws IOException {
        out.write(("data: " + JSON.writeValueAsString(chunk) + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
