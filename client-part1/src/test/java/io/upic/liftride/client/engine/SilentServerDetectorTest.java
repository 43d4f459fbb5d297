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
    void attemptsFailingForTheGiveUpTimeAreGivenUpOnOnceAndOnlyThen() {
        AtomicInteger calls = new AtomicInteger();
        SilentServerDetector g = new SilentServerDetector(1_000, calls::incrementAndGet);
        assertFalse(g.onAttempt(false, AttemptCodes.CONNECTION_ERROR, 100 * MS)); // the failing starts here
        assertFalse(g.onAttempt(false, 503, 1_099 * MS));
        assertNull(g.reason());
        assertTrue(g.onAttempt(false, AttemptCodes.CONNECTION_ERROR, 1_100 * MS));
        assertTrue(g.onAttempt(false, AttemptCodes.TIMEOUT, 1_101 * MS));
        assertTrue(g.onAttempt(true, 201, 1_102 * MS), "a success after giving up does not undo it");
        assertEquals(1, calls.get());
        assertTrue(g.gaveUp());
        assertEquals(
                "gave up on the server: no success for 1.0 s while attempts kept failing (last: connection error);"
                        + " the requests not sent yet were not attempted",
                g.reason());
    }

    @Test
    void aServerAnsweringOnlyErrorsIsGivenUpOnLikeASilentOne() {
        SilentServerDetector g = new SilentServerDetector(1_000, null);
        assertFalse(g.onAttempt(false, 503, 0));
        assertFalse(g.onAttempt(false, 400, 999 * MS));
        assertTrue(g.onAttempt(false, 503, 1_000 * MS));
        assertTrue(g.reason().contains("(last: HTTP 503)"), g.reason());
    }

    @Test
    void aSuccessAnywhereRestartsTheCount() {
        SilentServerDetector g = new SilentServerDetector(1_000, null);
        assertFalse(g.onAttempt(false, 503, 0));
        assertFalse(g.onAttempt(true, 201, 900 * MS));
        assertFalse(g.onAttempt(false, AttemptCodes.TIMEOUT, 1_500 * MS)); // failing again from 1.5 s
        assertFalse(g.onAttempt(false, 503, 2_499 * MS));
        assertTrue(g.onAttempt(false, 503, 2_500 * MS));
    }

    @Test
    void aSenderWaitingToRetryDecidesWithoutAnotherAttempt() {
        SilentServerDetector g = new SilentServerDetector(1_000, null);
        assertFalse(g.onAttempt(false, 503, 0));
        assertFalse(g.stillFailing(503, 999 * MS));
        assertTrue(g.stillFailing(503, 1_000 * MS), "a Retry-After past the limit does not postpone it");
    }

    @Test
    void faultsOfTheClientItselfDoNotCount() {
        SilentServerDetector g = new SilentServerDetector(1_000, null);
        assertFalse(g.onAttempt(false, AttemptCodes.CLIENT_ERROR, 0));
        assertFalse(g.onAttempt(false, AttemptCodes.CLIENT_ERROR, 60_000 * MS));
        assertFalse(g.stillFailing(AttemptCodes.CLIENT_ERROR, 60_000 * MS));
        assertFalse(g.gaveUp());
    }

    @Test
    void zeroNeverGivesUp() {
        SilentServerDetector g = new SilentServerDetector(0, null);
        assertFalse(g.onAttempt(false, AttemptCodes.CONNECTION_ERROR, 0));
        assertFalse(g.onAttempt(false, 503, Long.MAX_VALUE / 2));
        assertFalse(g.stillFailing(503, Long.MAX_VALUE / 2));
        assertFalse(SilentServerDetector.never().onAttempt(false, AttemptCodes.TIMEOUT, 3_600_000 * MS));
    }

    @Test
    void aSenderThatGaveUpMakesNoFurtherAttemptForItsRequest() {
        FakeSenders dead = new FakeSenders(
                (i, skier) -> {
                    throw new ConnectException("Connection refused");
                },
                0);
        SilentServerDetector g = new SilentServerDetector(1, null);
        g.onAttempt(false, AttemptCodes.CONNECTION_ERROR, System.nanoTime() - 10 * MS); // failing for 10 ms already
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
                r.problems().get(0).matches("gave up on the server: no success for (0\\.[3-9]|[1-9]\\.[0-9]) s.*"),
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
    void anEngineWhoseServerAnswersOnly503WithALongRetryAfterGivesUpWithoutWaitingItOut() {
        // every answer asks for 10 s (the cap); the give-up comes 300 ms after the first failure, while waiting
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 40, 2); // 72 requests
        FakeSenders senders = new FakeSenders((i, skier) -> 503, MS, 99_999_999_000L);
        long start = System.nanoTime();
        RunResult r = LoadEngine.builder(plan, senders)
                .retryPolicy(new RetryPolicy(6, 1, 2, 300))
                .build()
                .run();
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertTrue(r.stopped());
        assertEquals(0, r.requests().successful());
        assertEquals(
                r.requests().planned(), r.requests().failed() + r.requests().notSent());
        assertTrue(r.requests().notSent() > 0, r.toString());
        assertEquals(Map.of(503, r.requests().failed()), r.failuresByCause());
        assertTrue(
                r.problems().get(0).contains("(last: HTTP 503)"), r.problems().toString());
        // bound: the 300 ms, a 20 ms wait slice and the 1 ms attempts in flight, on a busy machine
        assertTrue(millis < 2_000, "gave up after 300 ms of 503s, yet the run took " + millis + " ms");
    }

    @Test
    void anEngineWithoutAGiveUpLimitKeepsGoingAgainstErrors() {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 40, 2); // 72 requests, 432 attempts of 1 ms: well over 20 ms
        FakeSenders senders = new FakeSenders((i, skier) -> 503, MS);
        RunResult r = LoadEngine.builder(plan, senders)
                .retryPolicy(new RetryPolicy(6, 0, 0, 0))
                .build()
                .run();
        assertFalse(r.stopped());
        assertEquals(r.requests().planned(), r.requests().failed());
        assertEquals(Map.of(503, r.requests().planned()), r.failuresByCause());
        assertEquals(6 * r.requests().planned(), r.requests().attempts());
        assertTrue(r.problems().isEmpty(), r.problems().toString());
    }
}
