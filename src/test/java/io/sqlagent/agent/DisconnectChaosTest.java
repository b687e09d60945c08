package io.sqlagent.agent;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.live.LiveRuns;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Callers that go away take nothing with them. A thousand calls from many concurrent clients over
 * REST, MCP (streamable HTTP) and chat (SSE, the model scripted to call {@code run_sql}), each
 * dropping its TCP connection at a random moment: while it waits for a pool connection, while its
 * statement runs, while rows or events stream. Afterwards no backend of the source is left running
 * or in a transaction, the pool's own gauges show nothing checked out or queued, the whole pool
 * answers at once and readiness is UP. Also: MCP's {@code notifications/cancelled} and a dropped
 * MCP connection each cancel the statement in PostgreSQL.
 */
@QuarkusTest
@ScriptedModel
class DisconnectChaosTest {

    private static final int CALLS = 1000;
    private static final int CLIENTS = 40;
    private static final int POOL_SIZE = 5;
    /** CPU-bound and endless (it would run into the 30 s statement timeout): only a cancel ends it early. */
    private static final String SLOW = ChatRequestsTest.ENDLESS_SQL;
    /** About a megabyte of rows before the caps: something to be cut off in the middle of. */
    private static final String ROWS = "SELECT t.*, a.title FROM track t JOIN album a USING (album_id)";
    private static final String QUICK = "SELECT 1 AS one";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TestHTTPResource("/")
    URI base;

    @Inject
    Pool store;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    @BeforeEach
    void reset() {
        model.recordRequests(false);
        // Each chat asks for one run_sql (the question says which statement), then answers.
        model.program(request -> {
            JsonNode messages = request.path("messages");
            JsonNode last = messages.get(messages.size() - 1);
            if ("tool".equals(last.path("role").asText())) {
                return text("Done.");
            }
            String question = last.path("content").asText();
            String sql = marked(question.contains("slow") ? SLOW : question.contains("rows") ? ROWS : QUICK,
                    Transport.CHAT.name());
            return toolCalls(call("c1", "run_sql", SnakeCaseJson.MAPPER.createObjectNode().put("sql", sql).toString()));
        });
    }

    @Inject
    LiveRuns runs;

    @AfterEach
    void restore() throws InterruptedException {
        // A chat whose client vanished goes on (a run outlives its stream): it must end while the program still answers
        // it, or its next model call takes a turn a later class scripts for itself (ModelFaultsTest saw its first turn
        // taken so).
        awaitTrue(() -> runs.count() == 0, Duration.ofSeconds(60), () -> runs.count() + " chat runs still in progress");
        model.program(null);
        model.recordRequests(true);
    }

    private enum Transport {
        REST,
        MCP,
        CHAT
    }

    @Test
    void aThousandCallersThatVanishAtRandomTakeNothingWithThem() throws Exception {
        // Given MCP sessions to call through
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            sessions.add(mcpSession());
        }
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        AtomicLong unexpected = new AtomicLong();
        List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long started = System.nanoTime();

