package io.upic.liftride.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code connections} clients, each POSTing a ride whose body it sends one byte every {@code
 * byteEveryMillis}, opening a new connection whenever the server closes one, until {@link #stop};
 * all on one thread with a selector (an attacker needs no thread per connection either). It records
 * how long each connection lived until the server closed it and what the server answered. Test
 * helper: start, stop and read the results from one test thread; loopback only.
 */
final class SlowBodyAttack implements AutoCloseable {
    private static final byte[] BODY =
            "{\"liftID\":21,\"time\":217,\"waitTime\":3}".getBytes(StandardCharsets.US_ASCII);

    /** One connection's state; used by the attack's thread only. */
    private static final class Slow {
        final long openedNanos = System.nanoTime();
        long nextByteNanos = openedNanos;
        int sent;
        final StringBuilder answer = new StringBuilder();
    }

    private final int port;
    private final int connections;
    private final long byteEveryNanos;
    private final Selector selector;
    private final Map<SocketChannel, Slow> open = new HashMap<>();
    private final List<Long> closedAfterMillis = new ArrayList<>();
    private final List<String> statusLines = new ArrayList<>();
    private final Thread thread;
    private volatile boolean reconnect = true;
    private volatile boolean running = true;
    private volatile IOException failure;
    private int opened;

    private SlowBodyAttack(int port, int connections, long byteEveryMillis) throws IOException {
        this.port = port;
        this.connections = connections;
        this.byteEveryNanos = byteEveryMillis * 1_000_000;
        this.selector = Selector.open();
        this.thread = new Thread(this::run, "slow-body-attack");
        this.thread.setDaemon(true);
    }

    /** Opens every connection, sends each its headers and first body byte, then keeps trickling. */
    static SlowBodyAttack start(int port, int connections, long byteEveryMillis) throws IOException {
        SlowBodyAttack attack = new SlowBodyAttack(port, connections, byteEveryMillis);
        for (int i = 0; i < connections; i++) {
            attack.connect();
        }
        attack.thread.start();
        return attack;
    }

    /** Connections open now. */
    synchronized int openNow() {
        return open.size();
    }

    /**
     * Stops opening new connections and waits up to {@code waitMillis} for the server to close the
     * open ones; returns how many it left open.
     */
    int stop(long waitMillis) throws InterruptedException {
        reconnect = false;
        int left = awaitClosed(waitMillis);
        running = false;
        thread.join(5_000);
        return left;
    }

    /** Waits up to {@code waitMillis} for the server to close every open connection; returns how many it left. */
    private synchronized int awaitClosed(long waitMillis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        for (long rest; !open.isEmpty() && (rest = end - System.nanoTime()) > 0; ) {
            TimeUnit.NANOSECONDS.timedWait(this, rest); // closedByServer notifies
        }
        return open.size();
    }

    synchronized List<Long> closedAfterMillis() {
        return List.copyOf(closedAfterMillis);
    }

    synchronized List<String> statusLines() {
        return List.copyOf(statusLines);
    }

    synchronized int opened() {
        return opened;
    }

    IOException failure() {
        return failure;
    }

    private synchronized void connect() throws IOException {
        SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
        channel.configureBlocking(false);
        String head = "POST /liftride/skiers/1/seasons/2022/days/1/skiers/" + (1 + opened % 1000)
                + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: " + BODY.length
                + "\r\n\r\n";
        channel.write(ByteBuffer.wrap(head.getBytes(StandardCharsets.US_ASCII)));
        Slow slow = new Slow();
        open.put(channel, slow);
        channel.register(selector, SelectionKey.OP_READ, slow);
        opened++;
        trickle(channel, slow);
    }

    private void trickle(SocketChannel channel, Slow slow) throws IOException {
        if (slow.sent < BODY.length - 1) { // never the last byte: the body is never complete
            channel.write(ByteBuffer.wrap(BODY, slow.sent, 1));
            slow.sent++;
        }
        slow.nextByteNanos += byteEveryNanos;
    }

    private void run() {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        try {
            while (running) {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    readOrClose((SocketChannel) key.channel(), (Slow) key.attachment(), buffer);
                }
                selector.selectedKeys().clear();
                tricklePending();
            }
        } catch (IOException e) {
            failure = e;
        } finally {
            closeAll();
        }
    }

    private void readOrClose(SocketChannel channel, Slow slow, ByteBuffer buffer) throws IOException {
        buffer.clear();
        int n;
        try {
            n = channel.read(buffer);
        } catch (IOException reset) {
            n = -1;
        }
        if (n > 0) {
            slow.answer.append(new String(buffer.array(), 0, n, StandardCharsets.ISO_8859_1));
            return;
        }
        if (n < 0) {
            closedByServer(channel, slow);
        }
    }

    private synchronized void closedByServer(SocketChannel channel, Slow slow) throws IOException {
        closedAfterMillis.add((System.nanoTime() - slow.openedNanos) / 1_000_000);
        int eol = slow.answer.indexOf("\r\n");
        statusLines.add(eol < 0 ? slow.answer.toString() : slow.answer.substring(0, eol));
        open.remove(channel);
        notifyAll();
        channel.close();
        if (reconnect) {
            connect();
        }
    }

    private synchronized void tricklePending() throws IOException {
        long now = System.nanoTime();
        for (Map.Entry<SocketChannel, Slow> entry : new ArrayList<>(open.entrySet())) {
            if (entry.getValue().nextByteNanos - now <= 0) {
                try {
                    trickle(entry.getKey(), entry.getValue());
                } catch (IOException closed) {
                    // the server closed it; the selector reports the end of stream
                }
            }
        }
    }

    private synchronized void closeAll() {
        for (SocketChannel channel : open.keySet()) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws InterruptedException {
        reconnect = false;
        running = false;
        thread.join(5_000);
    }

    int connections() {
        return connections;
    }
}
