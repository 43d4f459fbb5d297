package io.upic.liftride.client.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RampTest {

    @Test
    void theIssuesExampleHoldsEachStagesIntegralOfTheRate() {
        Ramp r = Ramp.parse("500,5000:60s,5000:120s,0:30s");
        assertEquals(List.of(165_000L, 600_000L, 75_000L), List.of(r.requests(0), r.requests(1), r.requests(2)));
        assertEquals(840_000, r.totalRequests());
        assertEquals(210_000_000_000L, r.durationNanos());
        assertEquals(2_750.0, r.offeredPerSecond(0), 1e-9);
        assertEquals(5_000.0, r.ratePerSecondAt(60_000_000_000L), 1e-9);
        assertEquals(2_500.0, r.ratePerSecondAt(195_000_000_000L), 1e-9);
    }

    @Test
    void aRequestBelongsToTheStageWhereTheIntegralReachesItsIndexExactly() {
        // integral 1.5 after 3 s: requests 0 and 1; then 2.0 after 4 s: none; request 2 at 2.0, the third's start
        Ramp r = Ramp.parse("0.5,0.5:3s,0.5:1s,0.5:1s");
        assertEquals(List.of(2L, 0L, 1L), List.of(r.requests(0), r.requests(1), r.requests(2)));
        assertEquals(0, r.dueNanos(0, 0));
        assertEquals(2_000_000_000L, r.dueNanos(0, 1));
        assertEquals(4_000_000_000L, r.dueNanos(2, 0));
    }

    @Test
    void aLinearRampInvertsItsIntegralExactlyWithoutDrift() {
        // 0 to 100 req/s over 10 s: the integral is 5 t^2, so request k is due at sqrt(k / 5) s
        Ramp r = Ramp.parse("0,100:10s");
        assertEquals(500, r.requests(0));
        for (int k = 0; k < 500; k++) {
            long expected = Math.round(Math.sqrt(k / 5.0) * 1e9);
            assertEquals(expected, r.dueNanos(0, k), 2, "request " + k);
        }
        // and down again: 100 to 0 over 10 s, the integral is 100 t - 5 t^2
        Ramp down = Ramp.parse("100,0:10s");
        for (int k = 0; k < 500; k++) {
            long expected = Math.round((10 - Math.sqrt(100 - k / 5.0)) * 1e9);
            assertEquals(expected, down.dueNanos(0, k), 2, "request " + k);
        }
    }

    @Test
    void aConstantStageSpacesItsRequestsAsTheConstantRateDoes() {
        Ramp r = Ramp.parse("200,200:1s");
        for (int j = 0; j < 200; j++) {
            assertEquals(j * 5_000_000L, r.dueNanos(0, j));
        }
    }

    @Test
    void sendTimesRiseMonotonicallyAndStayInsideTheirStage() {
        Ramp r = Ramp.parse("3,700:2.5s,700:1s,0:1.5s,0:500ms,250:2s");
        long previous = -1;
        for (int s = 0; s < r.stages().size(); s++) {
            for (long j = 0; j < r.requests(s); j++) {
                long t = r.dueNanos(s, j);
                assertTrue(t > previous, "stage " + s + " request " + j + ": " + t + " after " + previous);
                assertTrue(t >= r.startNanos(s) && t < r.endNanos(s), "stage " + s + " request " + j + ": " + t);
                previous = t;
            }
        }
    }

    @Test
    void aStageAtRateZeroHoldsNoRequestAndTheNextStartsOnTime() {
        Ramp r = Ramp.parse("100,0:1s,0:2s,100:1s");
        assertEquals(List.of(50L, 0L, 50L), List.of(r.requests(0), r.requests(1), r.requests(2)));
        assertEquals(3_000_000_000L, r.dueNanos(2, 0));
        assertEquals(0, r.offeredPerSecond(1));
        LoadPlan plan = r.forRun(4, 100, 10);
        assertEquals(0, plan.phases().get(1).requests());
    }

    @Test
    void thePlanHasAPhasePerStageDealingItsRequestsRoundRobin() {
        Ramp r = Ramp.parse("10,30:2s,30:1s");
        LoadPlan plan = r.forRun(8, 5, 10); // 5 skiers: 5 threads per stage
        assertEquals(Ramp.PLAN_NAME, plan.planName());
        assertEquals(
                List.of("stage1", "stage2"),
                plan.phases().stream().map(PlannedPhase::name).toList());
        assertEquals(r.totalRequests(), plan.totalRequests());
        for (PlannedPhase p : plan.phases()) {
            assertEquals(5, p.threads());
            assertEquals(p.index() == 0 ? 0 : 5, p.startAfter(), "each stage starts once the last one's threads end");
            assertEquals(r.requests(p.index()), p.requests());
            int most = p.assignments().stream()
                    .mapToInt(ThreadAssignment::requests)
                    .max()
                    .orElseThrow();
            int least = p.assignments().stream()
                    .mapToInt(ThreadAssignment::requests)
                    .min()
                    .orElseThrow();
            assertTrue(most - least <= 1, p.toString());
            assertEquals(1, p.assignments().get(0).skierFrom());
        }
        assertEquals(8, plan.phases().get(0).assignments().get(0).requests()); // 40 requests: 8 each
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "500 | a start rate and 1..100 TARGET:DURATION",
                "500,5000 | stage 1 is not TARGET:DURATION: 5000",
                "500,5000:0s | stage 1 duration not in 1ms..24h: 0s",
                "500,5000:25h | stage 1 duration not in 1ms..24h: 25h",
                "500,5000:60 | stage 1 duration is not a number and a unit: 60",
                "-1,5:1s | rate not in 0..1000000: -1.0",
                "500,2000000:1s | rate not in 0..1000000: 2000000.0",
                "fast,5:1s | rate is not a number: fast",
                "0,0:10s | every rate is 0, so the ramp sends nothing",
            })
    void aBadRampIsRejectedNamingThePartAndTheRule(String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ramp.parse(text));
        assertEquals(message, e.getMessage());
    }
}
