package io.upic.liftride.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for a LiftRide server behind nginx, on a loopback port: it records each request's line as
 * soon as its head arrives, reads the whole request, then either dies with it (closes the connection
 * without a byte of answer, as a server SIGKILLed mid-request does) or answers 201. Thread-safe;
 * {@link #close()} stops it.
 */
final class FakeUpstream implements AutoCloseable {
    private final ServerSocket socket;
    private final boolean answers;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    private FakeUpstream(boolean answers) throws IOException {
        this.answers = answers;
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "fake-upstream-" + socket.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Reads each request, then closes the connection without answering. */
    static FakeUpstream dyingOnEveryRequest() throws IOException {
        return new FakeUpstream(false);
    }

    /** Answers every request 201 with an empty body, keeping the connection open. */
    static FakeUpstream answering201() throws IOException {
        return new FakeUpstream(true);
    }

    int port() {
        return socket.getLocalPort();
    }

    /** The request lines received so far, e.g. {@code POST /liftride/skiers/... HTTP/1.1}. */
    List<String> received() {
        return List.copyOf(received);
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                Thread serving = new Thread(() -> serve(connection), "fake-upstream-connection");
                serving.setDaemon(true);
                serving.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            InputStream in = connection.getInputStream();
            OutputStream out = connection.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                received.add(head.substring(0, head.indexOf("\r\n"))); // as soon as the head arrives
                in.readNBytes(contentLength(head));
                if (!answers) {
                    return; // closes without answering
                }
                out.write("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (IOException ignored) {
            // nginx closed the connection
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        for (int b; (b = in.read()) >= 0; ) {
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
            if (matched == 4) {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(
                        line.substring("content-length:".length()).strip());
            }
        }
        return 0;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
