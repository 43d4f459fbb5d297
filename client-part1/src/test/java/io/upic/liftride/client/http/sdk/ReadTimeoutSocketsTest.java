package io.upic.liftride.client.http.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import okhttp3.internal.Util;
import okio.BufferedSource;
import okio.Okio;
import org.junit.jupiter.api.Test;

/** The sdk transport's sockets: the run's read timeout where OkHttp sets none, OkHttp's own where it sets one. */
class ReadTimeoutSocketsTest {

    private static final int READ_TIMEOUT_MILLIS = 5_000;

    @Test
    void okHttpsNoTimeoutBecomesTheRunsReadTimeout() throws Exception {
        try (Socket socket = new ReadTimeoutSockets(READ_TIMEOUT_MILLIS).createSocket()) {
            assertEquals(READ_TIMEOUT_MILLIS, socket.getSoTimeout(), "as created");
            socket.setSoTimeout(0); // what OkHttp sets before every call, configured without a read timeout
            assertEquals(READ_TIMEOUT_MILLIS, socket.getSoTimeout());
            socket.setSoTimeout(1);
            assertEquals(1, socket.getSoTimeout(), "a timeout OkHttp sets itself is kept");
            socket.setSoTimeout(0);
            assertEquals(READ_TIMEOUT_MILLIS, socket.getSoTimeout());
        }
    }

    @Test
    void aSilentServerEndsAReadAtTheRunsReadTimeout() throws Exception {
        try (ServerSocket server = listen();
                Socket socket = new ReadTimeoutSockets(300).createSocket()) {
            socket.connect(server.getLocalSocketAddress(), 2_000);
            socket.setSoTimeout(0);
            InputStream in = socket.getInputStream();
            long start = System.nanoTime();
            assertThrows(SocketTimeoutException.class, in::read);
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMillis >= 250 && tookMillis < 3_000, "the read waited " + tookMillis + " ms");
        }
    }

    /**
     * OkHttp checks a connection idle for 10 s or more before sending a POST on it by reading with a 1 ms
     * timeout: on a healthy connection (nothing to read) the check must take about that, not a read timeout.
     */
    @Test
    void okHttpsHealthCheckOfAnIdleConnectionDoesNotWaitForTheReadTimeout() throws Exception {
        try (ServerSocket server = listen();
                Socket socket = new ReadTimeoutSockets(READ_TIMEOUT_MILLIS).createSocket()) {
            socket.connect(server.getLocalSocketAddress(), 2_000);
            try (Socket accepted = server.accept()) {
                BufferedSource source = Okio.buffer(Okio.source(socket));
                boolean healthy = assertTimeoutPreemptively(
                        Duration.ofMillis(READ_TIMEOUT_MILLIS / 2), () -> Util.isHealthy(socket, source));
                assertTrue(healthy, "an open connection with nothing to read is healthy");
                assertEquals(READ_TIMEOUT_MILLIS, socket.getSoTimeout(), "the check set the read timeout back");
                accepted.close();
                assertFalse(
                        assertTimeoutPreemptively(
                                Duration.ofMillis(READ_TIMEOUT_MILLIS / 2), () -> Util.isHealthy(socket, source)),
                        "a connection the server closed is not healthy");
            }
        }
    }

    private static ServerSocket listen() throws Exception {
        ServerSocket s = new ServerSocket();
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return s;
    }
}
