package io.sqlagent.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A client that goes away is how HTTP ends for a closed tab, a killed client or a dropped network, not a failure of
 * the service: neither chat streams reset while events are still being written nor requests reset while their body
 * is being read leave an {@code ERROR} or {@code WARN} line in the log (read as the service wrote it, the test
 * profile's log file with the console's filter), and the service answers the next question as before.
 */
@QuarkusTest
@ScriptedModel
class ClientGoneTest {

    private static final Path LOG = Path.of("target/test-service.log");

    @TestHTTPResource("/api/chat")
    URI chat;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    @Test
    void chatStreamsCutByTheirClientsLogNoError() throws Exception {
        long mark = logSize();
        model.program(request -> ScriptedOpenAiServer.slowText(Duration.ofMillis(50), "There ", "are ", "many ", "tracks ",
                "in ", "the ", "store, ", "three ", "thousand ", "five ", "hundred ", "and ", "three."));

        // Many clients at once, each reset as soon as the stream has begun: some events are written after the reset.
        atOnce(CLIENTS, () -> {
            try (Socket socket = socket()) {
                send(socket, request(QUESTION));
                readUntil(socket.getInputStream(), "event:");
            }
        });

        Thread.sleep(3000); // the rest of each answer is written to its closed connection
        assertThat(errorsSince(mark)).as("error and warning lines after the streams were cut").isEmpty();
        model.reset();
        model.then(ScriptedOpenAiServer.text("Still here."));
        assertThat(SseClient.chat(chat, "{\"question\":\"And now?\"}").last().name()).isEqualTo("done");
    }

    @Test
    void requestsResetRightAfterTheirBodyLogNoError() throws Exception {
        long mark = logSize();
        model.program(request -> ScriptedOpenAiServer.text("Answered."));

        // Body sent whole, the connection reset at once: the service may still be reading it when the reset comes.
        atOnce(CLIENTS, () -> {
            try (Socket socket = socket()) {
                send(socket, request(QUESTION));
            }
        });

        Thread.sleep(2000);
        assertThat(errorsSince(mark)).as("error and warning lines after the requests were reset").isEmpty();
    }

    private static final int CLIENTS = 30;
    private static final String QUESTION = "{\"question\":\"How many tracks are there?\"}";

    private static String request(String body) {
        return "POST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Accept: text/event-stream\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private interface Client {
        void run() throws Exception;
    }

    private static void atOnce(int clients, Client client) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                runs.add(pool.submit(() -> {
                    client.run();
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private Socket socket() throws IOException {
        Socket socket = new Socket(chat.getHost(), chat.getPort());
        socket.setSoTimeout(20_000);
        socket.setSoLinger(true, 0); // close resets the connection, as a killed client or a dropped network does
        return socket;
    }

    private static void send(Socket socket, String request) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void readUntil(InputStream in, String marker) throws IOException {
        StringBuilder read = new StringBuilder();
        byte[] buffer = new byte[1024];
        while (!read.toString().contains(marker)) {
            int n = in.read(buffer);
            if (n < 0) {
                throw new IOException("the stream ended before " + marker + ": " + read);
            }
            read.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        }
    }

    private static long logSize() throws IOException {
        return Files.exists(LOG) ? Files.size(LOG) : 0;
    }

    /** The ERROR and WARN lines the service wrote since {@code mark}, the log's size then (lines begin with date and time). */
    private static List<String> errorsSince(long mark) throws IOException {
        byte[] all = Files.readAllBytes(LOG);
        String since = new String(all, (int) Math.min(mark, all.length), (int) Math.max(0, all.length - mark),
                StandardCharsets.UTF_8);
        return since.lines().filter(line -> line.matches("^[0-9 :,-]+ (ERROR|WARN) .*")).toList();
    }
}
