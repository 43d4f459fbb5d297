package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.AttemptCodes;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole client runs (flags -> pre-flight -> three phases -> reconciliation) against scripted servers
 * that misbehave in one way each. Every run must end by itself within its bound, account for every
 * planned request, count each failure by its cause, and exit non-zero when a request failed.
 *
 * <p>Faults are keyed on the ride's content where a request must fail for good (all six attempts
 * carry the same ride), and on "first time this ride is seen" for faults a retry must get through,
 * so the expected counts follow from what the server saw whatever the thread scheduling.
 */
// A hang is a failure, not a stuck build.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClientUnderFaultsIT {

    /** fall2021 at -t 8 -s 80 -m 5: 2 + 8 + 2 threads, 80 + 240 + 40 = 360 requests. */
    private static final long PLANNED = 360;

    private MockWebServer mock;
    private ScriptedSocketServer raw;

    @AfterEach
    void closeServers() throws Exception {
        if (mock != null) {
            mock.shutdown();
        }
        if (raw != null) {
            raw.close();
        }
    }

    /** The transport under test: every fault must be counted the same through the SDK and the raw sender. */
    private String transport = "sdk";

    private String[] args(String baseUrl, String... more) {
        String[] base = {
            "-t", "8", "-s", "80", "-m", "5", "--seed", "42", "--baseline", "0", "-i", baseUrl, "--transport", transport
        };
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    private static int liftId(String rideJson) {
        return JsonParser.parseString(rideJson).getAsJsonObject().get("liftID").getAsInt();
    }

    /** About 1 ride in 220: lift 1 with a wait of at most 1 minute. */
    private static boolean stalledForGood(String rideJson) {
        return liftId(rideJson) == 1
                && JsonParser.parseString(rideJson)
                                .getAsJsonObject()
                                .get("waitTime")
                                .getAsInt()
                        <= 1;
    }

    /** POSTs whose Idempotency-Key had been answered 201 before: each a retry after that answer came too late. */
    private final AtomicInteger replays = new AtomicInteger();

    /**
     * A MockWebServer that answers GET /statistics with the rides it has stored, and every POST with {@code
     * posts.apply(path + " " + body)}, except that, as our server does, a POST whose Idempotency-Key was answered 201
     * before is answered 201 again without being stored twice or shown to {@code posts}.
     */
    private MockWebServer scriptedMock(AtomicLong stored, Function<String, MockResponse> posts) throws Exception {
        Set<String> storedKeys = ConcurrentHashMap.newKeySet();
        mock = new MockWebServer();
        mock.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (request.getMethod().equals("GET") && request.getPath().endsWith("/statistics")) {
                    return new MockResponse()
                            .setResponseCode(200)
                            .setHeader("Content-Type", "application/json")
                            .setBody("{\"endpointStats\":[],\"ridesStored\":" + stored.get() + "}");
                }
                String key = request.getHeader("Idempotency-Key");
                if (storedKeys.contains(key)) {
                    replays.incrementAndGet();
                    return new MockResponse().setResponseCode(201);
                }
                MockResponse r =
                        posts.apply(request.getPath() + " " + request.getBody().readUtf8());
                if (r.getStatus().startsWith("HTTP/1.1 201")
                        && r.getSocketPolicy() == SocketPolicy.KEEP_OPEN
                        && storedKeys.add(key)) {
                    stored.incrementAndGet();
                }
                return r;
            }
        });
        mock.start();
        return mock;
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"sdk", "raw"})
    void fourHundredsAreRetriedFiveTimesThenCountedAsFailedWithTheirStatus(String transport) throws Exception {
        this.transport = transport;
        AtomicLong stored = new AtomicLong();
        AtomicInteger posts = new AtomicInteger();
        AtomicInteger rejected = new AtomicInteger();
        scriptedMock(stored, ride -> {
            posts.incrementAndGet();
            if (liftId(ride.substring(ride.indexOf(' ') + 1)) == 1) { // every attempt of such a ride: 400
                rejected.incrementAndGet();
                return new MockResponse().setResponseCode(400).setBody("{\"message\":\"scripted 400\"}");
            }
            return new MockResponse().setResponseCode(201);
        });
        // bound: ~9 rejected rides, each 6 fast attempts and at most 310 ms of backoff, spread over 8 threads
        ClientRun run = assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> ClientRun.of(args(mock.url("/liftride").toString())));

        RunResult r = run.result();
        assertTrue(rejected.get() > 0, "seed 42 draws lift 1 at least once");
        assertEquals(0, rejected.get() % 6, "each rejected ride got exactly 6 attempts: " + rejected.get());
        long failed = rejected.get() / 6;
        run.assertAccountedFor(Map.of(400, failed));
        assertEquals(PLANNED - failed, r.requests().successful());
        assertEquals(0, r.requests().notSent());
        assertEquals(posts.get(), r.requests().attempts(), "every attempt reached the server, none hidden");
        assertEquals(5 * failed, r.requests().retries());
        assertEquals(1, run.exit());
        assertTrue(run.reports().get(0).reconciliation().serverChecked());
        assertEquals(
                r.requests().successful(), run.reports().get(0).reconciliation().serverDelta());
        assertTrue(run.out().contains("failures by cause: HTTP 400: " + failed), run.output());
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"sdk", "raw"})
    void fiveOhThreeBurstsAreRetriedThroughAndOnlyRequestsThatNeverGotIn_FailAs503(String transport) throws Exception {
        this.transport = transport;
        AtomicLong stored = new AtomicLong();
        AtomicInteger posts = new AtomicInteger();
        AtomicInteger busy = new AtomicInteger();
        // two bursts of 80 consecutive POSTs answered 503: with at most 12 threads running, some thread
        // makes 7+ attempts inside a burst, so its request at that time uses all 6 and fails; requests caught
        // at a burst's end get in on a retry
        scriptedMock(stored, ride -> {
            int n = posts.incrementAndGet();
            if ((n > 50 && n <= 130) || (n > 250 && n <= 330)) {
                busy.incrementAndGet();
                return new MockResponse().setResponseCode(503).setBody("{\"message\":\"scripted 503\"}");
            }
            return new MockResponse().setResponseCode(201);
        });
        ClientRun run = assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> ClientRun.of(args(mock.url("/liftride").toString())));

        RunResult r = run.result();
        run.assertAccountedFor(Map.of(503, r.requests().failed()));
        assertTrue(r.requests().failed() > 0, "a burst of 80 outlasts some request's 6 attempts");
        assertEquals(0, r.requests().notSent());
        assertEquals(posts.get(), r.requests().attempts());
        assertEquals(160, busy.get());
        assertEquals(r.requests().successful(), stored.get(), "every 201 the server sent is one success");
        assertEquals(
                r.requests().attempts() - r.requests().planned(), r.requests().retries());
        assertTrue(
                r.requests().retries() > 5 * r.requests().failed(),
                "some requests got in on a retry: " + r.requests().retries() + " retries, "
                        + r.requests().failed() + " failed");
        assertEquals(1, run.exit());
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"sdk", "raw"})
    void responsesStalledPastTheReadTimeoutAreRetriedAndCountedAsTimeouts(String transport) throws Exception {
        this.transport = transport;
        AtomicLong stored = new AtomicLong();
        AtomicInteger posts = new AtomicInteger();
        AtomicInteger stalledForGood = new AtomicInteger();
        AtomicInteger stalledOnce = new AtomicInteger();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        scriptedMock(stored, ride -> {
            posts.incrementAndGet();
            if (stalledForGood(ride.substring(ride.indexOf(' ') + 1))) {
                stalledForGood.incrementAndGet();
                return new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE);
            }
            if (seen.add(ride) && Math.floorMod(ride.hashCode(), 30) == 0) { // first sight of ~1 in 30 rides
                stalledOnce.incrementAndGet();
                return new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE);
            }
            return new MockResponse().setResponseCode(201);
        });
        // bound: a ride stalled for good costs 6 x 300 ms + at most 310 ms backoff, one stalled once 300 ms + 10 ms;
        // the rest is slack for a cold JVM on a machine busy with other builds
        ClientRun run = assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> ClientRun.of(args(mock.url("/liftride").toString(), "--read-timeout-ms", "300")));

        RunResult r = run.result();
        assertTrue(
                stalledForGood.get() > 0 && stalledOnce.get() > 0,
                "seed 42 draws both: " + stalledForGood + " / " + stalledOnce);
        assertEquals(0, stalledForGood.get() % 6, "each stalled ride got exactly 6 attempts");
        long failed = stalledForGood.get() / 6;
        run.assertAccountedFor(Map.of(AttemptCodes.TIMEOUT, failed));
        assertEquals(PLANNED - failed, r.requests().successful());
        assertEquals(stored.get(), r.requests().successful());
        assertEquals(posts.get() + replays.get(), r.requests().attempts());
        // a 201 a busy machine delivers after 300 ms is a timeout too: its retry, under the same key, is a replay
        assertTrue(replays.get() < PLANNED / 10, "answers too late for 300 ms: " + replays);
        assertEquals(
                5 * failed + stalledOnce.get() + replays.get(),
                r.requests().retries(),
                "a ride stalled once is one retry, a ride answered 201 none");
        assertTrue(run.out().contains("failures by cause: timeout: " + failed), run.output());
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"sdk", "raw"})
    void connectionsResetWithSoLingerZeroAreRetriedAndCountedAsConnectionErrors(String transport) throws Exception {
        this.transport = transport;
        Set<String> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger resetForGood = new AtomicInteger();
        AtomicInteger droppedOnce = new AtomicInteger();
        raw = ScriptedSocketServer.start((n, path, body) -> {
            if (liftId(body) == 1) {
                resetForGood.incrementAndGet();
                return ScriptedSocketServer.Action.RESET;
            }
            String ride = path + " " + body;
            if (seen.add(ride)) { // first sight: reset ~1 in 7 rides, close another ~1 in 7 without an answer
                int k = Math.floorMod(ride.hashCode(), 7);
                if (k == 0 || k == 1) {
                    droppedOnce.incrementAndGet();
                    return k == 0 ? ScriptedSocketServer.Action.RESET : ScriptedSocketServer.Action.CLOSE;
                }
            }
            return ScriptedSocketServer.Action.CREATED;
        });
        ClientRun run = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> ClientRun.of(args(raw.baseUrl())));

        RunResult r = run.result();
        assertTrue(resetForGood.get() > 0 && droppedOnce.get() > 0, resetForGood + " / " + droppedOnce);
        assertEquals(0, resetForGood.get() % 6, "each reset ride got exactly 6 attempts");
        long failed = resetForGood.get() / 6;
        run.assertAccountedFor(Map.of(AttemptCodes.CONNECTION_ERROR, failed));
        assertEquals(PLANNED - failed, r.requests().successful());
        assertEquals(raw.stored.get(), r.requests().successful());
        assertEquals(raw.posts.get(), r.requests().attempts());
        assertEquals(5 * failed + droppedOnce.get(), r.requests().retries());
        assertEquals(
                r.requests().successful(), run.reports().get(0).reconciliation().serverDelta());
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"sdk", "raw"})
    void connectionsRefusedMidRunFailEveryRemainingRequestAsAConnectionError(String transport) throws Exception {
        this.transport = transport;
        AtomicReference<ScriptedSocketServer> server = new AtomicReference<>();
        raw = ScriptedSocketServer.start((n, path, body) -> {
            if (n <= 100) {
                return ScriptedSocketServer.Action.CREATED;
            }
            server.get().stopListening(); // the listening socket and every connection go away: refused from now on
            return ScriptedSocketServer.Action.CLOSE;
        });
        server.set(raw);
        ClientRun run = assertTimeoutPreemptively(
                Duration.ofSeconds(20),
                () -> ClientRun.of(
                        args(raw.baseUrl(), "--backoff-ms", "1", "--backoff-max-ms", "4", "--give-up-after-ms", "0")));

        RunResult r = run.result();
        assertEquals(100, r.requests().successful());
        run.assertAccountedFor(Map.of(AttemptCodes.CONNECTION_ERROR, PLANNED - 100));
        assertEquals(0, r.requests().notSent());
        assertEquals(1, run.exit());
        assertTrue(
                run.out().contains("server ridesStored: not checked (after the run: ConnectException"), run.output());
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"sdk", "raw"})
    void aServerGoneForGoodIsGivenUpOnAfterTheSilenceAndTheRestIsReportedNotSent(String transport) throws Exception {
        this.transport = transport;
        AtomicReference<ScriptedSocketServer> server = new AtomicReference<>();
        AtomicLong stoppedAt = new AtomicLong();
        raw = ScriptedSocketServer.start((n, path, body) -> {
            if (n <= 100) {
                return ScriptedSocketServer.Action.CREATED;
            }
            if (stoppedAt.get() == 0) {
                stoppedAt.compareAndSet(0, System.nanoTime());
            }
            server.get().stopListening();
            return ScriptedSocketServer.Action.CLOSE;
        });
        server.set(raw);
        // default backoff (each remaining request would take 155-310 ms to fail), give up after 500 ms of silence
        ClientRun run = assertTimeoutPreemptively(
                Duration.ofSeconds(10), () -> ClientRun.of(args(raw.baseUrl(), "--give-up-after-ms", "500")));
        long afterStopMillis = System.nanoTime() / 1_000_000 - stoppedAt.get() / 1_000_000;

        RunResult r = run.result();
        assertEquals(100, r.requests().successful());
        run.assertAccountedFor(
                Map.of(AttemptCodes.CONNECTION_ERROR, r.requests().failed()));
        assertTrue(r.requests().failed() > 0 && r.requests().notSent() > 0, run.output());
        assertTrue(r.stopped());
        assertEquals(1, run.exit());
        // bound: 500 ms of silence, then the attempt in flight (refused at once) and a refused reconciliation GET
        assertTrue(afterStopMillis < 500 + 2_000, "ended " + afterStopMillis + " ms after the server went away");
        assertTrue(run.out().contains("STOPPED before the end: partial account"), run.output());
        // the silence is reported as measured: at least the 0.5 s limit, more on a busy machine
        assertTrue(
                run.out()
                        .matches(
                                "(?s).*PROBLEM: gave up on the server: no success for (0\\.[5-9]|[1-9]\\.[0-9]) s while attempts kept failing.*"),
                run.output());
    }

    /** -t 4 -s 4 -m 10 (8 + 24 + 4 = 36 requests) against a server answering every POST 503, Retry-After 99999999 s. */
    private ClientRun runAgainstRetryAfterForEver(String... more) throws Exception {
        scriptedMock(
                new AtomicLong(),
                ride -> new MockResponse()
                        .setResponseCode(503)
                        .setHeader("Retry-After", "99999999")
                        .setBody("{\"message\":\"scripted 503\"}"));
        String[] base = {"-t", "4", "-s", "4", "-m", "10", "--baseline", "0", "--transport", transport, "-i"};
        String[] all = new String[base.length + 1 + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        all[base.length] = mock.url("/liftride").toString();
        System.arraycopy(more, 0, all, base.length + 1, more.length);
        return assertTimeoutPreemptively(Duration.ofSeconds(30), () -> ClientRun.of(all));
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"sdk", "raw"})
    void aServerAnsweringOnlyErrorsIsGivenUpOnWithoutWaitingOutItsRetryAfter(String transport) throws Exception {
        this.transport = transport;
        // each retry would wait the 10 s Retry-After cap: 50 s per request, past the 20 s --max-duration
        ClientRun run = runAgainstRetryAfterForEver("--give-up-after-ms", "1000", "--max-duration", "20s");

        RunResult r = run.result();
        assertEquals(36, r.requests().planned());
        run.assertAccountedFor(Map.of(503, r.requests().failed()));
        assertEquals(0, r.requests().successful());
        assertTrue(r.stopped() && r.requests().notSent() > 0, run.output());
        assertEquals(1, run.exit(), run.output());
        // bound: the 1 s limit, a 20 ms wait slice, the attempts in flight and the reconciliation GET on loopback;
        // far below the 10 s a Retry-After wait takes
        assertTrue(run.millis() >= 1_000 && run.millis() < 1_000 + 2_000, run.millis() + " ms\n" + run.output());
        assertEquals(
                1,
                run.out()
                        .lines()
                        .filter(
                                l -> l.matches(
                                        "  PROBLEM: gave up on the server: no success for 1\\.\\d s while attempts"
                                                + " kept failing \\(last: HTTP 503\\); the requests not sent yet were not attempted"))
                        .count(),
                run.output());
    }

    @Test
    void aServerAnsweringOnlyErrorsIsKeptGoingAgainstWithoutAGiveUpLimit() throws Exception {
        ClientRun run = runAgainstRetryAfterForEver("--give-up-after-ms", "0", "--max-duration", "3s");

        RunResult r = run.result();
        run.assertAccountedFor(Map.of(503, r.requests().failed()));
        assertEquals(ExitCodes.DEADLINE, run.exit(), run.output());
        assertTrue(run.millis() >= 3_000, run.millis() + " ms: it went on until --max-duration");
        assertTrue(r.problems().get(0).startsWith("--max-duration 3.0s passed"), run.output());
        assertTrue(r.problems().stream().noneMatch(p -> p.contains("gave up")), run.output());
    }

    /** A raw server that answers {@code answered} POSTs with 201 and then goes away for good. */
    private ScriptedSocketServer serverGoneAfter(int answered) throws Exception {
        AtomicReference<ScriptedSocketServer> server = new AtomicReference<>();
        raw = ScriptedSocketServer.start((n, path, body) -> {
            if (n <= answered) {
                return ScriptedSocketServer.Action.CREATED;
            }
            server.get().stopListening();
            return ScriptedSocketServer.Action.CLOSE;
        });
        server.set(raw);
        return raw;
    }

    @Test
    void aServerGoneDuringASweepEndsTheSweepWithTheRunThatGaveUp() throws Exception {
        serverGoneAfter(100);
        // without the check every further run of the sweep would wait out the same silence
        ClientRun run = assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> ClientRun.of(
                        "-t",
                        "8,16,32",
                        "-s",
                        "80",
                        "-m",
                        "5",
                        "--baseline",
                        "0",
                        "--give-up-after-ms",
                        "300",
                        "-i",
                        raw.baseUrl()));
        assertEquals(1, run.exit());
        assertEquals(1, run.reports().size(), run.output());
        RunResult r = run.result();
        assertTrue(r.stopped() && r.requests().notSent() > 0, run.output());
        run.assertAccountedFor(
                Map.of(AttemptCodes.CONNECTION_ERROR, r.requests().failed()));
        assertTrue(run.out().contains("Stopped: 1 of 3 runs done"), run.output());
    }

    @Test
    void aServerGoneDuringTheBaselineEndsTheClientBeforeAnyRun() throws Exception {
        serverGoneAfter(100);
        // 500 warm-up + 500 measured requests; without the give-up the 900 after the server went away would take
        // 155-310 ms each: minutes
        ClientRun run = assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> ClientRun.of(
                        "-t",
                        "8",
                        "-s",
                        "80",
                        "-m",
                        "5",
                        "--baseline",
                        "500",
                        "--give-up-after-ms",
                        "300",
                        "--verbose",
                        "-i",
                        raw.baseUrl()));
        assertEquals(1, run.exit());
        assertEquals(0, run.reports().size(), run.output());
        assertTrue(run.out().contains("(stopped early)"), run.output());
        // the silence is reported as measured: at least the 0.3 s limit, more on a busy machine
        assertTrue(
                run.err()
                        .matches(
                                "(?s)baseline: gave up on the server: no success for 0\\.[3-9] s while attempts kept failing.*"),
                run.output());
        assertTrue(run.err().strip().endsWith("no run started"), run.output());
        assertTrue(run.millis() < 5_000, run.millis() + " ms");
    }
}
