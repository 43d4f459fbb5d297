package io.upic.liftride.client.http.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.squareup.okhttp.mockwebserver.MockResponse;
import com.squareup.okhttp.mockwebserver.MockWebServer;
import com.squareup.okhttp.mockwebserver.SocketPolicy;
import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.engine.RetryingSender;
import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RetryPolicy;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

// A hang is a failure, not a stuck build: the engine's promise is that runs end by themselves.
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class QuickProbeSocketFactoryTest {

    /** A connected pair: the client side from the factory, the server side accepted. */
    private record Pair(Socket client, Socket server) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            client.close();
            server.close();
        }
    }

    private static Pair connect(long recentNanos) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Socket client = new QuickProbeSocketFactory(recentNanos).createSocket();
            client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort()), 1_000);
            return new Pair(client, listener.accept());
        }
    }

    /** What OkHttp 2.7.5 does before reusing a pooled connection for a POST. */
    private static int okHttpProbe(Socket s, InputStream in) throws Exception {
        int readTimeout = s.getSoTimeout();
        s.setSoTimeout(1);
        try {
            return in.read(new byte[16], 0, 16);
        } finally {
            s.setSoTimeout(readTimeout);
        }
    }

    private static void exchangeOneByte(Pair p, InputStream in) throws Exception {
        p.server().getOutputStream().write(42);
        assertEquals(42, in.read());
    }

    @Test
    void aRecentlyReadConnectionWithNothingPendingAnswersTheProbeAtOnceWithoutAStackTrace() throws Exception {
        try (Pair p = connect(1_000_000_000L)) {
            InputStream in = p.client().getInputStream();
            p.client().setSoTimeout(5_000);
            exchangeOneByte(p, in);
            SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> okHttpProbe(p.client(), in));
            // The preallocated answer, not the JDK's "Read timed out" after 1 ms (no wall-clock
            // assertion: a loaded machine makes any threshold flaky; identity proves the path taken).
            assertEquals("no bytes pending (quick health check)", e.getMessage());
            assertEquals(0, e.getStackTrace().length);
            assertEquals(5_000, p.client().getSoTimeout());
            // the next ordinary read is a normal blocking read again
            exchangeOneByte(p, in);
        }
    }

    @Test
    void anIdleConnectionGetsTheRealOneMillisecondCheck() throws Exception {
        try (Pair p = connect(50_000_000L)) {
            InputStream in = p.client().getInputStream();
            exchangeOneByte(p, in);
            Thread.sleep(100);
            SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> okHttpProbe(p.client(), in));
            assertTrue(e.getStackTrace().length > 0, "a real JDK timeout, not the shortcut");
        }
    }

    @Test
    void anIdleConnectionClosedByTheServerIsStillSeenAsClosed() throws Exception {
        try (Pair p = connect(50_000_000L)) {
            InputStream in = p.client().getInputStream();
            exchangeOneByte(p, in);
            p.server().close();
            Thread.sleep(100);
            assertEquals(-1, okHttpProbe(p.client(), in));
        }
    }

    @Test
    void pendingBytesAreReadNotHidden() throws Exception {
        try (Pair p = connect(1_000_000_000L)) {
            InputStream in = p.client().getInputStream();
            exchangeOneByte(p, in);
            OutputStream out = p.server().getOutputStream();
            out.write(new byte[] {1, 2, 3});
            out.flush();
            Thread.sleep(50);
            assertEquals(3, okHttpProbe(p.client(), in));
        }
    }

    @Test
    void aFreshConnectionIsNeverTakenForRecentlyUsed() throws Exception {
        try (Pair p = connect(Long.MAX_VALUE / 4)) {
            InputStream in = p.client().getInputStream();
            SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> okHttpProbe(p.client(), in));
            assertTrue(e.getStackTrace().length > 0);
        }
    }

    @Test
    void pooledPostsThroughTheSdkSkipTheWaitAndStillCountEveryAttempt() throws Exception {
        MockWebServer server = new MockWebServer();
        for (int i = 0; i < 200; i++) {
            server.enqueue(new MockResponse().setResponseCode(201));
        }
        server.start();
        List<Integer> codes = new ArrayList<>();
        try (SdkRideSenderFactory f = new SdkRideSenderFactory(
                new HttpSettings(server.url("/liftride").toString(), 1_000, 5_000, 2))) {
            assertSame(
                    QuickProbeSocketFactory.class,
                    f.httpClient().getSocketFactory().getClass());
            RetryingSender s = new RetryingSender(
                    f.create(),
                    new RetryPolicy(6, 0, 0),
                    (AttemptRecorder) (a, b, c, code, n) -> codes.add(code),
                    () -> false);
            for (int i = 0; i < 200; i++) {
                assertEquals(201, s.send(1, 2022, 1, 1, 1, 1, 0));
            }
            assertEquals(200, server.getRequestCount());
            assertEquals(
                    1, f.httpClient().getConnectionPool().getConnectionCount(), "one kept-alive connection reused");
        } finally {
            server.shutdown();
        }
    }

    @Test
    void aOneMillisecondReadTimeoutKeepsOkHttpsOwnSockets() {
        try (SdkRideSenderFactory f =
                new SdkRideSenderFactory(new HttpSettings("http://127.0.0.1:1/liftride", 1_000, 1, 2))) {
            assertTrue(!(f.httpClient().getSocketFactory() instanceof QuickProbeSocketFactory));
        }
    }

    @Test
    void aServerThatClosesRightAfterAnsweringCostsAVisibleRetryNotALostRide() throws Exception {
        MockWebServer server = new MockWebServer();
        server.enqueue(new MockResponse().setResponseCode(201).setSocketPolicy(SocketPolicy.DISCONNECT_AT_END));
        server.enqueue(new MockResponse().setResponseCode(201));
        server.enqueue(new MockResponse().setResponseCode(201));
        server.start();
        List<Integer> codes = new ArrayList<>();
        try (SdkRideSenderFactory f = new SdkRideSenderFactory(
                new HttpSettings(server.url("/liftride").toString(), 1_000, 5_000, 2))) {
            RetryingSender s = new RetryingSender(
                    f.create(),
                    new RetryPolicy(6, 0, 0),
                    (AttemptRecorder) (a, b, c, code, n) -> codes.add(code),
                    () -> false);
            assertEquals(201, s.send(1, 2022, 1, 1, 1, 1, 0));
            assertEquals(201, s.send(1, 2022, 1, 1, 1, 1, 0));
            // The reused connection was already closed: that attempt died before the server read it and
            // was retried visibly. The server saw exactly the two POSTs it answered 201.
            assertEquals(List.of(201, io.upic.liftride.client.http.AttemptCodes.CONNECTION_ERROR, 201), codes);
            assertEquals(2, server.getRequestCount());
        } finally {
            server.shutdown();
        }
    }
}
