package io.upic.liftride.client.report;

import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.Phase;
import io.upic.liftride.client.plan.PhasePlan;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LittlesLawTest {

    private static final double MS = 1_000_000;

    @Test
    void peakThroughputIsThreadsOverMeanLatency() {
        assertEquals(16_000, LittlesLaw.peakThroughput(32, 2 * MS), 1e-9);
        assertEquals(1_000, LittlesLaw.peakThroughput(1, 1 * MS), 1e-9);
        assertEquals("meanLatencyNanos <= 0: 0.0",
                assertThrows(IllegalArgumentException.class, () -> LittlesLaw.peakThroughput(1, 0)).getMessage());
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
        assertEquals(List.of(0.0, 5e9, 8.75e9), p.phaseStartNanos());
        assertEquals(List.of(5e9, 8.75e9, 11.25e9), p.phaseEndNanos());
        assertEquals(11.25e9, p.wallNanos(), 1);
        assertEquals(16_000, p.throughputPerSecond(), 1e-6);
        assertEquals(32, p.peakThreads());
        assertEquals(32_000, p.peakThroughputPerSecond(), 1e-6);
    }

    @Test
    void unevenRangesMakeTheTriggerTheKthFinisherNotTheLast() {
        // -t 12 -s 10: startup 3 threads with 4, 3, 3 skiers (8, 6, 6 requests); peak starts when the
        // first (10% of 3, rounded up = 1) finishes, i.e. after 6 requests, not 8.
        Prediction p = LittlesLaw.predict(PhasePlan.fall2021().forRun(12, 10, 10), MS);
        assertEquals(6 * MS, p.phaseStartNanos().get(1), 1e-3);
        assertEquals(8 * MS, p.phaseEndNanos().get(0), 1e-3);
    }

    @Test
    void differenceIsRelativeToThePrediction() {
        assertEquals(-50.0, LittlesLaw.differencePercent(50, 100), 1e-12);
        assertEquals(25.0, LittlesLaw.differencePercent(125, 100), 1e-12);
    }
}
