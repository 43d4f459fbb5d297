package io.upic.liftride.client.prediction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CpuDemandTest {
    private static final Instant WHEN = Instant.parse("2026-11-27T10:00:30Z");

    /** W = 1 ms; 10,000 measured requests on 3 s of CPU, 2 s of it outside the JIT compiler: a cold D of 200 us. */
    private static final Baseline.Result COLD = Fixtures.baseline()
            .cpuNanos(3_000_000_000L)
            .cpuLessJitNanos(2_000_000_000L)
            .build();

    @Test
    void withNothingStoredTheFirstRunTakesTheColdBaselineAndEachLaterRunThePreviousRunLessItsJit() {
        CpuDemand demand = new CpuDemand(COLD, null, null);
        assertEquals(200_000, demand.nanosFor(180_000), 1e-9);
        assertEquals("the baseline's, cold: rough", demand.source());
        demand.learn("-t 32", 100_000, 20_000_000_000L, 4_000_000_000L); // 200 us, 40 of them compiling
        assertEquals(160_000, demand.nanosFor(180_000), 1e-9);
        assertEquals("measured in run -t 32 on a warming JVM", demand.source());
        demand.learn("-t 64", 100_000, 15_000_000_000L, 1_000_000_000L);
        assertEquals(140_000, demand.nanosFor(180_000), 1e-9);
        assertEquals("measured in run -t 64", demand.source());
    }

    @Test
    void withNeitherAWarmUpNorAStoredEntryNothingIsStored() {
        CpuDemand demand = new CpuDemand(COLD, null, null);
        demand.learn("-t 32", 100_000, 20_000_000_000L, 4_000_000_000L);
        demand.learn("-t 64", 100_000, 15_000_000_000L, 1_000_000_000L);
        assertTrue(demand.toStore(WHEN).isEmpty(), "runs on a JVM warmed by nothing settled");
    }

    @Test
    void afterAWarmUpTheFirstRunTakesItsDAndACompleteOneStoresItsExtraCpuAfterOneRun() {
        WarmUp.Result settled = new WarmUp.Result(10, 90_000, 20_000_000_000L, 160_000, 2e10, true);
        CpuDemand demand = new CpuDemand(COLD, null, settled);
        assertEquals(160_000, demand.nanosFor(180_000), 1e-9);
        assertEquals("measured in the warm-up", demand.source());
        assertTrue(demand.toStore(WHEN).isEmpty(), "no run yet");
        demand.learn("-t 32", 100_000, 15_000_000_000L, 500_000_000L);
        assertEquals("measured in run -t 32", demand.source(), "a settled JIT: no longer warming");
        CalibrationStore.Entry e = demand.toStore(WHEN).orElseThrow();
        assertEquals(150_000, e.demandNanos(), 1e-9);
        assertEquals(2e10, e.coldExtraCpuNanos(), 1e-3);

        WarmUp.Result cut = new WarmUp.Result(2, 900, 500_000_000L, 300_000, 1e8, false);
        CpuDemand after = new CpuDemand(COLD, null, cut);
        after.learn("-t 8", 1_800, 500_000_000L, 100_000_000L);
        assertEquals("measured in run -t 8 on a warming JVM", after.source());
        after.learn("-t 16", 1_800, 400_000_000L, 0);
        assertTrue(after.toStore(WHEN).isEmpty(), "a warm-up cut short stores nothing");
    }

    @Test
    void anInvocationThatReusedAnEntryRefreshesItWithItsLastRunsDAndItsColdFirstRunsExtraCpu() {
        CpuDemand demand = new CpuDemand(COLD, new CalibrationStore.Entry(150_000, 5e9, WHEN), null);
        demand.learn("-t 32", 100_000, 20_000_000_000L, 4_000_000_000L);
        assertTrue(demand.toStore(WHEN).isEmpty(), "one run: its D still holds the JIT's warm-up");
        demand.learn("-t 64", 100_000, 15_000_000_000L, 1_000_000_000L);
        Instant later = WHEN.plusSeconds(3_600);
        CalibrationStore.Entry e = demand.toStore(later).orElseThrow();
        assertEquals(150_000, e.demandNanos(), 1e-9);
        assertEquals(50_000 * 100_000.0, e.coldExtraCpuNanos(), 1e-3); // 50 us more on each of 100,000
        assertEquals(later, e.measuredAt());
    }

    @Test
    void aStoredDGivesTheFirstRunItsExtraCpuSpreadOverItsRequestsAtMostTheColdBaselineAndLaterRunsTheStoredD() {
        CalibrationStore.Entry stored = new CalibrationStore.Entry(150_000, 5e9, WHEN);
        CpuDemand demand = new CpuDemand(COLD, stored, null);
        assertEquals(150_000 + 5e9 / 100_000, demand.nanosFor(100_000), 1e-9);
        assertEquals(200_000, demand.nanosFor(1_000), 1e-9, "a short run: at most the cold baseline's D");
        assertEquals("stored 2026-11-27T10:00Z, cold JVM", demand.source());
        demand.learn("-t 32", 100_000, 20_000_000_000L, 4_000_000_000L);
        assertEquals(150_000, demand.nanosFor(100_000), 1e-9);
        assertEquals("stored 2026-11-27T10:00Z", demand.source());
    }

    @Test
    void theNetworkTakesZAsWLessDNeverBelowZeroAndNeedsAKnownD() {
        CpuDemand demand = new CpuDemand(COLD, null, null);
        Prediction.Network n = demand.network(1_000, 1_000_000, 2, CpuScope.EMBEDDED_SERVER);
        assertEquals(200_000, n.cpuNanosPerRequest(), 1e-9);
        assertEquals(800_000, n.delayNanos(), 1e-9);
        assertEquals(2, n.cores());
        assertEquals(
                0, demand.network(1_000, 150_000, 2, CpuScope.EMBEDDED_SERVER).delayNanos());
        assertNull(new CpuDemand(Fixtures.baseline().build(), null, null)
                .network(1_000, 1_000_000, 2, CpuScope.EMBEDDED_SERVER));
        demand.learn("-t 8", 1_000, -1, 0);
        assertEquals("the baseline's, cold: rough", demand.source(), "an unknown CPU teaches nothing");
    }
}
