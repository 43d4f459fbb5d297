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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sdk transport's OkHttp clients: one per worker, derived from the run's, each with its own
 * connection pool that keeps the worker's connection between requests; closing empties them all.
 */
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
    void eachWorkerKeepsItsOwnConnectionAcrossRequests() throws Exception {
        for (int i = 0; i < 4; i++) {
            server.enqueue(new MockResponse().setResponseCode(201));
        }
        try (SdkRideSenderFactory factory = open(4);
                RideSender first = factory.create();
                RideSender second = factory.create()) {
            assertEquals(201, first.send(1, 2022, 1, 1, 1, 1, 1, "ride-1"));
            assertEquals(201, second.send(1, 2022, 1, 2, 1, 1, 1, "ride-2"));
            assertEquals(201, first.send(1, 2022, 1, 3, 1, 1, 1, "ride-3"));
            assertEquals(201, second.send(1, 2022, 1, 4, 1, 1, 1, "ride-4"));
            List<Integer> sequence = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                sequence.add(server.takeRequest().getSequenceNumber());
            }
            // a request's sequence number counts the requests before it on its connection
            assertEquals(List.of(0, 0, 1, 1), sequence, "two connections, each reused by its own worker");
            assertEquals(2, factory.connectionCount());
            assertEquals(0, factory.httpClient().connectionPool().connectionCount(), "the run's client sends nothing");
        }
    }

    @Test
    void everyWorkerKeepsAnIdleConnectionAndClosingEmptiesThem() throws Exception {
        int workers = 8; // more than OkHttp's default of 5 idle connections per pool
        for (int i = 0; i < workers; i++) {
            server.enqueue(new MockResponse().setResponseCode(201).setHeadersDelay(300, TimeUnit.MILLISECONDS));
        }
        SdkRideSenderFactory factory = open(workers);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            CountDownLatch ready = new CountDownLatch(workers);
            CountDownLatch sent = new CountDownLatch(workers);
            CountDownLatch counted = new CountDownLatch(1);
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                int skier = i + 1;
                answers.add(pool.submit(() -> {
                    try (RideSender s = factory.create()) {
                        ready.countDown();
                        ready.await();
                        int status = s.send(1, 2022, 1, skier, 1, 1, 1, "ride-" + skier);
                        sent.countDown();
                        counted.await(); // keep the sender open while its idle connection is counted
                        return status;
                    }
                }));
            }
            sent.await();
            assertEquals(workers, factory.connectionCount(), "one idle connection per worker");
            counted.countDown();
            for (Future<Integer> a : answers) {
                assertEquals(201, a.get());
            }
            assertEquals(0, factory.connectionCount(), "a closed sender empties its pool");
        } finally {
            pool.shutdownNow();
            factory.close();
        }
    }

    @Test
    void closingTheFactoryEmptiesThePoolsOfSendersNotClosed() throws Exception {
        server.enqueue(new MockResponse().setResponseCode(201));
        SdkRideSenderFactory factory = open(1);
        RideSender s = factory.create();
        assertEquals(201, s.send(1, 2022, 1, 1, 1, 1, 1, "ride-1"));
        assertEquals(1, factory.connectionCount());
        factory.close();
        assertEquals(0, factory.connectionCount());
    }
}
