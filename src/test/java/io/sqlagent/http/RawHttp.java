package io.sqlagent.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 spoken over a plain socket, for what no HTTP client sends on purpose: a body that stops
 * half-way, both framings at once, a body far larger than it declares, a foreign {@code Host}.
 */
public final class RawHttp implements AutoCloseable {

    /** A response as it came over the wire. */
    public record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;

    /**
     * Posts a JSON body declared 2 MB long, over every request limit, and reads the answer: the service answers 413
     * from Content-Length and closes the connection, so only the head and the body's start are sent (a client that
     * went on sending the whole body could see its pipe broken before it reads the answer).
     */
    public static Response oversizedPost(int port, String path) throws IOException {
        try (RawHttp http = new RawHttp(port)) {
            return http.head("POST " + path + " HTTP/1.1", "Content-Type: application/json",
                    "Content-Length: " + (2 * 1024 * 1024 + 16))
                    .sendQuietly("{\"text\":\"xxxx".getBytes(StandardCharsets.UTF_8))
                    .response();
        }
    }

    /**
     * Posts {@code json} to {@code path} without reading the answer; closing the returned connection resets it, as a
     * killed client leaves, so the server sees its caller vanish mid-call.
     */
    public static RawHttp postThenVanish(int port, String path, String json) throws IOException {
        RawHttp http = new RawHttp(port);
        http.socket.setSoLinger(true, 0);
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return http.head("POST " + path + " HTTP/1.1", "Content-Type: application/json", "Content-Length: " + body.length,
                "Connection: close").send(body);
    }

    public RawHttp(int port) throws IOException {
        socket = new Socket("localhost", port);
        socket.setSoTimeout(30_000);
    }

    /** A connection from {@code localAddress}, another loopback address such as 127.0.0.2: another client to the server. */
    RawHttp(int port, String localAddress) throws IOException {
        socket = new Socket(InetAddress.getByName("localhost"), port, InetAddress.getByName(localAddress), 0);
        socket.setSoTimeout(30_000);
    }

    /** Sends the request line and headers (a {@code Host} is added unless given) and nothing else. */
    public RawHttp head(String requestLine, String... headers) throws IOException {
        StringBuilder head = new StringBuilder(requestLine).append("\r\n");
        boolean hasHost = false;
        for (String header : headers) {
            head.append(header).append("\r\n");
            hasHost |= header.toLowerCase(Locale.ROOT).startsWith("host:");
        }
        if (!hasHost) {
            head.append("Host: localhost:").append(socket.getPort()).append("\r\n");
        }
        head.append("\r\n");
        return send(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    RawHttp send(byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
        return this;
    }

    RawHttp send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends bytes until the server stops taking them (it answered and closed), ignoring that failure. */
    public RawHttp sendQuietly(byte[] bytes) {
        try {
            send(bytes);
        } catch (IOException e) {
            // the server answered without reading the rest: what the tests want
        }
        return this;
    }

    /** Whether the server has sent anything yet, without waiting. */
    boolean hasAnswered() throws IOException {
        return socket.getInputStream().available() > 0;
    }

    /** The response, or null if none arrives within {@code wait}. */
    Response responseWithin(Duration wait) throws IOException {
        socket.setSoTimeout((int) wait.toMillis());
        try {
            return response();
        } catch (SocketTimeoutException e) {
            return null;
        }
    }

    /** Reads one response (its body by Content-Length, or to the end of the connection). */
    public Response response() throws IOException {
        InputStream in = socket.getInputStream();
        String statusLine = line(in);
        if (statusLine == null) {
            throw new IOException("the connection closed without a response");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String length = headers.get("content-length");
        if (length != null) {
            body.write(in.readNBytes(Integer.parseInt(length)));
        } else if (!"chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body.write(in.readAllBytes());
        }
        return new Response(Integer.parseInt(statusLine.split(" ")[1]), headers, body.toString(StandardCharsets.UTF_8));
    }

    /** Whether the server closed the connection (a read sees its end) within {@code wait}. */
    boolean closedWithin(Duration wait) throws IOException {
        socket.setSoTimeout((int) wait.toMillis());
        try {
            InputStream in = socket.getInputStream();
            while (in.read() != -1) {
                // drain whatever is left of a response
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(c);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
