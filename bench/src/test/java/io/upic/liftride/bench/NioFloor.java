package io.upic.liftride.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.ThreadLocalRandom;
import org.HdrHistogram.Histogram;

/**
 * The floor of a JVM open-model generator: one selector thread sends the client's lift-ride POST (same path, headers,
 * {@code Idempotency-Key} and JSON body) over keep-alive connections at a constant rate, request k due at
 * {@code start + k / rate}, one request in flight per connection, as wrk2 does. Every channel keeps {@code OP_READ}
 * registered, so a send costs one {@code write} and no {@code epoll_ctl}. Latency counts from the intended time, so
 * a late send is charged to the server's answer (no coordinated omission). bench/open_cost.py runs it beside wrk2:
 * {@code java -cp "$BENCH_CP" io.upic.liftride.bench.NioFloor URL RATE CONNECTIONS REQUESTS}.
 * Single-threaded; not a test and never in the product.
 */
public final class NioFloor {
    private static final long MAX_NANOS = 60_000_000_000L;
    private static final byte[] CONTENT_LENGTH = ascii("\r\nContent-Length: ");
    private static final byte[] CONTENT_LENGTH_LOWER = ascii("content-length:");
    private static final byte[] CRLF_CRLF = ascii("\r\n\r\n");
    private static final byte[] LIFT = ascii("{\"liftID\":");
    private static final byte[] TIME = ascii(",\"time\":");
    private static final byte[] WAIT = ascii(",\"waitTime\":");

    private final InetSocketAddress address;
    private final byte[] requestStart;
    private final byte[] headers;
    private final String keyPrefix =
            Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-nio-";
    private final Histogram sendLag = new Histogram(MAX_NANOS, 3);
    private final Histogram latency = new Histogram(MAX_NANOS, 3);
    private final ArrayDeque<Conn> idle = new ArrayDeque<>();
    private final Selector selector;
    private final byte[] scratch = new byte[1024];
    private long ok;
    private long failed;

    /** One connection's buffers and the intended time of its request in flight. */
    private static final class Conn {
        final SocketChannel channel;
        final ByteBuffer out = ByteBuffer.allocateDirect(1024);
        final ByteBuffer in = ByteBuffer.allocateDirect(8192);
        long intendedNanos;

        Conn(SocketChannel channel) {
            this.channel = channel;
        }
    }

