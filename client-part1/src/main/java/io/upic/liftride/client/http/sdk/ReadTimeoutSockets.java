package io.upic.liftride.client.http.sdk;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * Plain sockets whose read timeout ({@code SO_TIMEOUT}) is the run's, whatever OkHttp sets: the kernel bounds
 * each read, and OkHttp is configured without read and write timeouts of its own. Why: OkHttp's are okio
 * {@code AsyncTimeout}s, which put every socket read and write of every worker into one process-wide sorted
 * list under one lock and wake a watchdog thread (4-5% of the SDK path's client samples in JFR, beside the
 * lock's contention between 64 workers), although OkHttp also sets {@code SO_TIMEOUT} to the same read
 * timeout. Without them a read still ends at the read timeout ({@code SocketTimeoutException}), and a write,
 * a few hundred bytes into an empty socket buffer, at the whole call's deadline ({@link CallDeadlines}) at the
 * latest. Thread-safe.
 */
final class ReadTimeoutSockets extends SocketFactory {

    private final int readTimeoutMillis;

    ReadTimeoutSockets(int readTimeoutMillis) {
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /** The only method OkHttp calls: it connects the socket itself. */
    @Override
    public Socket createSocket() throws SocketException {
        Socket socket = new Socket() {
            @Override
            public void setSoTimeout(int ignored) throws SocketException {
                super.setSoTimeout(readTimeoutMillis); // OkHttp sets its own read timeout, 0 here: keep ours
            }
        };
        socket.setSoTimeout(readTimeoutMillis);
        return socket;
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
