package io.upic.liftride.client.http.sdk;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * Plain sockets whose read timeout ({@code SO_TIMEOUT}) is the run's wherever OkHttp sets its own (0 here): the
 * kernel bounds each read, and OkHttp is configured without read and write timeouts of its own. Why: OkHttp's are
 * okio {@code AsyncTimeout}s, which put every socket read and write of every worker into one process-wide sorted
 * list under one lock and wake a watchdog thread (its cost: client-sdk/templates/README.md), although OkHttp also
 * sets {@code SO_TIMEOUT} to the same read timeout. Without them a read still ends at the read timeout
 * ({@code SocketTimeoutException}), and a write, a few hundred bytes into an empty socket buffer, at the whole
 * call's deadline ({@link CallDeadlines}) at the latest. Thread-safe.
 */
final class ReadTimeoutSockets extends SocketFactory {

    private final int readTimeoutMillis;

    ReadTimeoutSockets(int readTimeoutMillis) {
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /** The only method OkHttp calls: it connects the socket itself. */
    @Override
    public Socket createSocket() throws SocketException {
        Socket socket = new RunSocket(readTimeoutMillis);
        socket.setSoTimeout(0);
        return socket;
    }

    /**
     * A socket that reads OkHttp's read timeout of 0 ("none") as the run's. Any other value is OkHttp's own
     * and is kept: its check of a connection idle for 10 s or more before a POST reads with a timeout of 1 ms
     * and then sets back the timeout it found; were that 1 ms replaced too, the check would wait out a whole
     * read timeout on every healthy idle connection. OkHttp sets the timeout again for every call: the same
     * value is not passed on to the socket again. Used by one call at a time.
     */
    private static final class RunSocket extends Socket {
        private final int readTimeoutMillis;
        private int current = -1;

        RunSocket(int readTimeoutMillis) {
            this.readTimeoutMillis = readTimeoutMillis;
        }

        @Override
        public void setSoTimeout(int timeoutMillis) throws SocketException {
            int t = timeoutMillis == 0 ? readTimeoutMillis : timeoutMillis;
            if (t != current) {
                super.setSoTimeout(t);
                current = t;
            }
        }
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        throw unconnectedOnly();
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        throw unconnectedOnly();
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        throw unconnectedOnly();
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        throw unconnectedOnly();
    }

    private static UnsupportedOperationException unconnectedOnly() {
        return new UnsupportedOperationException("OkHttp asks for unconnected sockets only: createSocket()");
    }
}