    private NioFloor(URI url) throws IOException {
        address = new InetSocketAddress(url.getHost(), url.getPort());
        requestStart = ascii("POST " + url.getRawPath() + "/skiers/1/seasons/2022/days/1/skiers/");
        headers = ascii(" HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort()
                + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + keyPrefix);
        selector = Selector.open();
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: NioFloor URL RATE CONNECTIONS REQUESTS, got " + args.length);
        }
        NioFloor floor = new NioFloor(URI.create(args[0]));
        int rate = Integer.parseInt(args[1]);
        long requests = Long.parseLong(args[3]);
        for (int i = 0; i < Integer.parseInt(args[2]); i++) {
            floor.idle.add(floor.open());
        }
        long start = System.nanoTime();
        floor.run(start, 1_000_000_000.0 / rate, requests);
        double wallSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "nio floor: %d ok, %d failed, wall %.3f s, %.1f req/s%n",
                floor.ok, floor.failed, wallSeconds, (floor.ok + floor.failed) / wallSeconds);
        System.out.printf(
                "send lag ms: p50 %.3f p99 %.3f max %.3f; latency ms: p50 %.3f p99 %.3f max %.3f%n",
                ms(floor.sendLag, 50),
                ms(floor.sendLag, 99),
                floor.sendLag.getMaxValue() / 1e6,
                ms(floor.latency, 50),
                ms(floor.latency, 99),
                floor.latency.getMaxValue() / 1e6);
    }

    private Conn open() throws IOException {
        SocketChannel channel = SocketChannel.open(address);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.configureBlocking(false);
        Conn conn = new Conn(channel);
        channel.register(selector, SelectionKey.OP_READ, conn);
        return conn;
    }

    /** Sends {@code requests} requests, the k-th due at {@code start + k * intervalNanos}, and reads every answer. */
    private void run(long start, double intervalNanos, long requests) throws IOException {
        long sent = 0;
        while (ok + failed < requests) {
            long now = System.nanoTime();
            while (sent < requests && !idle.isEmpty()) {
                long due = start + (long) (sent * intervalNanos);
                if (due > now) {
                    break;
                }
                send(idle.poll(), due, sent, now);
                sent++;
            }
            long waitNanos = sent < requests && !idle.isEmpty() ? start + (long) (sent * intervalNanos) - now : -1;
            if (waitNanos < 0) {
                selector.select(); // an answer frees a connection
            } else {
                selector.select(Math.max(1, (waitNanos + 999_999) / 1_000_000)); // epoll_wait: whole milliseconds
            }
            for (SelectionKey key : selector.selectedKeys()) {
                read((Conn) key.attachment());
            }
            selector.selectedKeys().clear();
        }
    }

    private void send(Conn conn, long dueNanos, long n, long nowNanos) throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int lift = random.nextInt(1, 41);
        int minute = random.nextInt(1, 361);
        int wait = random.nextInt(0, 11);
        int bodyLength = LIFT.length + digits(lift) + TIME.length + digits(minute) + WAIT.length + digits(wait) + 1;
        ByteBuffer out = conn.out.clear();
        put(out.put(requestStart), random.nextInt(1, 10_001)).put(headers);
        put(put(out, n).put(CONTENT_LENGTH), bodyLength).put(CRLF_CRLF);
        put(put(put(out.put(LIFT), lift).put(TIME), minute).put(WAIT), wait)
                .put((byte) '}')
                .flip();
        conn.intendedNanos = dueNanos;
        sendLag.recordValue(Math.min(MAX_NANOS, nowNanos - dueNanos));
        while (out.hasRemaining()) { // about 250 bytes: an empty socket buffer takes them at once
            conn.channel.write(out);
        }
    }

    private void read(Conn conn) throws IOException {
        ByteBuffer in = conn.in;
        int n = conn.channel.read(in);
        if (n < 0) {
            throw new IOException("server closed a connection");
        }
        int length = in.position();
        in.flip().get(scratch, 0, Math.min(length, scratch.length)).clear();
        int headerEnd = indexOfHeaderEnd(scratch, length);
        if (headerEnd < 0) {
            in.put(scratch, 0, length); // the status line and headers are not all here yet
            return;
        }
        int bodyStart = headerEnd + 4;
        int total = bodyStart + contentLength(scratch, headerEnd);
        if (length < total) {
            in.put(scratch, 0, length);
            return;
        }
        int status = (scratch[9] - '0') * 100 + (scratch[10] - '0') * 10 + (scratch[11] - '0');
        if (status == 201) {
            ok++;
        } else {
            failed++;
        }
        latency.recordValue(Math.min(MAX_NANOS, System.nanoTime() - conn.intendedNanos));
        in.put(scratch, total, length - total); // nothing should follow: one request in flight
        idle.add(conn);
    }

    /** The Content-Length header's value (0 when absent; the server sends no chunked answers to a POST). */
    private static int contentLength(byte[] b, int headerEnd) {
        for (int p = 0; p < headerEnd; p++) {
            if (b[p] == '\n' && matchesLowerCase(b, p + 1, CONTENT_LENGTH_LOWER)) {
                int value = 0;
                for (int q = p + 1 + CONTENT_LENGTH_LOWER.length; q < headerEnd && b[q] != '\r'; q++) {
                    value = b[q] == ' ' ? value : value * 10 + b[q] - '0';
                }
                return value;
            }
        }
        return 0;
    }

    /** Whether {@code b} holds {@code lower} at {@code p}, ignoring the case of letters. */
    private static boolean matchesLowerCase(byte[] b, int p, byte[] lower) {
        for (int j = 0; j < lower.length; j++) {
            if ((b[p + j] | 0x20) != lower[j]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOfHeaderEnd(byte[] b, int length) {
        for (int i = 0; i + 3 < length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int digits(long v) {
        int n = 1;
        for (long x = v; x >= 10; x /= 10) {
            n++;
        }
        return n;
    }

    /** Writes {@code v} (not negative) in decimal. */
    private static ByteBuffer put(ByteBuffer out, long v) {
        int end = out.position() + digits(v);
        long x = v;
        for (int i = end - 1; i >= out.position(); i--, x /= 10) {
            out.put(i, (byte) ('0' + x % 10));
        }
        return out.position(end);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1e6;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
