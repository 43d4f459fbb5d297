package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.transport.Transport;
import io.upic.liftride.cluster.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import okhttp3.internal.concurrent.TaskQueue;
import okhttp3.internal.concurrent.TaskRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sdk transport's connections as the server sees them (a raw-socket server, so no OkHttp code runs on
 * its side): one per worker, reused by its calls, closed when its worker's sender closes, the rest when the
 * factory closes; and no OkHttp thread woken or left behind by a run.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SdkWorkerConnectionsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private ScriptedSocketServer server;

    @BeforeEach
    void start() throws Exception {
        server = ScriptedSocketServer.start((n, path, body) -> ScriptedSocketServer.Action.CREATED);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RideSenderFactory open() {
        return Transport.SDK.open(new HttpSettings(server.baseUrl(), 2_000, 5_000, 4));
    }

    private static int send(RideSender s, int skier, String key) throws Exception {
        return s.send(1, 2022, 1, skier, 1, 1, 1, key);
    }

    @Test
    void workersTakingTurnsEachKeepTheirOwnConnection() throws Exception {
        try (RideSenderFactory factory = open();
                RideSender first = factory.create();
                RideSender second = factory.create()) {
            for (int round = 0; round < 5; round++) {
                assertEquals(201, send(first, 1, "a-" + round));
                assertEquals(201, send(second, 2, "b-" + round));
            }
        }
        assertEquals(10, server.posts.get());
        // a shared pool would send all ten on one connection: the idle one is there each time
        assertEquals(2, server.accepted.get(), "one connection per worker, each reused by its 5 calls");
    }

    @Test
    void aWorkersConnectionClosesWithItsSenderAndTheRestWithTheFactory() throws Exception {
        RideSenderFactory factory = open();
        try {
            RideSender first = factory.create();
            RideSender second = factory.create();
            assertEquals(201, send(first, 1, "a"));
            assertEquals(201, send(second, 2, "b"));
            assertEquals(2, server.openConnections());
            first.close();
            Poll.until("the closed sender's connection to close", WAIT, () -> server.openConnections() == 1);
            assertEquals(201, send(second, 2, "b2"), "the other worker's connection is still in use");
            assertEquals(2, server.accepted.get());
        } finally {
            factory.close(); // the second sender is not closed: the factory closes its connection
        }
        Poll.until("the factory's close to close every connection", WAIT, () -> server.openConnections() == 0);
    }

    @Test
    void aRunWakesNoOkHttpThreadAndLeavesNoThreadBehind() throws Exception {
        Set<TaskQueue> queuesBefore = new HashSet<>(TaskRunner.INSTANCE.activeQueues());
        Set<Long> threadsBefore = liveThreadIds();
        int workers = 4;
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try (RideSenderFactory factory = open()) {
            CountDownLatch ready = new CountDownLatch(workers);
            List<Future<Integer>> done = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                RideSender sender = factory.create();
                int skier = w + 1;
                done.add(pool.submit(() -> {
                    try (sender) {
                        ready.countDown();
                        ready.await();
                        int created = 0;
                        for (int i = 0; i < 50; i++) {
                            created += send(sender, skier, skier + "-" + i) == 201 ? 1 : 0;
                        }
                        return created;
                    }
                }));
            }
            for (Future<Integer> d : done) {
                assertEquals(50, d.get());
            }
            // OkHttp's own pools queue their cleanup on this process-wide task runner, whose thread then wakes
            // after every call; the workers' pools have task runners of their own that start no thread
            Set<TaskQueue> queuesAdded = new HashSet<>(TaskRunner.INSTANCE.activeQueues());
            queuesAdded.removeAll(queuesBefore);
            assertEquals(Set.of(), queuesAdded, "queues the run added to OkHttp's process-wide task runner");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(workers, server.accepted.get());
        Poll.until("every connection to close", WAIT, () -> server.openConnections() == 0);
        try {
            Poll.until(
                    "the client's threads to end",
                    WAIT,
                    () -> newClientThreads(threadsBefore).isEmpty());
        } catch (IllegalStateException e) {
            assertEquals(Set.of(), newClientThreads(threadsBefore), "threads the run left behind");
        }
    }

    private static Set<Long> liveThreadIds() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getId).collect(Collectors.toSet());
    }

    /** Threads started since {@code before} that are neither the test's executor's nor the server's. */
    private static Set<String> newClientThreads(Set<Long> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t.getId()))
                .map(Thread::getName)
                .filter(name -> !name.startsWith("pool-") && !name.startsWith("scripted-server-"))
                .collect(Collectors.toSet());
    }
}
