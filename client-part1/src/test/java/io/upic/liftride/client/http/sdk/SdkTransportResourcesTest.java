package io.upic.liftride.client.http.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSender;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The sdk transport's shared OkHttp client: one pool for every worker, sized for them, emptied on close. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SdkTransportResourcesTest {

    private MockWebServer server;

    @BeforeEach
    void start() throws Exception {
        server = new MockWebServer();
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.shutdown();
    }

    private SdkRideSenderFactory open(int maxConnections) {
        return new SdkRideSenderFactory(
                new HttpSettings(server.url("/liftride").toString(), 2_000, 5_000, maxConnections));
    }

    @Test
    void workersShareOneConnectionPool() throws Exception {
        server.enqueue(new MockResponse().setResponseCode(201));
        server.enqueue(new MockResponse().setResponseCode(201));
        try (SdkRideSenderFactory factory = open(4);
                RideSender first = factory.create();
                RideSender second = factory.create()) {
            assertEquals(201, first.send(1, 2022, 1, 1, 1, 1, 1, "ride-1"));
            assertEquals(201, second.send(1, 2022, 1, 2, 1, 1, 1, "ride-1"));
            assertEquals(0, server.takeRequest().getSequenceNumber());
            RecordedRequest secondRequest = server.takeRequest();
            assertEquals(1, secondRequest.getSequenceNumber(), "the second worker reused the first one's connection");
            assertEquals(1, factory.httpClient().connectionPool().connectionCount());
        }
    }

    @Test
    void thePoolKeepsAnIdleConnectionForEveryWorkerAndClosingEmptiesIt() throws Exception {
        int workers = 8; // more than OkHttp's default of 5 idle connections
        for (int i = 0; i < workers; i++) {
            server.enqueue(new MockResponse().setResponseCode(201).setHeadersDelay(300, TimeUnit.MILLISECONDS));
        }
        SdkRideSenderFactory factory = open(workers);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            CountDownLatch ready = new CountDownLatch(workers);
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                int skier = i + 1;
                answers.add(pool.submit(() -> {
                    try (RideSender s = factory.create()) {
                        ready.countDown();
                        ready.await();
                        return s.send(1, 2022, 1, skier, 1, 1, 1, "ride-1");
                    }
                }));
            }
            for (Future<Integer> a : answers) {
                assertEquals(201, a.get());
            }
            assertEquals(workers, factory.httpClient().connectionPool().idleConnectionCount());
        } finally {
            pool.shutdownNow();
            factory.close();
        }
        assertEquals(0, factory.httpClient().connectionPool().connectionCount());
    }
}
