package io.upic.liftride.server.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests no HTTP client will send (malformed request lines,
 * lying Content-Lengths, bytes trickled slowly). Test helper; one instance per connection, not
 * thread-safe; every read is bounded by a socket timeout.
 */
final class RawHttp implements AutoCloseable {
    /** A parsed response; {@code body} is what arrived before the connection closed or Content-Length ran out. */
    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawHttp(int port, int readTimeoutMillis) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(readTimeoutMillis);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Sends one request and reads its response. */
    static Response exchange(int port, String request) throws IOException {
        try (RawHttp http = new RawHttp(port, 10_000)) {
            http.send(request.getBytes(StandardCharsets.ISO_8859_1));
            return http.readResponse();
        }
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void send(String text) throws IOException {
        send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Reads one response: status line, headers, then Content-Length bytes (or up to the close). */
    Response readResponse() throws IOException {
        String statusLine = readLine();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        String[] parts = statusLine.split(" ", 3);
        int status = Integer.parseInt(parts[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(); line != null && !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            headers.put(
                    line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    line.substring(colon + 1).trim());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String length = headers.get("content-length");
        if (status < 200) {
            return new Response(status, headers, ""); // an interim answer (100 Continue): the real one follows
        }
        if (length != null) {
            int remaining = Integer.parseInt(length);
            byte[] buffer = new byte[8192];
            while (remaining > 0) {
                int n = in.read(buffer, 0, Math.min(buffer.length, remaining));
                if (n < 0) {
                    break;
                }
                body.write(buffer, 0, n);
                remaining -= n;
            }
        } else if (!"chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            in.transferTo(body);
        }
        return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
    }

    /** Tells the server no more bytes will come (half-close), as a client that gave up sending does. */
    void socketShutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** True when the server closed the connection (EOF) within the socket timeout; false if still open. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
