package io.upic.liftride.client.http.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.squareup.okhttp.mockwebserver.MockResponse;
import com.squareup.okhttp.mockwebserver.MockWebServer;
import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.ServerProbe;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Closing the sdk transport or a probe ends OkHttp's "OkHttp ConnectionPool" thread at once, not minutes later. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OkHttpPoolsTest {

    private static final String POOL_THREAD = "OkHttp ConnectionPool";

    private MockWebServer server;
    private Set<Thread> before;

    @BeforeEach
    void start() throws Exception {
        server = new MockWebServer();
        server.start();
        before = Set.copyOf(Thread.getAllStackTraces().keySet());
    }

    @AfterEach
    void stop() throws Exception {
        server.shutdown();
    }

    private List<Thread> newPoolThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals(POOL_THREAD) && !before.contains(t))
                .toList();
    }

    /** Waits up to 2 s for the new pool threads to end; returns those still alive. */
    private List<Thread> poolThreadsLeftAfter2s() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        List<Thread> left = newPoolThreads();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            left = newPoolThreads();
        }
        return left;
    }

    @Test
    void thisOkHttpLetsTheCleanupThreadBeEnded() {
        assertTrue(OkHttpPools.canEndCleanupThread(), "OkHttp 2.7.5's ConnectionPool has its private executor field");
    }

    @Test
    void closingTheSdkTransportEndsItsPoolThreadAndItsConnections() throws Exception {
        server.enqueue(new MockResponse().setResponseCode(201));
        SdkRideSenderFactory factory = new SdkRideSenderFactory(
                new HttpSettings(server.url("/liftride").toString(), 2_000, 2_000, 4));
        try (RideSender s = factory.create()) {
            assertEquals(201, s.send(1, 2022, 1, 1, 1, 1, 1));
        }
        assertEquals(1, factory.httpClient().getConnectionPool().getConnectionCount(), "the connection is pooled");
        assertEquals(1, newPoolThreads().size(), "using the pool started its cleanup thread");
        factory.close();
        assertEquals(0, factory.httpClient().getConnectionPool().getConnectionCount());
        // without the shutdown it sleeps out the pool's 5-minute keep-alive, then idles 60 s more
        assertEquals(List.of(), poolThreadsLeftAfter2s());
    }

    @Test
    void aStatisticsProbeLeavesNoPoolThreadBehind() throws Exception {
        server.enqueue(new MockResponse().setResponseCode(200).setBody("{\"endpointStats\":[],\"ridesStored\":7}"));
        assertEquals(
                7,
                ServerProbe.statistics(server.url("/liftride").toString(), 2_000, 2_000)
                        .ridesStored()
                        .orElseThrow());
        // without the shutdown each probe leaves an idle pool thread for 60 s
        assertEquals(List.of(), poolThreadsLeftAfter2s());
    }
}
