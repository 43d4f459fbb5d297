package io.upic.liftride.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.engine.Baseline;
import io.upic.liftride.client.engine.CalibrationStore;
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
        CpuDemand demand = new CpuDemand(COLD, null);
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
    void twoRunsStoreTheLastRunsDAndTheFirstRunsExtraCpuAndOneRunStoresNothing() {
        CpuDemand demand = new CpuDemand(COLD, null);
        demand.learn("-t 32", 100_000, 20_000_000_000L, 4_000_000_000L);
        assertTrue(demand.toStore(WHEN).isEmpty(), "one run: its D still holds the JIT's warm-up");
        demand.learn("-t 64", 100_000, 15_000_000_000L, 1_000_000_000L);
        CalibrationStore.Entry e = demand.toStore(WHEN).orElseThrow();
        assertEquals(150_000, e.demandNanos(), 1e-9);
        assertEquals(50_000 * 100_000.0, e.firstRunExtraCpuNanos(), 1e-3); // 50 us more on each of 100,000
        assertEquals(WHEN, e.measuredAt());
    }

    @Test
    void aStoredDGivesTheFirstRunItsExtraCpuSpreadOverItsRequestsAtMostTheColdBaselineAndLaterRunsTheStoredD() {
        CalibrationStore.Entry stored = new CalibrationStore.Entry(150_000, 5e9, WHEN);
        CpuDemand demand = new CpuDemand(COLD, stored);
        assertEquals(150_000 + 5e9 / 100_000, demand.nanosFor(100_000), 1e-9);
        assertEquals(200_000, demand.nanosFor(1_000), 1e-9, "a short run: at most the cold baseline's D");
        assertEquals("stored 2026-11-27T10:00Z, cold JVM", demand.source());
        demand.learn("-t 32", 100_000, 20_000_000_000L, 4_000_000_000L);
        assertEquals(150_000, demand.nanosFor(100_000), 1e-9);
        assertEquals("stored 2026-11-27T10:00Z", demand.source());
    }

    @Test
    void theNetworkTakesZAsWLessDNeverBelowZeroAndNeedsAKnownD() {
        CpuDemand demand = new CpuDemand(COLD, null);
        Prediction.Network n = demand.network(1_000, 1_000_000, 2, CpuScope.EMBEDDED_SERVER);
        assertEquals(200_000, n.cpuNanosPerRequest(), 1e-9);
        assertEquals(800_000, n.delayNanos(), 1e-9);
        assertEquals(2, n.cores());
        assertEquals(
                0, demand.network(1_000, 150_000, 2, CpuScope.EMBEDDED_SERVER).delayNanos());
        assertNull(new CpuDemand(Fixtures.baseline().build(), null)
                .network(1_000, 1_000_000, 2, CpuScope.EMBEDDED_SERVER));
        demand.learn("-t 8", 1_000, -1, 0);
        assertEquals("the baseline's, cold: rough", demand.source(), "an unknown CPU teaches nothing");
    }
}
