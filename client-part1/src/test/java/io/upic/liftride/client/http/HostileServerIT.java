package io.upic.liftride.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.engine.RetryingSender;
import io.upic.liftride.client.transport.Transport;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Both transports against a broken or hostile server (scripted with MockWebServer on 127.0.0.1): a
 * body trickled forever ends at the call deadline, a huge error body is not read into memory, a
 * 503's Retry-After is waited out, and a status outside 100..599 is a failed attempt, retried.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileServerIT {

    private static final int READ_TIMEOUT_MILLIS = 2_000;
    private static final int CALL_TIMEOUT_MILLIS = 700;
    private static final int TEN_MIB = 10 * 1024 * 1024;

    private MockWebServer server;
    private final List<Integer> codes = new ArrayList<>();
    private final List<Long> latencyNanos = new ArrayList<>();
    private final AttemptRecorder recorder = (startEpochMillis, startNanos, latency, code, attemptNumber) -> {
        codes.add(code);
        latencyNanos.add(latency);
    };

    @BeforeEach
    void startServer() throws Exception {
        server = new MockWebServer();
        server.start();
    }

    @AfterEach
    void stopServer() throws Exception {
        server.shutdown();
    }

    private RideSenderFactory open(Transport transport) {
        return transport.open(new HttpSettings(
                server.url("/liftride").toString(), 2_000, READ_TIMEOUT_MILLIS, 2, CALL_TIMEOUT_MILLIS));
    }

    private static int send(RetryingSender s) {
        return s.send(3, 2022, 1, 1234, 17, 200, 5);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aBodyTrickledForeverEndsAtTheCallDeadlineAndIsRetried(Transport transport) throws Exception {
        // 60,000 bytes (short enough that both transports read it rather than drop the connection) at
        // one byte every 100 ms: each read is well within the 2 s read timeout, the body takes 100 minutes
        AtomicInteger requests = new AtomicInteger();
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                // a Dispatcher's peek() stays the default, so the throttle slows only this answer, not the
                // reading of requests (a queued throttled answer would slow both)
                return requests.incrementAndGet() > 1
                        ? new MockResponse().setResponseCode(201)
                        : new MockResponse()
                                .setResponseCode(503)
                                .setBody(new Buffer().write(new byte[60_000]))
                                .throttleBody(1, 100, TimeUnit.MILLISECONDS);
            }
        });
        try (RideSenderFactory f = open(transport)) {
            RetryingSender s = new RetryingSender(f.create(), new RetryPolicy(6, 0, 0), recorder, () -> false);
            assertEquals(201, send(s), () -> codes + " " + latencyNanos + " requests " + server.getRequestCount());
        }
        assertEquals(2, codes.size(), "the trickled attempt failed and was retried: " + codes);
        assertTrue(codes.get(0) == 503 || codes.get(0) == AttemptCodes.TIMEOUT, "first attempt: " + codes);
        long millis = TimeUnit.NANOSECONDS.toMillis(latencyNanos.get(0));
        assertTrue(
                millis >= CALL_TIMEOUT_MILLIS - 50 && millis < 10_000,
                "the trickled attempt ended after " + millis + " ms, its deadline is " + CALL_TIMEOUT_MILLIS + " ms");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aServerSilentPastTheCallDeadlineEndsTheAttemptAsATimeoutBeforeTheReadTimeout(Transport transport)
            throws Exception {
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
        server.enqueue(new MockResponse().setResponseCode(201));
        try (RideSenderFactory f = open(transport)) {
            RetryingSender s = new RetryingSender(f.create(), new RetryPolicy(6, 0, 0), recorder, () -> false);
            assertEquals(201, send(s));
        }
        assertEquals(List.of(AttemptCodes.TIMEOUT, 201), codes);
        long millis = TimeUnit.NANOSECONDS.toMillis(latencyNanos.get(0));
        assertTrue(
                millis >= CALL_TIMEOUT_MILLIS - 50 && millis < READ_TIMEOUT_MILLIS,
                "the silent attempt ended after " + millis + " ms: deadline " + CALL_TIMEOUT_MILLIS
                        + " ms, read timeout " + READ_TIMEOUT_MILLIS + " ms");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aTenMebibyteErrorBodyIsNotReadIntoMemory(Transport transport) throws Exception {
        server.enqueue(new MockResponse().setResponseCode(201));
        server.enqueue(new MockResponse().setResponseCode(500).setBody(new Buffer().write(new byte[TEN_MIB])));
        try (RideSenderFactory f = open(transport);
                RideSender s = f.create()) {
            assertEquals(201, s.send(3, 2022, 1, 1, 1, 1, 1, "warm-up")); // class loading and buffers first
            long before = allocatedBytes();
            assertEquals(500, s.send(3, 2022, 1, 2, 1, 1, 1, "ride-2"));
            long allocated = allocatedBytes() - before;
            assertTrue(allocated < TEN_MIB / 4, "reading a 10 MiB error body allocated " + allocated + " bytes");
        }
    }

    @ParameterizedTest(name = "{0}: HTTP/1.1 {1}")
    @CsvSource({"SDK, 999", "RAW, 999", "SDK, 600", "RAW, 600", "SDK, 000", "RAW, 000", "SDK, 099", "RAW, 099"})
    void aStatusOutside100To599IsAnInvalidStatusAttemptThatIsRetried(Transport transport, String status)
            throws Exception {
        server.enqueue(new MockResponse().setStatus("HTTP/1.1 " + status + " \u001b[2J\u001b[HReconciliation: OK"));
        server.enqueue(new MockResponse().setResponseCode(201));
        try (RideSenderFactory f = open(transport)) {
            RetryingSender s = new RetryingSender(f.create(), new RetryPolicy(6, 0, 0), recorder, () -> false);
            assertEquals(201, send(s));
            assertNull(s.firstClientError(), "no exception escaped the transport");
        }
        assertEquals(List.of(AttemptCodes.INVALID_STATUS, 201), codes);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void a503WithRetryAfterOneSecondIsRetriedNoSoonerThanThat(Transport transport) throws Exception {
        server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "1"));
        server.enqueue(new MockResponse().setResponseCode(201));
        try (RideSenderFactory f = open(transport)) {
            RetryingSender s = new RetryingSender(f.create(), new RetryPolicy(6, 0, 0), recorder, () -> false);
            long start = System.nanoTime();
            assertEquals(201, send(s));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis >= 1_000, "retried after " + millis + " ms");
        }
        assertEquals(List.of(503, 201), codes);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void a503WithRetryAfterAnHttpDateIsRetriedNoSoonerThanThatDate(Transport transport) throws Exception {
        // HTTP-dates have whole seconds: two seconds past the next whole second is 2..3 s away
        long at = (System.currentTimeMillis() / 1_000 + 3) * 1_000;
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                Instant.ofEpochMilli(at).atOffset(ZoneOffset.UTC));
        server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", date));
        server.enqueue(new MockResponse().setResponseCode(201));
        try (RideSenderFactory f = open(transport)) {
            RetryingSender s = new RetryingSender(f.create(), new RetryPolicy(6, 0, 0), recorder, () -> false);
            assertEquals(201, send(s));
            long early = at - System.currentTimeMillis();
            assertTrue(early <= 0, "retried " + early + " ms before " + date);
        }
        assertEquals(List.of(503, 201), codes);
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
