package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.transport.Transport;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The whole engine over the real SDK transport against a server that misbehaves on purpose. */
// A hang is a failure, not a stuck build: the engine's promise is that runs end by themselves.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EngineAgainstScriptedServerTest {

    private MockWebServer server;

    @BeforeEach
    void start() throws Exception {
        server = new MockWebServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.shutdown();
    }

    private RideSenderFactory transport(int readTimeoutMillis) {
        return Transport.SDK.open(new HttpSettings(server.url("/liftride").toString(), 2_000, readTimeoutMillis, 16));
    }

    @Test
    void connectionsClosedMidRunLoseNoCountAndHideNoAttempt() throws Exception {
        AtomicInteger created = new AtomicInteger();
        AtomicInteger dispatched = new AtomicInteger();
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                int n = dispatched.incrementAndGet();
                if (n % 7 == 0) {
                    return new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST);
                }
                if (n % 11 == 0) {
                    return new MockResponse().setResponseCode(503).setBody("{\"message\":\"busy\"}");
                }
                if (n % 13 == 0) {
                    return new MockResponse().setResponseCode(201).setSocketPolicy(SocketPolicy.DISCONNECT_AT_END);
                }
                created.incrementAndGet();
                return new MockResponse().setResponseCode(201);
            }
        });
        server.start();
        LoadPlan plan = PhasePlan.fall2021().forRun(8, 200, 10); // 1,800 requests
        AtomicLong attemptsSeen = new AtomicLong();
        try (RideSenderFactory senders = transport(5_000)) {
            RunResult r = LoadEngine.builder(plan, senders)
                    // about 1 attempt in 4 fails, so 6 attempts would lose a request in 4 runs of 1,800; 12 in none
                    .retryPolicy(new RetryPolicy(12, 0, 0))
                    .listener(work -> (a, b, c, code, n) -> attemptsSeen.incrementAndGet())
                    .build()
                    .run();
            assertEquals(1_800, r.requests().planned());
            assertEquals(
                    r.requests().planned(),
                    r.requests().successful() + r.requests().failed());
            assertEquals(
                    0, r.requests().failed(), "every request gets through within 12 attempts: " + r.failuresByCause());
            // the server's 201s (with or without a close after them) are exactly the client's successes
            int closedAfter201 = dispatched.get() / 13
                    - dispatched.get() / (13 * 7)
                    - dispatched.get() / (13 * 11)
                    + dispatched.get() / (13 * 77);
            assertEquals(created.get() + closedAfter201, r.requests().successful());
            // Every POST the server read is an attempt the client counted (OkHttp hides none). An attempt
            // can die unseen only on a connection the server closed after a 201 (at most one per close).
            assertTrue(
                    server.getRequestCount() <= r.requests().attempts(),
                    server.getRequestCount() + " > " + r.requests().attempts());
            assertTrue(
                    r.requests().attempts() - server.getRequestCount() <= closedAfter201,
                    (r.requests().attempts() - server.getRequestCount()) + " unseen attempts for " + closedAfter201
                            + " closes");
            assertEquals(r.requests().attempts(), attemptsSeen.get());
            assertTrue(r.requests().retries() > 0);
        }
    }

    @Test
    void aServerThatStallsEverythingEndsTheRunByItselfWithTimeoutsCounted() throws Exception {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                return new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE);
            }
        });
        server.start();
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 4, 1); // one request per thread: 3 phases x few threads
        long start = System.nanoTime();
        try (RideSenderFactory senders = transport(100)) {
            RunResult r = LoadEngine.builder(plan, senders)
                    .retryPolicy(new RetryPolicy(6, 1, 5))
                    .build()
                    .run();
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(r.requests().planned(), r.requests().failed());
            assertEquals(java.util.Map.of(AttemptCodes.TIMEOUT, r.requests().planned()), r.failuresByCause());
            assertEquals(6 * r.requests().planned(), r.requests().attempts());
            assertTrue(millis < 15_000, "took " + millis + " ms");
        }
    }
}
