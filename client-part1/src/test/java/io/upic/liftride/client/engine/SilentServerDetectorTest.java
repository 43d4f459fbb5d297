package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PhasePlan;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The run-level give-up on a silent server: the rule itself, and what the engine does with it. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SilentServerDetectorTest {

    private static final long MS = 1_000_000L;

    @Test
    void aServerSilentForTheGiveUpTimeIsGivenUpOnOnceAndOnlyThen() {
        AtomicInteger calls = new AtomicInteger();
        SilentServerDetector g = new SilentServerDetector(1_000, 0, calls::incrementAndGet);
        assertFalse(g.onAttempt(AttemptCodes.CONNECTION_ERROR, 999 * MS));
        assertNull(g.reason());
        assertTrue(g.onAttempt(AttemptCodes.CONNECTION_ERROR, 1_000 * MS));
        assertTrue(g.onAttempt(AttemptCodes.TIMEOUT, 1_001 * MS));
        assertTrue(g.onAttempt(201, 1_002 * MS), "an answer after giving up does not undo it");
        assertEquals(1, calls.get());
        assertTrue(g.gaveUp());
        assertTrue(
                g.reason()
                        .startsWith(
                                "gave up on the server: no HTTP answer for 1.0 s while attempts kept failing (last: connection error)"),
                g.reason());
    }

    @Test
    void anyHttpAnswerEvenA503OrA400ResetsTheSilence() {
        SilentServerDetector g = new SilentServerDetector(1_000, 0, null);
        assertFalse(g.onAttempt(503, 900 * MS));
        assertFalse(g.onAttempt(AttemptCodes.CONNECTION_ERROR, 1_899 * MS));
        assertFalse(g.onAttempt(400, 1_500 * MS)); // an answer older than the latest one leaves it alone
        assertTrue(g.onAttempt(AttemptCodes.TIMEOUT, 2_500 * MS));
    }

    @Test
    void onlyTimeoutsAndConnectionErrorsAreSilenceNotClientErrors() {
        SilentServerDetector g = new SilentServerDetector(1_000, 0, null);
        assertFalse(g.onAttempt(AttemptCodes.CLIENT_ERROR, 60_000 * MS));
        assertFalse(g.gaveUp());
    }

    @Test
    void zeroNeverGivesUp() {
        SilentServerDetector g = new SilentServerDetector(0, 0, null);
        assertFalse(g.onAttempt(AttemptCodes.CONNECTION_ERROR, Long.MAX_VALUE / 2));
        assertFalse(SilentServerDetector.never().onAttempt(AttemptCodes.TIMEOUT, System.nanoTime() + 3_600_000 * MS));
    }

    @Test
    void theSilenceCountsFromTheRunsStartNotFromTheSetUp() {
        SilentServerDetector g = new SilentServerDetector(1_000, 0, null);
        g.startAt(5_000 * MS);
        assertFalse(g.onAttempt(AttemptCodes.CONNECTION_ERROR, 5_999 * MS));
        assertTrue(g.onAttempt(AttemptCodes.CONNECTION_ERROR, 6_000 * MS));
    }

    @Test
    void aSenderThatGaveUpMakesNoFurtherAttemptForItsRequest() {
        FakeSenders dead = new FakeSenders(
                (i, skier) -> {
                    throw new ConnectException("Connection refused");
                },
                0);
        SilentServerDetector g =
                new SilentServerDetector(1, System.nanoTime() - 10 * MS, null); // silent for 10 ms already
        RetryingSender s = new RetryingSender(
                dead.create(),
                new RetryPolicy(6, 0, 0, 1),
                AttemptRecorder.NONE,
                () -> false,
                g,
                new RideKeys("r", "0"));
        assertEquals(AttemptCodes.CONNECTION_ERROR, s.send(1, 2022, 1, 1, 1, 1, 1));
        assertEquals(1, s.lastAttempts());
        assertTrue(s.gaveUp());
    }

    @Test
    void anEngineWhoseServerDiesStopsAfterTheSilenceAndCountsTheRestAsNotSent() {
        // 18,000 requests; after the first 500 answers the server is gone. Without the give-up every
        // remaining request would spend 6 attempts and its backoff: about 20 s at 8 threads here.
        LoadPlan plan = PhasePlan.fall2021().forRun(8, 2_000, 10);
        FakeSenders senders = new FakeSenders(
                (i, skier) -> {
                    if (i < 500) {
                        return 201;
                    }
                    throw new ConnectException("Connection refused");
                },
                0);
        long start = System.nanoTime();
        RunResult r = LoadEngine.builder(plan, senders)
                .retryPolicy(new RetryPolicy(6, 1, 2, 300))
                .build()
                .run();
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertTrue(r.stopped());
        assertEquals(500, r.requests().successful());
        assertTrue(r.requests().failed() > 0 && r.requests().notSent() > 0, r.toString());
        assertEquals(
                r.requests().planned(),
                r.requests().successful() + r.requests().failed() + r.requests().notSent());
        assertEquals(Map.of(AttemptCodes.CONNECTION_ERROR, r.requests().failed()), r.failuresByCause());
        // measured silence: at least the 0.3 s limit, more on a busy machine
        assertTrue(
                r.problems().get(0).matches("gave up on the server: no HTTP answer for (0\\.[3-9]|[1-9]\\.[0-9]) s.*"),
                r.problems().toString());
        assertFalse(r.allSucceeded());
        assertTrue(millis < 3_000, "gave up after 300 ms of silence, yet the run took " + millis + " ms");
    }

    @Test
    void anEngineWhoseServerOnlyTimesOutGivesUpToo() {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 400, 10);
        FakeSenders senders = new FakeSenders(
                (i, skier) -> {
                    throw new SocketTimeoutException("Read timed out");
                },
                5 * MS);
        RunResult r = LoadEngine.builder(plan, senders)
                .retryPolicy(new RetryPolicy(6, 1, 2, 200))
                .build()
                .run();
        assertTrue(r.stopped());
        assertEquals(0, r.requests().successful());
        assertEquals(Map.of(AttemptCodes.TIMEOUT, r.requests().failed()), r.failuresByCause());
        assertTrue(r.requests().notSent() > 0);
    }

    @Test
    void aServerAnsweringOnlyErrorsIsNeverGivenUpOn() {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 40, 2); // 72 requests, 432 attempts of 1 ms: well over 20 ms
        FakeSenders senders = new FakeSenders((i, skier) -> 503, MS);
        RunResult r = LoadEngine.builder(plan, senders)
                .retryPolicy(new RetryPolicy(6, 0, 0, 20))
                .build()
                .run();
        assertFalse(r.stopped());
        assertEquals(r.requests().planned(), r.requests().failed());
        assertEquals(Map.of(503, r.requests().planned()), r.failuresByCause());
        assertEquals(6 * r.requests().planned(), r.requests().attempts());
        assertTrue(r.problems().isEmpty(), r.problems().toString());
    }
}
