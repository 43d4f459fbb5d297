package io.upic.liftride.client.http.sdk;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import javax.net.SocketFactory;

/**
 * Plain TCP sockets that answer OkHttp 2.7.5's pooled-connection health check without waiting.
 * Thread-safe factory; each socket is used by one thread at a time (OkHttp's pool hands it over
 * under its lock).
 *
 * <p>Why: before reusing a pooled connection for any non-GET request, OkHttp 2.7.5 sets
 * {@code SO_TIMEOUT} to 1 ms and reads, to see whether the server closed the connection; on a
 * healthy connection that read blocks the full millisecond and ends in a {@link SocketTimeoutException}
 * with a filled stack trace, on every POST. On loopback that is most of a request's latency.
 *
 * <p>What: while the 1 ms timeout is armed, a read on a connection that was last read from less than
 * {@code recentNanos} ago and has no bytes pending throws a preallocated, stackless timeout at once,
 * which OkHttp takes as "healthy". A server does not close a keep-alive connection within a second of
 * answering on it (keep-alive timeouts are 5 s or more; a planned close comes with
 * {@code Connection: close}, and OkHttp does not pool those). A connection idle for longer gets
 * OkHttp's real check, so stale connections are still found. If a server does close a recently used
 * connection, the attempt fails with an I/O error and is retried and counted like any other.
 */
final class QuickProbeSocketFactory extends SocketFactory {

    /** OkHttp's probe timeout. */
    private static final int PROBE_TIMEOUT_MILLIS = 1;

    /** What OkHttp's health check catches as "no data, connection alive"; never escapes it. */
    private static final SocketTimeoutException NO_BYTES_PENDING =
            new SocketTimeoutException("no bytes pending (quick health check)") {
                @Override
                public synchronized Throwable fillInStackTrace() {
                    return this;
                }
            };

    private final long recentNanos;

    QuickProbeSocketFactory(long recentNanos) {
        if (recentNanos < 0) {
            throw new IllegalArgumentException("recentNanos < 0: " + recentNanos);
        }
        this.recentNanos = recentNanos;
    }

    @Override
    public Socket createSocket() {
        return new QuickProbeSocket(recentNanos);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        Socket s = createSocket();
        s.bind(new InetSocketAddress(localHost, localPort));
        s.connect(new InetSocketAddress(host, port));
        return s;
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        Socket s = createSocket();
        s.bind(new InetSocketAddress(localAddress, localPort));
        s.connect(new InetSocketAddress(address, port));
        return s;
    }

    private Socket connected(InetSocketAddress address) throws IOException {
        Socket s = createSocket();
        s.connect(address);
        return s;
    }

    /** A plain socket (the JDK's own implementation) whose input stream knows the probe. */
    static final class QuickProbeSocket extends Socket {
        private final long recentNanos;
        private boolean probeArmed;
        private long lastReadNanos = Long.MIN_VALUE / 2; // "long ago": the first check is a real one
        private InputStream in;

        QuickProbeSocket(long recentNanos) {
            this.recentNanos = recentNanos;
        }

        @Override
        public synchronized void setSoTimeout(int timeout) throws SocketException {
            super.setSoTimeout(timeout);
            probeArmed = timeout == PROBE_TIMEOUT_MILLIS;
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new ProbingInputStream(super.getInputStream());
            }
            return in;
        }

        private final class ProbingInputStream extends FilterInputStream {
            ProbingInputStream(InputStream in) {
                super(in);
            }

            @Override
            public int read() throws IOException {
                quickProbe();
                int b = super.read();
                lastReadNanos = System.nanoTime();
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                quickProbe();
                int n = super.read(b, off, len);
                lastReadNanos = System.nanoTime();
                return n;
            }

            private void quickProbe() throws IOException {
                if (!probeArmed) {
                    return;
                }
                probeArmed = false;
                if (System.nanoTime() - lastReadNanos < recentNanos && super.available() == 0) {
                    throw NO_BYTES_PENDING;
                }
            }
        }
    }
}
