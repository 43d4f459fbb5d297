package io.upic.liftride.client.prediction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.Phase;
import io.upic.liftride.client.plan.PhasePlan;
import java.util.List;
import org.junit.jupiter.api.Test;

class LittlesLawTest {

    private static final double MS = 1_000_000;

    /** One phase of {@code threads} threads, one skier and 10 requests each. */
    private static LoadPlan onePhase(int threads) {
        return new PhasePlan("one", List.of(new Phase("only", 1.0, 1.0, 1, 420, 0))).forRun(threads, threads, 10);
    }

    @Test
    void peakThroughputIsThreadsOverMeanLatency() {
        assertEquals(16_000, LittlesLaw.predict(onePhase(32), 2 * MS).peakThroughputPerSecond(), 1e-9);
        assertEquals(1_000, LittlesLaw.predict(onePhase(1), 1 * MS).peakThroughputPerSecond(), 1e-9);
        assertEquals(
                "meanLatencyNanos <= 0: 0.0",
                assertThrows(IllegalArgumentException.class, () -> LittlesLaw.predict(onePhase(1), 0))
                        .getMessage());
    }

    @Test
    void singlePhaseWallTimeIsRequestsPerThreadTimesLatency() {
        LoadPlan plan = new PhasePlan("one", List.of(new Phase("only", 1.0, 1.0, 1, 420, 0))).forRun(4, 400, 10);
        Prediction p = LittlesLaw.predict(plan, 0.5 * MS); // each thread: 100 skiers x 10 = 1,000 requests
        assertEquals(0.5e9, p.wallNanos(), 1);
        assertEquals(8_000, p.throughputPerSecond(), 1e-6);
        assertEquals(8_000, p.peakThroughputPerSecond(), 1e-6);
    }

    @Test
    void standardRunFollowsThePhaseSchedule() {
        // -t 32 -s 20000, W = 1 ms: startup 8 threads x 5,000 requests end at 5 s (the first to finish
        // triggers peak at 5 s); peak 32 threads x 3,750 end at 8.75 s (4 of them trigger cooldown);
        // cooldown 8 threads x 2,500 end at 11.25 s.
        Prediction p = LittlesLaw.predict(PhasePlan.fall2021().forRun(32, 20_000, 10), MS);
        assertEquals(11.25e9, p.wallNanos(), 1);
        assertEquals(16_000, p.throughputPerSecond(), 1e-6);
        assertEquals(32, p.peakThreads());
        assertEquals(32_000, p.peakThroughputPerSecond(), 1e-6);
    }

    @Test
    void unevenRangesMakeTheTriggerTheKthFinisherNotTheLast() {
        // -t 12 -s 10: startup 3 threads with 4, 3, 3 skiers (8, 6, 6 requests); peak starts when the
        // first (10% of 3, rounded up = 1) finishes, i.e. after 6 requests, not 8; its 10 threads of 6 requests
        // end at 12 ms and trigger cooldown, 3 threads of 4, 3, 3 skiers (4, 3, 3 requests): done at 16 ms.
        Prediction p = LittlesLaw.predict(PhasePlan.fall2021().forRun(12, 10, 10), MS);
        assertEquals(16 * MS, p.wallNanos(), 1e-3);
    }

    /** The model with demand D, delay Z and C cores, W = D + Z. */
    private static Prediction mva(LoadPlan plan, double d, double z, int cores) {
        return LittlesLaw.mva(plan, d + z, new Prediction.Network(cores, d, z, CpuScope.EMBEDDED_SERVER, "test"));
    }

    @Test
    void aBaselineGivesTheNaivePredictionOnlyWhenItMeasuredW() {
        LoadPlan plan = PhasePlan.fall2021().forRun(32, 20_000, 10);
        assertNull(LittlesLaw.predict(plan, (Baseline.Result) null), "--baseline 0");
        assertNull(LittlesLaw.predict(plan, Fixtures.baseline().successful(0).build()), "no successful request");
        Prediction naive = LittlesLaw.predict(plan, Fixtures.baseline().build());
        assertNull(naive.network());
        assertEquals(Prediction.NAIVE, naive.model());
        assertEquals(MS, naive.peakResponseNanos(), 1e-9); // R = W
        assertEquals(11.25e9, naive.wallNanos(), 1);
        // D = 1 ms = W, so Z = 0
        Prediction m = LittlesLaw.mva(plan, MS, new Prediction.Network(2, MS, 0, CpuScope.REMOTE_SERVER, "test"));
        assertEquals(Prediction.MVA, m.model());
        assertEquals(CpuScope.REMOTE_SERVER, m.network().scope());
        assertEquals(90e9, m.wallNanos(), 1e3); // always saturated: 180,000 x D / C
    }

    @Test
    void differenceIsRelativeToThePrediction() {
        assertEquals(-50.0, LittlesLaw.differencePercent(50, 100), 1e-12);
        assertEquals(25.0, LittlesLaw.differencePercent(125, 100), 1e-12);
    }

    // ---- the closed-network model: X(n) by MVA, a thread's cycle n / X(n) ----

