package io.upic.liftride.client.http.sdk;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * Plain sockets whose read timeout is the run's wherever OkHttp sets 0, so the kernel bounds each read and OkHttp
 * runs without its own okio timeouts (their shared lock: client-sdk/templates/README.md); a write is bounded by
 * {@link CallDeadlines}. Thread-safe.
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
     * A socket that reads OkHttp's read timeout of 0 as the run's and keeps any other (OkHttp's 1 ms idle-connection
     * check must stay 1 ms). Used by one call at a time.
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
