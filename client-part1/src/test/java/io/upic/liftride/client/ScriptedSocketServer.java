package io.upic.liftride.client;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.IntFunction;

/**
 * A tiny HTTP/1.1 server on raw sockets (127.0.0.1) for faults MockWebServer cannot script: a reset
 * with {@code SO_LINGER 0}, a listening socket that goes away while the run goes (connections
 * refused) and comes back on the same port, and a hostile server's answers (any status, reason phrase or body).
 * Answers {@code GET .../statistics} with {@code {"ridesStored": n}} (n = 201s it sent) unless scripted otherwise
 * ({@link #answerStatisticsWith}), and every POST as its {@link Script} says.
 * Keep-alive, Content-Length bodies only (what both transports send). Thread-safe.
 *
 * <p>Accounting is exact: a 201 is counted as stored only after it was written, and
 * {@link #stopListening()} waits for answers being written, so "stored" never includes a 201 the
 * client could not have read.
 */
final class ScriptedSocketServer implements AutoCloseable {

    /** What to do with one POST. */
    enum Kind {
        RESPOND,
        RESET,
        CLOSE,
        STALL
    }

    /**
     * @param reason the status line's reason phrase, or null for the usual one
     * @param body   the answer's body, or null for the usual one (empty for a 201, a JSON message otherwise)
     */
    record Action(Kind kind, int status, String reason, String body) {
        Action(Kind kind, int status) {
            this(kind, status, null, null);
        }

        static Action respond(int status) {
            return new Action(Kind.RESPOND, status);
        }

        /** An answer with {@code status} and the reason phrase and body given (a hostile server's, say). */
        static Action respond(int status, String reason, String body) {
            return new Action(Kind.RESPOND, status, reason, body);
        }

        static final Action CREATED = respond(201);
        /** Close with SO_LINGER 0 after reading the request: the client gets a TCP RST, no answer. */
        static final Action RESET = new Action(Kind.RESET, 0);
        /** Close normally (FIN) after reading the request, without an answer. */
        static final Action CLOSE = new Action(Kind.CLOSE, 0);
        /** Never answer; hold the connection until the client gives up. */
        static final Action STALL = new Action(Kind.STALL, 0);
    }

    /** Decides each POST; called concurrently from connection threads. */
    @FunctionalInterface
    interface Script {
        /**
         * @param postNumber 1-based count of POSTs this server has read
         * @param path       the request path
         * @param body       the request body (the ride JSON)
         */
        Action onPost(int postNumber, String path, String body);
    }

    private final Script script;
    private final int port;
    private final ExecutorService threads;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    /** Answers are written under the read lock; stopListening takes the write lock. */
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();

    private volatile ServerSocket listener;
    private volatile boolean closed;
    private volatile IntFunction<String> statisticsAnswers = n -> null;

    final AtomicInteger posts = new AtomicInteger();
    final AtomicLong stored = new AtomicLong();
    final AtomicInteger resets = new AtomicInteger();
    final AtomicInteger statisticsRequests = new AtomicInteger();
    final AtomicInteger accepted = new AtomicInteger();

    private ScriptedSocketServer(Script script, ServerSocket first) {
        this.script = script;
        this.port = first.getLocalPort();
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scripted-server-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        listen(first);
    }

    /**
     * Answers the n-th {@code GET .../statistics} (1-based) with {@code answers.apply(n)}, written as it is (status
     * line, headers and body), or the usual answer where that is null.
     */
    void answerStatisticsWith(IntFunction<String> answers) {
        statisticsAnswers = answers;
    }

    /** Starts listening on 127.0.0.1 at a free port. */
    static ScriptedSocketServer start(Script script) throws IOException {
        return new ScriptedSocketServer(script, bind(0));
    }

