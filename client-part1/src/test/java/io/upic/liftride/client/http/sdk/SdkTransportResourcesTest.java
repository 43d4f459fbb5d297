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
 * The sdk transport's OkHttp clients: a connection pool per worker, its one connection reused by its calls,
 * closed when the worker's sender closes or, for those left, when the factory closes.
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
    void eachWorkerReusesItsOwnConnectionAndNoOtherWorkers() throws Exception {
        for (int i = 0; i < 6; i++) {
            server.enqueue(new MockResponse().setResponseCode(201));
        }
        try (SdkRideSenderFactory factory = open(4);
                RideSender first = factory.create();
                RideSender second = factory.create()) {
            for (int round = 0; round < 3; round++) {
                assertEquals(201, first.send(1, 2022, 1, 1, 1, 1, 1, "ride-a" + round));
                assertEquals(201, second.send(1, 2022, 1, 2, 1, 1, 1, "ride-b" + round));
            }
            List<Integer> sequence = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                sequence.add(server.takeRequest().getSequenceNumber());
            }
            // one shared pool would give 0, 1, 2, 3, 4, 5: the second worker on the first one's connection
            assertEquals(List.of(0, 0, 1, 1, 2, 2), sequence, "each worker's requests, in turn, on its own connection");
            assertEquals(2, factory.connectionCount());
        }
    }

    @Test
    void closingASenderClosesItsConnectionAndClosingTheFactoryTheRest() throws Exception {
        int workers = 8;
        for (int i = 0; i < workers; i++) {
            server.enqueue(new MockResponse().setResponseCode(201).setHeadersDelay(300, TimeUnit.MILLISECONDS));
        }
        SdkRideSenderFactory factory = open(workers);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<RideSender> senders = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                senders.add(factory.create());
            }
            CountDownLatch ready = new CountDownLatch(workers);
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                RideSender s = senders.get(i);
                int skier = i + 1;
                answers.add(pool.submit(() -> {
                    ready.countDown();
                    ready.await();
                    return s.send(1, 2022, 1, skier, 1, 1, 1, "ride-1");
                }));
            }
            for (Future<Integer> a : answers) {
                assertEquals(201, a.get());
            }
            assertEquals(workers, factory.connectionCount(), "every worker's connection is kept while it runs");
            for (RideSender s : senders) {
                assertEquals(1, ((SdkRideSender) s).connectionCount(), "one connection per worker's own pool");
            }
            senders.get(0).close();
            senders.get(1).close();
            // each pool's own count, not the factory's sum over the pools still open: that sum drops with a pool
            // left out even if its connection stayed open
            assertEquals(0, ((SdkRideSender) senders.get(0)).connectionCount(), "a closed sender's connection closed");
            assertEquals(0, ((SdkRideSender) senders.get(1)).connectionCount());
            assertEquals(workers - 2, factory.connectionCount());
            factory.close();
            for (RideSender s : senders) {
                assertEquals(0, ((SdkRideSender) s).connectionCount(), "the factory's close evicts the idle rest");
            }
        } finally {
            pool.shutdownNow();
            factory.close();
        }
        assertEquals(0, factory.connectionCount());
    }
}
