package io.upic.liftride.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.engine.RetryingSender;
import io.upic.liftride.client.transport.Transport;
import io.upic.liftride.cluster.FreePorts;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The sdk transport plus the retry loop against a scripted server. */
// A hang is a failure, not a stuck build: the engine's promise is that runs end by themselves.
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SdkTransportTest {

    /** No backoff waits: these tests are about counting, not timing. */
    private static final RetryPolicy FAST = new RetryPolicy(6, 0, 0);

    private MockWebServer server;
    private RideSenderFactory factory;
    private final List<Integer> codes = new ArrayList<>();
    private final List<Integer> attemptNumbers = new ArrayList<>();
    private final AttemptRecorder recorder = (startEpochMillis, startNanos, latencyNanos, code, attemptNumber) -> {
        codes.add(code);
        attemptNumbers.add(attemptNumber);
    };

    @BeforeEach
    void startServer() throws Exception {
        server = new MockWebServer();
        server.start();
        factory = open(10_000);
    }

    private RideSenderFactory open(int readTimeoutMillis) {
        return Transport.SDK.open(new HttpSettings(server.url("/liftride").toString(), 2_000, readTimeoutMillis, 8));
    }

    @AfterEach
    void stopServer() throws Exception {
        factory.close();
        server.shutdown();
    }

    private int send(RetryingSender s) {
        return s.send(3, 2022, 1, 1234, 17, 200, 5);
    }

    private RetryingSender retrying(RetryPolicy policy) {
        return new RetryingSender(factory.create(), policy, recorder, () -> false);
    }

    @Test
    void a500ThenA201IsOneSuccessAfterOneRetry() {
        server.enqueue(new MockResponse().setResponseCode(500));
        server.enqueue(new MockResponse().setResponseCode(201));
        RetryingSender s = retrying(FAST);
        assertEquals(201, send(s));
        assertEquals(2, s.lastAttempts());
        assertEquals(2, server.getRequestCount());
        assertEquals(List.of(500, 201), codes);
        assertEquals(List.of(1, 2), attemptNumbers);
    }

    @Test
    void always503FailsAfterExactlySixAttempts() {
        for (int i = 0; i < 10; i++) {
            server.enqueue(new MockResponse().setResponseCode(503).setBody("{\"message\":\"busy\"}"));
        }
        RetryingSender s = retrying(FAST);
        assertEquals(503, send(s));
        assertEquals(6, s.lastAttempts());
        assertEquals(6, server.getRequestCount());
        assertEquals(List.of(1, 2, 3, 4, 5, 6), attemptNumbers);
    }

    @Test
    void a400IsRetriedThenCountedAsFailedWithItsStatus() {
        for (int i = 0; i < 6; i++) {
            server.enqueue(new MockResponse().setResponseCode(400).setBody("{\"message\":\"bad\"}"));
        }
        RetryingSender s = retrying(FAST);
        assertEquals(400, send(s));
        assertEquals(6, server.getRequestCount());
        assertEquals(List.of(400, 400, 400, 400, 400, 400), codes);
    }

    @Test
    void aResponseStalledPastTheReadTimeoutIsATimeoutAndDoesNotHang() throws Exception {
        factory.close();
        factory = open(200);
        for (int i = 0; i < 6; i++) {
            server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
        }
        RetryingSender s = retrying(FAST);
        long start = System.nanoTime();
        assertEquals(AttemptCodes.TIMEOUT, send(s));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(6, s.lastAttempts());
        assertEquals(List.of(-1, -1, -1, -1, -1, -1), codes);
        assertTrue(millis >= 6 * 200 && millis < 6 * 200 + 3_000, "six 200 ms timeouts took " + millis + " ms");
    }

    @Test
    void aStallThenA201IsOneSuccessAfterATimeout() {
        factory.close();
        factory = open(200);
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
        server.enqueue(new MockResponse().setResponseCode(201));
        RetryingSender s = retrying(FAST);
        assertEquals(201, send(s));
        assertEquals(List.of(AttemptCodes.TIMEOUT, 201), codes);
    }

    @Test
    void aConnectionClosedAtStartIsAConnectionErrorAndRetried() {
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AT_START));
        server.enqueue(new MockResponse().setResponseCode(201));
        RetryingSender s = retrying(FAST);
        assertEquals(201, send(s));
        assertEquals(List.of(AttemptCodes.CONNECTION_ERROR, 201), codes);
    }

    @Test
    void aPooledConnectionClosedAfterTheRequestIsRetriedVisiblyNotSilentlyByOkHttp() {
        // OkHttp resends a POST on a failed *pooled* connection by itself unless told not to:
        // the server would store a ride whose attempt the client never counted.
        server.enqueue(new MockResponse().setResponseCode(201));
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST));
        server.enqueue(new MockResponse().setResponseCode(201));
        RetryingSender s = retrying(FAST);
        assertEquals(201, send(s)); // leaves its connection in the pool
        assertEquals(201, send(s)); // reuses it; the server reads the POST and hangs up
        assertEquals(3, server.getRequestCount());
        assertEquals(List.of(201, AttemptCodes.CONNECTION_ERROR, 201), codes);
    }

    @Test
    void aRefusedConnectionIsAConnectionErrorAfterSixAttempts() throws Exception {
        int closedPort = FreePorts.next();
        try (RideSenderFactory f =
                Transport.SDK.open(new HttpSettings("http://127.0.0.1:" + closedPort + "/liftride", 500, 500, 1))) {
            RetryingSender s = new RetryingSender(f.create(), FAST, recorder, () -> false);
            assertEquals(AttemptCodes.CONNECTION_ERROR, send(s));
            assertEquals(6, s.lastAttempts());
        }
    }

    @Test
    void thePostCarriesThePathValuesAndAJsonRideInRange() throws Exception {
        server.enqueue(new MockResponse().setResponseCode(201));
        assertEquals(201, send(retrying(FAST)));
        RecordedRequest r = server.takeRequest(1, TimeUnit.SECONDS);
        assertNotNull(r);
        assertEquals("POST", r.getMethod());
        assertEquals("/liftride/skiers/3/seasons/2022/days/1/skiers/1234", r.getPath());
        assertTrue(r.getHeader("Content-Type").startsWith("application/json"), r.getHeader("Content-Type"));
        JsonObject body = JsonParser.parseString(r.getBody().readUtf8()).getAsJsonObject();
        assertEquals(17, body.get("liftID").getAsInt());
        assertEquals(200, body.get("time").getAsInt());
        assertEquals(5, body.get("waitTime").getAsInt());
        assertEquals(3, body.size());
    }

    @Test
    void backoffWaitsBetweenRetries() {
        server.enqueue(new MockResponse().setResponseCode(503));
        server.enqueue(new MockResponse().setResponseCode(503));
        server.enqueue(new MockResponse().setResponseCode(201));
        RetryingSender s = retrying(new RetryPolicy(6, 40, 1_000));
        long start = System.nanoTime();
        assertEquals(201, send(s));
        long millis = (System.nanoTime() - start) / 1_000_000;
        // retry 1 waits 20..40 ms, retry 2 waits 40..80 ms
        assertTrue(millis >= 60, "backoff too short: " + millis + " ms");
    }

    @Test
    void aStopDuringBackoffEndsTheRequestWithItsLastFailure() {
        for (int i = 0; i < 6; i++) {
            server.enqueue(new MockResponse().setResponseCode(503));
        }
        boolean[] stop = {false};
        RetryingSender s = new RetryingSender(
                factory.create(),
                new RetryPolicy(6, 10_000, 10_000),
                (a, b, c, code, n) -> stop[0] = true,
                () -> stop[0]);
        long start = System.nanoTime();
        assertEquals(503, send(s));
        assertEquals(1, s.lastAttempts());
        assertTrue(System.nanoTime() - start < 2_000_000_000L, "a stop must not wait out a 10 s backoff");
    }
}
