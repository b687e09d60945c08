package io.sqlagent.agent.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * The window the REST client leaves between a streamed response's head and its SSE reader: the
 * response is paused with no exception handler, so a connection that closes inside it is reported
 * to nobody. Real Vert.x client, real socket server that answers and closes at once; the reader
 * registers only after the close, as it does when the close wins the race.
 */
class StreamedConnectionsTest {

    private Vertx vertx;
    private HttpClient client;
    private ServerSocket server;

    @BeforeEach
    void start() throws IOException {
        vertx = Vertx.vertx();
        client = vertx.createHttpClient();
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        client.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void aConnectionThatClosedMidAnswerBeforeTheReaderRegisteredIsReportedAfterTheBytesThatArrived() throws Exception {
        // A body promised longer than sent: the answer began, then the connection dropped.
        List<String> events = readAfterTheClose(
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 1000\r\n\r\ndata: half\n\n");

        assertEquals(List.of("chunk:data: half\n\n", "error:" + HttpClosedException.class.getSimpleName()), events);
    }

    @Test
    void aWholeAnswerFollowedByTheServerClosingTheConnectionEndsNormally() throws Exception {
        String body = "data: whole\n\n";
        List<String> events = readAfterTheClose("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body);

        assertEquals(List.of("chunk:data: whole\n\n", "end"), events);
    }

    /**
     * Sends {@code response} to one request and closes the socket; the client pauses the response
     * on its head (as the REST client does), waits for the close, then reads it as the SSE reader
     * does through {@link StreamedConnections#keepingConnection}: what the reader heard, in order.
     */
    private List<String> readAfterTheClose(String response) throws Exception {
        Thread answer = new Thread(() -> {
            try (Socket socket = server.accept()) {
                InputStream in = socket.getInputStream();
                byte[] head = new byte[4096];
                int read = 0;
                while (!new String(head, 0, read, StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
                    read += in.read(head, read, head.length - read);
                }
                OutputStream out = socket.getOutputStream();
                out.write(response.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        answer.start();
        Context context = vertx.getOrCreateContext();
        CompletableFuture<HttpClientResponse> paused = new CompletableFuture<>();
        context.runOnContext(start -> client.request(HttpMethod.GET, server.getLocalPort(), "127.0.0.1", "/stream")
                .compose(request -> request.send())
                .onSuccess(head -> {
                    head.pause();
                    paused.complete(head);
                })
                .onFailure(paused::completeExceptionally));
        HttpClientResponse head = paused.get(10, TimeUnit.SECONDS);
        ConnectionBase connection = (ConnectionBase) head.request().connection();
        connection.closeFuture().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        answer.join();

        List<String> events = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        context.runOnContext(later -> {
            HttpClientResponse reader = StreamedConnections.keepingConnection(head);
            reader.exceptionHandler(failure -> {
                events.add("error:" + failure.getClass().getSimpleName());
                done.complete(null);
            });
            reader.handler(chunk -> events.add("chunk:" + chunk));
            reader.endHandler(end -> {
                events.add("end");
                done.complete(null);
            });
            reader.resume();
        });
        done.get(10, TimeUnit.SECONDS);
        // Anything reported late (a second error, an end after the error) would show here.
        Thread.sleep(200);
        assertTrue(!events.isEmpty());
        return List.copyOf(events);
    }
}