        // When a thousand calls go out, most of them abandoned at a random moment
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            long seed = 7919L * i;
            calls.add(CompletableFuture.runAsync(() -> {
                try {
                    String outcome = oneCall(new Random(seed), sessions);
                    seen.computeIfAbsent(outcome, key -> new AtomicInteger()).incrementAndGet();
                } catch (Exception e) {
                    if (unexpected.incrementAndGet() <= 5) {
                        problems.add(e.toString());
                    }
                }
            }, clients));
        }
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        clients.shutdownNow();
        System.out.printf("Chaos: %d calls in %d ms: %s%n", CALLS, Duration.ofNanos(System.nanoTime() - started).toMillis(),
                seen);
        assertEquals(0, unexpected.get(), "calls that failed in the test client itself: " + problems);
        assertTrue(seen.getOrDefault("dropped", new AtomicInteger()).get() > CALLS / 2, seen.toString());

        // Then nothing of the source is left running or inside a transaction
        // (a statement's tag names its transport, when its caller dropped, after how many bytes, and the call)
        awaitTrue(() -> busySourceBackends() == 0, Duration.ofSeconds(10),
                () -> "source backends still busy: " + busySourceBackendsShown());
        // the pool's own gauges show nothing checked out and nobody waiting
        awaitTrue(() -> poolGauges().values().stream().allMatch(value -> value == 0.0), Duration.ofSeconds(10),
                () -> "pool gauges: " + poolGauges());
        assertEquals(java.util.Set.of("sql_pool_active", "sqlagent_source_waiting"), poolGauges().keySet());
        // the whole pool answers at once
        long quick = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> capacity = new ArrayList<>();
        for (int i = 0; i < POOL_SIZE; i++) {
            capacity.add(HTTP.sendAsync(json(base.resolve("/api/tools/run_sql"), "{\"sql\": \"SELECT 1 AS one\"}").build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> answer : capacity) {
            HttpResponse<String> response = answer.get(5, TimeUnit.SECONDS);
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.body().contains("\"one\":1"), response.body());
        }
        assertTrue(Duration.ofNanos(System.nanoTime() - quick).compareTo(Duration.ofSeconds(3)) < 0,
                "SELECT 1 answers at once");
        // and readiness is UP
        HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(base.resolve("/q/health/ready")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ready.statusCode(), ready.body());
    }

    @Test
    void mcpNotificationsCancelledCancelsTheStatement() throws Exception {
        // Given an MCP call whose statement is running
        String session = mcpSession();
        String marker = "mcp_cancel_" + System.nanoTime();
        try (Socket socket = send(post("/mcp", mcpHeaders(session), mcpCall(4242, SLOW + " WHERE '" + marker + "' <> ''")))) {
            awaitTrue(() -> running(marker) == 1, Duration.ofSeconds(10), () -> "the statement never ran");

            // When the client cancels the request
            HttpResponse<String> cancelled = HTTP.send(json(base.resolve("/mcp"),
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":4242,\"reason\":\"user\"}}")
                    .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", session).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(202, cancelled.statusCode(), cancelled.body());

            // Then the statement is cancelled in PostgreSQL, long before its 30 s timeout
            awaitTrue(() -> running(marker) == 0, Duration.ofSeconds(5), () -> "the statement still runs");
        }
    }

    @Test
    void anMcpClientThatDropsItsConnectionCancelsTheStatement() throws Exception {
        String session = mcpSession();
        String marker = "mcp_drop_" + System.nanoTime();
        Socket socket = send(post("/mcp", mcpHeaders(session), mcpCall(77, SLOW + " WHERE '" + marker + "' <> ''")));
        awaitTrue(() -> running(marker) == 1, Duration.ofSeconds(10), () -> "the statement never ran");

        socket.close();

        awaitTrue(() -> running(marker) == 0, Duration.ofSeconds(5), () -> "the statement still runs");
    }

    // ---------------------------------------------------------------------------------------------
    // One chaotic call
    // ---------------------------------------------------------------------------------------------

    /** One call over a random transport, abandoned at a random moment (or, for quick ones, read to the end). */
    private String oneCall(Random random, List<String> sessions) throws IOException {
        Transport transport = Transport.values()[random.nextInt(10) < 5 ? 0 : random.nextInt(10) < 6 ? 1 : 2];
        int kind = random.nextInt(10);
        String sql = kind < 5 ? SLOW : kind < 8 ? ROWS : QUICK;
        boolean readAll = sql.equals(QUICK) && random.nextBoolean();
        long dropAfter = random.nextInt(4) == 0 ? 0 : random.nextInt(600);
        int dropBytes = random.nextInt(3) == 0 ? 1 + random.nextInt(4000) : Integer.MAX_VALUE;
        String tag = transport + "-" + dropAfter + "-" + dropBytes + "-" + random.nextInt(1_000_000_000);
        String request = switch (transport) {
            case REST -> post("/api/tools/run_sql", Map.of("Content-Type", "application/json"),
                    SnakeCaseJson.MAPPER.createObjectNode().put("sql", marked(sql, tag)).toString());
            case MCP -> post("/mcp", mcpHeaders(sessions.get(random.nextInt(sessions.size()))),
                    mcpCall(random.nextInt(1_000_000), marked(sql, tag)));
            case CHAT -> post("/api/chat", Map.of("Content-Type", "application/json", "Accept", "text/event-stream"),
                    "{\"question\": \"" + (sql.equals(SLOW) ? "slow" : sql.equals(ROWS) ? "rows" : "one") + "\"}");
        };
        try (Socket socket = send(request)) {
            if (readAll) {
                try {
                    return transport + " " + readToEnd(socket);
                } catch (SocketTimeoutException e) {
                    throw new IllegalStateException(transport + " call of " + sql + " never ended", e);
                }
            }
            // Mostly early (waiting for the pool, mid-statement), sometimes after the first bytes (mid-stream).
            readFor(socket, dropAfter, dropBytes);
            return "dropped";
        }
    }

    /** The statement with its transport in it, so a statement left behind says where it came from. */
    private static String marked(String sql, String tag) {
        return sql + " WHERE '" + tag + "' <> ''";
    }

    private static String post(String path, Map<String, String> headers, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder request = new StringBuilder("POST ").append(path).append(" HTTP/1.1\r\nHost: localhost\r\n");
        headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        request.append("Content-Length: ").append(bytes.length).append("\r\nConnection: close\r\n\r\n").append(body);
        return request.toString();
    }

    private Socket send(String request) throws IOException {
        Socket socket = new Socket(base.getHost(), base.getPort());
        socket.setSoLinger(true, 0); // a reset, as a killed client leaves
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.UTF_8));
        out.flush();
        return socket;
    }

    /** Reads for {@code millis} or until {@code bytes} arrived, whichever is first; then the caller drops the connection. */
    private static void readFor(Socket socket, long millis, int bytes) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[1024];
        int read = 0;
        while (read < bytes) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return;
            }
            socket.setSoTimeout((int) left);
            try {
                int n = in.read(buffer, 0, Math.min(buffer.length, bytes - read));
                if (n < 0) {
                    return;
                }
                read += n;
            } catch (SocketTimeoutException e) {
                return;
            }
        }
    }

    /** Reads the whole response; its status line's code. */
    private static String readToEnd(Socket socket) throws IOException {
        socket.setSoTimeout(30_000);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        socket.getInputStream().transferTo(all);
        String response = all.toString(StandardCharsets.UTF_8);
        return response.length() >= 12 ? response.substring(9, 12) : "no-status";
    }

    // ---------------------------------------------------------------------------------------------
    // MCP
    // ---------------------------------------------------------------------------------------------

    private static Map<String, String> mcpHeaders(String session) {
        return Map.of("Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Mcp-Session-Id",
                session);
    }

    private static String mcpCall(int id, String sql) {
        var message = SnakeCaseJson.MAPPER.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        message.putObject("params").put("name", "run_sql").putObject("arguments").put("sql", sql);
        return message.toString();
    }

    private String mcpSession() throws IOException, InterruptedException {
        HttpResponse<String> initialized = HTTP.send(json(base.resolve("/mcp"), """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},
                 "clientInfo":{"name":"chaos","version":"1"}}}""").header("Accept", "application/json, text/event-stream")
                .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, initialized.statusCode(), initialized.body());
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
        HTTP.send(json(base.resolve("/mcp"), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", session).build(),
                HttpResponse.BodyHandlers.ofString());
        return session;
    }

    private static HttpRequest.Builder json(URI uri, String body) {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    // ---------------------------------------------------------------------------------------------
    // What is left behind
    // ---------------------------------------------------------------------------------------------

    /** Backends of the source's database running a statement or sitting in a transaction. */
    private long busySourceBackends() {
        return store.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'chinook' AND pid <> pg_backend_pid()"
                + " AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')")
                .execute().await().atMost(Duration.ofSeconds(5)).iterator().next().getLong("n");
    }

    private String busySourceBackendsShown() {
        List<String> shown = new ArrayList<>();
        store.query("SELECT state, now() - state_change AS since, query FROM pg_stat_activity WHERE datname = 'chinook'"
                + " AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')")
                .execute().await().atMost(Duration.ofSeconds(5))
                .forEach(row -> shown
                        .add(row.getString("state") + " for " + row.getValue("since") + ": " + row.getString("query")));
        return shown.toString();
    }

    private long running(String marker) {
        return store.preparedQuery("SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1"
                + " AND query NOT LIKE '%pg_stat_activity%'")
                .execute(Tuple.of("%" + marker + "%")).await().atMost(Duration.ofSeconds(5)).iterator().next().getLong("n");
    }

    /**
     * The gauges of source {@code default} that count connections in use (Vert.x's {@code sql_pool_active})
     * and calls waiting for one ({@code sqlagent_source_waiting}; Vert.x's own queue gauge never
     * counts down calls refused as busy).
     */
    private Map<String, Double> poolGauges() {
        try {
            String metrics = HTTP
                    .send(HttpRequest.newBuilder(base.resolve("/q/metrics")).build(), HttpResponse.BodyHandlers.ofString())
                    .body();
            Map<String, Double> gauges = new java.util.TreeMap<>();
            for (String line : metrics.split("\n")) {
                boolean vertxPool = line.contains("pool_name=\"sqlagent-source-default\"");
                boolean ours = line.startsWith("sqlagent_source_waiting{") && line.contains("source=\"default\"");
                if (line.startsWith("#") || !(vertxPool || ours)) {
                    continue;
                }
                String name = line.substring(0, line.indexOf('{'));
                if (name.equals("sql_pool_active") || ours) {
                    gauges.put(name, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
                }
            }
            return gauges;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, Duration within,
            java.util.function.Supplier<String> failure)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(failure.get());
            }
            Thread.sleep(100);
        }
    }
}
