package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.SnakeCaseJson;

/**
 * The packaged service with its store database out of reach. Every resource answers 503
 * {@code store_unavailable} with the one error body, an error id that is in the log and
 * {@code Retry-After}, never Quarkus' bare 500, and the cause stays in the log: when nothing listens
 * on the store's port from the start (connection refused), and when a store that was reachable
 * stops answering (a hung server: the lookup is bounded by {@code sqlagent.store.timeout}).
 */
class StoreUnavailableIT {

    private static final Duration READY_WITHIN = Duration.ofSeconds(90);
    private static final String ID = "2f1c7a7e-3b7e-4d8e-9a55-0b3c2c1d4e5f";
    private static final String CONVERSATION = "/api/conversations/" + ID;
    private static final String CHAT = "{\"question\":\"Go on\",\"conversation_id\":\"" + ID + "\"}";

    @TempDir
    Path workDir;

    @Test
    void aStoreThatRefusesConnectionsIs503WithTheOneErrorBody() throws Exception {
        int storePort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            storePort = probe.getLocalPort();
        }
        try (ServiceProcess service = ServiceProcess.start(workDir, storeAt(storePort, "store-secret-not-to-be-shown"))) {
            service.awaitStatus("/q/health/live", 200, READY_WITHIN);

            assertStoreUnavailable(service, service.get(CONVERSATION).orElseThrow(), "cannot be reached");
            assertStoreUnavailable(service, service.postJson("/api/chat", CHAT, Duration.ofSeconds(10)), "cannot be reached");
            assertFalse(service.logText().contains("store-secret-not-to-be-shown"));
        }
    }

    @Test
    void aStoreThatStopsAnsweringIs503AfterTheStoreTimeout() throws Exception {
        // The store is the embedded server's own store database, reached through a relay the test can freeze.
        try (Relay relay = new Relay()) {
            try (ServiceProcess service = ServiceProcess.start(workDir, storeAt(relay.port(), "postgres"))) {
                relay.target.set(service.postgresPort);
                service.awaitStatus("/q/health/ready", 200, READY_WITHIN);
                HttpResponse<String> before = service.get(CONVERSATION).orElseThrow();
                assertEquals(404, before.statusCode(), before.body());

                relay.frozen.set(true);
                long started = System.nanoTime();
                assertStoreUnavailable(service, service.get(CONVERSATION).orElseThrow(), "did not answer within 1000 ms");
                assertStoreUnavailable(service, service.postJson("/api/chat", CHAT, Duration.ofSeconds(10)),
                        "did not answer within 1000 ms");
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertTrue(took.toSeconds() < 8, "two bounded lookups took " + took);
            }
        }
    }

    private static Map<String, String> storeAt(int port, String password) {
        return Map.of(
                "QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://127.0.0.1:" + port + "/sqlagent",
                "QUARKUS_DATASOURCE_USERNAME", "postgres",
                "QUARKUS_DATASOURCE_PASSWORD", password,
                "SQLAGENT_STORE_TIMEOUT", "1s",
                // Any model: the conversation is looked up before a model is ever called.
                "QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL", "http://127.0.0.1:9/v1");
    }

    private static void assertStoreUnavailable(ServiceProcess service, HttpResponse<String> response, String why)
            throws Exception {
        assertEquals(503, response.statusCode(), response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse("").split(";")[0]);
        assertEquals("5", response.headers().firstValue("Retry-After").orElse(""));
        JsonNode body = SnakeCaseJson.MAPPER.readTree(response.body());
        assertEquals("store_unavailable", body.path("error").asText(), response.body());
        assertTrue(body.path("message").asText().contains(why), () -> response.body() + "\n" + logText(service));
        String id = body.path("error_id").asText();
        assertEquals(8, id.length(), response.body());
        assertTrue(service.logText().contains("[error id " + id + "]"), "the id is in the log");
        assertFalse(response.body().contains("Exception"), "no cause is leaked: " + response.body());
    }

    private static String logText(ServiceProcess service) {
        try {
            return service.logText();
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** A TCP relay to the store that, once frozen, keeps every connection open and passes nothing on. */
    static final class Relay implements AutoCloseable {
        final AtomicInteger target = new AtomicInteger();
        final AtomicBoolean frozen = new AtomicBoolean();
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();

        Relay() throws IOException {
            Thread acceptor = new Thread(this::accept, "store-relay");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void accept() {
            try {
                while (true) {
                    Socket client = server.accept();
                    sockets.add(client);
                    if (frozen.get()) {
                        continue;
                    }
                    Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target.get());
                    sockets.add(upstream);
                    pump(client.getInputStream(), upstream.getOutputStream());
                    pump(upstream.getInputStream(), client.getOutputStream());
                }
            } catch (IOException closed) {
                // the relay is closed
            }
        }

        private void pump(InputStream in, OutputStream out) {
            Thread pump = new Thread(() -> {
                byte[] buffer = new byte[8192];
                try {
                    for (int read; (read = in.read(buffer)) >= 0;) {
                        while (frozen.get()) {
                            Thread.sleep(50); // hold the bytes: the peer waits for an answer that never comes
                        }
                        out.write(buffer, 0, read);
                        out.flush();
                    }
                } catch (IOException | InterruptedException closed) {
                    // a side closed
                }
            }, "store-relay-pump");
            pump.setDaemon(true);
            pump.start();
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }
}
