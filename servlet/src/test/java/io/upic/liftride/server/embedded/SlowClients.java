package io.upic.liftride.server.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hostile connections from {@value #SOURCE} to one address, all kept by one thread: slow readers
 * (pipeline cheap GETs without end and never read, with small socket buffers), header tricklers (a
 * request line and a header sent one byte every {@value #TRICKLE_MILLIS} ms) and idle kept-alive
 * connections (one answered GET, then silence). A connection the server closes is opened again, as a
 * persistent attacker would. Test helper; {@link #close()} closes every socket and stops the thread.
 */
final class SlowClients implements AutoCloseable {
    enum Kind {
        SLOW_READERS,
        TRICKLING_HEADERS,
        IDLE_KEPT_ALIVE
    }

    static final long TRICKLE_MILLIS = 5_000;
    /** The attacker's own loopback address (Linux routes all of 127/8 to the loopback interface). */
    static final String SOURCE = "127.0.0.2";

    private static final byte[] GET =
            "GET /liftride/resorts HTTP/1.1\r\nHost: attacker\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEADER_START =
            "GET /liftride/resorts HTTP/1.1\r\nHost: attacker\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
    /** What a slow reader writes again and again, as fast as the server takes it. */
    private static final byte[] PIPELINE = repeat(GET, 100);

    private final Kind kind;
    private final InetSocketAddress target;
    private final List<Connection> connections = new ArrayList<>();
    private final Thread loop;
    private final AtomicInteger opened = new AtomicInteger();
    private volatile boolean running = true;

    private final class Connection {
        SocketChannel channel;
        ByteBuffer out;
        long nextByteNanos;

        void open() throws IOException {
            channel = SocketChannel.open();
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 4096); // a slow reader's small window
            channel.setOption(StandardSocketOptions.SO_SNDBUF, 4096); // and no megabytes of its own queued
            channel.bind(new InetSocketAddress(SOURCE, 0)); // another address than the normal client's
            channel.socket().connect(target, 3_000);
            channel.configureBlocking(false);
            out = switch (kind) {
                case SLOW_READERS -> ByteBuffer.wrap(PIPELINE);
                case TRICKLING_HEADERS -> ByteBuffer.wrap(HEADER_START);
                case IDLE_KEPT_ALIVE -> ByteBuffer.wrap(GET);
            };
            nextByteNanos = System.nanoTime();
            opened.incrementAndGet();
        }

        /** Writes what is due, drains answers of an idle connection; reopens a connection the server closed. */
        void step(long now) {
            try {
                if (kind == Kind.SLOW_READERS && !out.hasRemaining()) {
                    out.rewind(); // keeps writing, so that a write fails once the server has closed
                }
                if (out.hasRemaining()) {
                    channel.write(out);
                } else if (kind == Kind.TRICKLING_HEADERS && now >= nextByteNanos) {
                    nextByteNanos = now + TimeUnit.MILLISECONDS.toNanos(TRICKLE_MILLIS);
                    if (channel.write(ByteBuffer.wrap(new byte[] {'a'})) < 0) {
                        reopen();
                    }
                }
                if (kind != Kind.SLOW_READERS && channel.read(ByteBuffer.allocate(4096)) < 0) {
                    reopen();
                }
            } catch (IOException closedByServer) {
                reopen();
            }
        }

        private void reopen() {
            try {
                channel.close();
                open();
            } catch (IOException refused) {
                // tried again on the next round
            }
        }
    }

    private SlowClients(Kind kind, InetSocketAddress target) {
        this.kind = kind;
        this.target = target;
        this.loop = new Thread(this::run, "slow-clients-" + kind);
        this.loop.setDaemon(true);
    }

    /** Opens {@code count} connections of {@code kind} to {@code target} and keeps them going. */
    static SlowClients start(Kind kind, InetSocketAddress target, int count) throws IOException {
        SlowClients clients = new SlowClients(kind, target);
        try {
            for (int i = 0; i < count; i++) {
                Connection connection = clients.new Connection();
                connection.open();
                clients.connections.add(connection);
            }
        } catch (IOException e) {
            clients.close();
            throw e;
        }
        clients.loop.start();
        return clients;
    }

    /** Connections opened so far, reopened ones included. */
    int opened() {
        return opened.get();
    }

    private void run() {
        while (running) {
            long now = System.nanoTime();
            for (Connection connection : connections) {
                connection.step(now);
            }
            try {
                Thread.sleep(50); // a pacing loop, not a wait for a condition
            } catch (InterruptedException stop) {
                return;
            }
        }
    }

    private static byte[] repeat(byte[] request, int times) {
        byte[] all = new byte[request.length * times];
        for (int i = 0; i < times; i++) {
            System.arraycopy(request, 0, all, i * request.length, request.length);
        }
        return all;
    }

    @Override
    public void close() {
        running = false;
        loop.interrupt();
        try {
            loop.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Connection connection : connections) {
            try {
                if (connection.channel != null) {
                    connection.channel.close();
                }
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