    @Test
    void theModelsPeakIsTheNetworksThroughputAndLittlesLawHolds() {
        // D = 100 us, Z = 900 us, C = 2: between N / W and C / D, and X(N) x R(N) = N
        for (int n : new int[] {1, 7, 20, 64, 256}) {
            Prediction p = mva(onePhase(n), 0.1 * MS, 0.9 * MS, 2);
            double x = new Prediction.Network(2, 0.1 * MS, 0.9 * MS, CpuScope.EMBEDDED_SERVER, "test")
                    .throughputPerSecond(n);
            assertEquals(x, p.peakThroughputPerSecond(), 1e-9 * x);
            assertEquals(n, p.peakThroughputPerSecond() * p.peakResponseNanos() / 1e9, 1e-9);
            assertEquals(true, x <= Math.min(n * 1e9 / MS, 20_000) * (1 + 1e-12), "n=" + n);
            assertEquals(20, p.saturationThreads(), 1e-9); // C (D + Z) / D
        }
        assertEquals(1_000, mva(onePhase(1), 0.1 * MS, 0.9 * MS, 2).peakThroughputPerSecond(), 1e-9); // 1 / W
        assertEquals(20_000, mva(onePhase(256), 0.1 * MS, 0.9 * MS, 2).peakThroughputPerSecond(), 1e-6); // C / D
    }

    @Test
    void overlappingPhasesShareTheCpuAtTheirCombinedThreadCount() {
        // Two phases of 2 threads; -s 3 -m 2 gives each phase threads of 4 and 2 requests; B starts when
        // 1 of A's 2 threads is done. D = 1 ms, Z = 0, C = 2: the cycle n / X(n) is 1 ms for 1 or 2 busy, 1.5 ms
        // for 3.
        //   0-2 ms:  A1, A2 busy (1 ms); A2 done after 2 requests at 2 ms; B starts.
        //   2-5 ms:  A1, B1, B2 busy (1.5 ms); 2 more requests each: A1 and B2 done at 5 ms.
        //   5-7 ms:  B1 alone (1 ms) sends its last 2: done at 7 ms.
        LoadPlan plan = twoOverlappingPhases();
        Prediction b = mva(plan, MS, 0, 2);
        assertEquals(7 * MS, b.wallNanos(), 1e-3);
        assertEquals(12 / 0.007, b.throughputPerSecond(), 1e-6);
        // the naive schedule of the same plan: A ends at 4 ms, B runs 2-6 ms
        assertEquals(6 * MS, LittlesLaw.predict(plan, MS).wallNanos(), 1e-3);

        // C = 1: n ms per request. 0-4 ms: 2 busy, A2 done at 4 ms, B starts; 4-10 ms: 3 busy, A1 and B2
        // done at 10 ms; 10-12 ms: B1 alone. Saturated all the way: 12 requests x D / C = 12 ms.
        Prediction one = mva(plan, MS, 0, 1);
        assertEquals(12 * MS, one.wallNanos(), 1e-3);
        assertEquals(1_000, one.throughputPerSecond(), 1e-6); // = C / D
    }

    @Test
    void aRunThatAlwaysSaturatesTheCpuTakesTotalCpuOverCores() {
        // D = 1 ms, Z = 0, C = 2: every phase keeps at least 8 threads busy, so the run takes 180,000 x 1 ms / 2
        Prediction b = mva(PhasePlan.fall2021().forRun(32, 20_000, 10), MS, 0, 2);
        assertEquals(90e9, b.wallNanos(), 1e3);
        assertEquals(2_000, b.throughputPerSecond(), 1e-6);
    }

    @Test
    void whenTheDelayDominatesTheModelIsTheNaivePrediction() {
        for (LoadPlan plan : List.of(
                PhasePlan.fall2021().forRun(32, 20_000, 10),
                PhasePlan.fall2021().forRun(12, 10, 10),
                PhasePlan.spring2022().forRun(256, 20_000, 10),
                twoOverlappingPhases())) {
            Prediction naive = LittlesLaw.predict(plan, MS);
            Prediction b = mva(plan, 1, MS - 1, 2); // D = 1 ns: N* far above any thread count
            assertEquals(naive.wallNanos(), b.wallNanos(), 1e-3 * MS, plan.toString());
        }
    }

    @Test
    void theSimulationStartsAPhaseWithATriggerOfZeroTogetherWithThePreviousOne() {
        // B (trigger 0 threads) starts with A at 0: both end after 3 requests of W = 1 ms, not A's 3 ms and B's 3 ms
        LoadPlan plan = new PhasePlan(
                        "together", List.of(new Phase("a", 1.0, 1.0, 1, 210, 0), new Phase("b", 1.0, 1.0, 211, 420, 0)))
                .forRun(2, 2, 3); // 2 threads x 3 requests per phase
        assertEquals(3 * MS, LittlesLaw.predict(plan, MS).wallNanos(), 1e-3);
    }

    /** Phases a and b of 2 threads each with 4 and 2 requests; b starts after 1 of a's threads. */
    private static LoadPlan twoOverlappingPhases() {
        LoadPlan plan = new PhasePlan(
                        "overlap",
                        List.of(new Phase("a", 1.0, 1.0, 1, 210, 0), new Phase("b", 1.0, 1.0, 211, 420, 0.5)))
                .forRun(2, 3, 2);
        assertEquals(
                List.of(4, 2),
                plan.phases().get(0).assignments().stream()
                        .map(w -> w.requests())
                        .toList());
        assertEquals(
                List.of(4, 2),
                plan.phases().get(1).assignments().stream()
                        .map(w -> w.requests())
                        .toList());
        assertEquals(1, plan.phases().get(1).startAfter());
        return plan;
    }
}