    private static ServerSocket bind(int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true); // come back on the same port at once, whatever TIME_WAIT is left
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
        return s;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port + "/liftride";
    }

    int port() {
        return port;
    }

    /**
     * Closes the listening socket and every open connection (normal close): from now on connections
     * are refused. Waits for answers being written, so none is half-sent.
     */
    void stopListening() {
        gate.writeLock().lock();
        try {
            ServerSocket l = listener;
            listener = null;
            closeQuietly(l);
            for (Socket s : connections) {
                closeQuietly(s);
            }
            connections.clear();
        } finally {
            gate.writeLock().unlock();
        }
    }

    /** Listens again on the same port. */
    void resumeListening() throws IOException {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        listen(bind(port));
    }

    /** Connections accepted and not closed yet (by the client, seen as the end of its stream, or by this server). */
    int openConnections() {
        return connections.size();
    }

    boolean isListening() {
        return listener != null;
    }

    private void listen(ServerSocket s) {
        listener = s;
        threads.execute(() -> {
            while (!s.isClosed()) {
                Socket c;
                try {
                    c = s.accept();
                } catch (IOException e) {
                    return; // stopListening or close
                }
                accepted.incrementAndGet();
                connections.add(c);
                if (listener != s) { // raced with stopListening
                    closeQuietly(c);
                    connections.remove(c);
                    continue;
                }
                threads.execute(() -> serve(c));
            }
        });
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                String requestLine = readLine(in);
                if (requestLine == null || requestLine.isEmpty()) {
                    return;
                }
                int contentLength = 0;
                for (String h; (h = readLine(in)) != null && !h.isEmpty(); ) {
                    int colon = h.indexOf(':');
                    if (colon > 0
                            && h.substring(0, colon)
                                    .trim()
                                    .toLowerCase(Locale.ROOT)
                                    .equals("content-length")) {
                        contentLength = Integer.parseInt(h.substring(colon + 1).trim());
                    }
                }
                byte[] body = in.readNBytes(contentLength);
                if (body.length < contentLength) {
                    return;
                }
                String[] parts = requestLine.split(" ");
                String method = parts[0];
                String path = parts.length > 1 ? parts[1] : "";
                if (method.equals("GET") && path.endsWith("/statistics")) {
                    String scripted = statisticsAnswers.apply(statisticsRequests.incrementAndGet());
                    if (scripted != null) {
                        out.write(scripted.getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        continue;
                    }
                    if (!answer(out, 200, "{\"endpointStats\":[],\"ridesStored\":" + stored.get() + "}")) {
                        return;
                    }
                    continue;
                }
                if (!method.equals("POST")) {
                    if (!answer(out, 404, "{\"message\":\"not scripted\"}")) {
                        return;
                    }
                    continue;
                }
                Action a = script.onPost(posts.incrementAndGet(), path, new String(body, StandardCharsets.UTF_8));
                switch (a.kind()) {
                    case RESPOND -> {
                        String b = a.body() != null
                                ? a.body()
                                : a.status() == 201 ? "" : "{\"message\":\"scripted " + a.status() + "\"}";
                        if (!answer(out, a.status(), a.reason(), b)) {
                            return;
                        }
                    }
                    case RESET -> {
                        resets.incrementAndGet();
                        socket.setSoLinger(true, 0);
                        return;
                    }
                    case CLOSE -> {
                        return;
                    }
                    case STALL -> {
                        while (in.read() >= 0) {
                            // hold the connection until the client (or stopListening) closes it
                        }
                        return;
                    }
                    default -> throw new AssertionError(a);
                }
            }
        } catch (IOException e) {
            // the client or stopListening closed the connection
        } finally {
            connections.remove(socket);
        }
    }

    private boolean answer(OutputStream out, int status, String body) {
        return answer(out, status, null, body);
    }

    /**
     * Writes one answer under the gate, with {@code reason} as its reason phrase (null: the usual); false if the
     * connection is gone. Counts a written 201 as stored.
     */
    private boolean answer(OutputStream out, int status, String reason, String body) {
        gate.readLock().lock();
        try {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            String head = "HTTP/1.1 " + status + " " + (reason != null ? reason : reason(status)) + "\r\n"
                    + (b.length > 0 ? "Content-Type: application/json\r\n" : "")
                    + "Content-Length: " + b.length + "\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.UTF_8));
            out.write(b);
            out.flush();
            if (status == 201) {
                stored.incrementAndGet();
            }
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            gate.readLock().unlock();
        }
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 201 -> "Created";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }

    /** One CRLF-terminated line (ASCII), or null at end of stream. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        for (int c; (c = in.read()) >= 0; ) {
            if (c == '\n') {
                byte[] b = line.toByteArray();
                int n = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
                return new String(b, 0, n, StandardCharsets.US_ASCII);
            }
            line.write(c);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.US_ASCII);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // best effort
        }
    }

    @Override
    public void close() {
        closed = true;
        stopListening();
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
