package io.upic.liftride.client.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PhasePlanTest {

    private static final List<PhasePlan> PLANS = List.of(PhasePlan.fall2021(), PhasePlan.spring2022());

    @ParameterizedTest(name = "-s {0}")
    @ValueSource(ints = {20_000, 1_000, 99_991, 100_000})
    void totalIsExactlyNinetyPercentOfRunsTimesSkiersAtEveryThreadCountWhenRunsIsTen(int skiers) {
        for (PhasePlan plan : PLANS) {
            for (int t = 1; t <= 1024; t++) {
                LoadPlan p = plan.forRun(t, skiers, 10);
                assertEquals(9L * skiers, p.totalRequests(), plan.name() + " -t " + t + " -s " + skiers);
            }
        }
    }

    @Test
    void standardRunPlansOneHundredEightyThousandRequestsAtTheAssignmentsThreadCounts() {
        for (int t : new int[] {32, 64, 128, 256}) {
            assertEquals(180_000, PhasePlan.fall2021().forRun(t, 20_000, 10).totalRequests(), "-t " + t);
            assertEquals(180_000, PhasePlan.spring2022().forRun(t, 20_000, 10).totalRequests(), "-t " + t);
        }
    }

    @ParameterizedTest(name = "-s {0}")
    @ValueSource(ints = {20_000, 1_000, 37, 3, 1})
    void everyPhasesRangesAreContiguousDisjointAndCoverAllSkiers(int skiers) {
        for (PhasePlan plan : PLANS) {
            for (int t = 1; t <= 1024; t++) {
                for (PlannedPhase phase : plan.forRun(t, skiers, 10).phases()) {
                    int next = 1;
                    int min = Integer.MAX_VALUE, max = 0;
                    for (ThreadAssignment w : phase.assignments()) {
                        assertEquals(
                                next,
                                w.skierFrom(),
                                plan.name() + " -t " + t + " " + phase.name() + " thread " + w.threadIndex());
                        assertTrue(w.skierTo() >= w.skierFrom());
                        next = w.skierTo() + 1;
                        min = Math.min(min, w.skiers());
                        max = Math.max(max, w.skiers());
                    }
                    assertEquals(
                            skiers + 1,
                            next,
                            "ranges must end at numSkiers: " + plan.name() + " -t " + t + " " + phase.name());
                    assertTrue(max - min <= 1, "remainder spread one per thread, got sizes " + min + ".." + max);
                }
            }
        }
    }

    @Test
    void workIndexesAndTimeWindowsFollowThePhase() {
        LoadPlan p = PhasePlan.fall2021().forRun(32, 20_000, 10);
        int[][] windows = {{1, 90}, {91, 360}, {361, 420}};
        for (PlannedPhase phase : p.phases()) {
            for (int i = 0; i < phase.threads(); i++) {
                ThreadAssignment w = phase.assignments().get(i);
                assertEquals(phase.index(), w.phaseIndex());
                assertEquals(i, w.threadIndex());
                assertEquals(phase.name(), w.phaseName());
                assertEquals(windows[phase.index()][0], w.startMinute());
                assertEquals(windows[phase.index()][1], w.endMinute());
            }
        }
    }

    @ParameterizedTest(name = "{0} -t {1}: threads {2}/{3}/{4}, triggers {5}/{6}")
    @CsvSource({
        "fall2021,     1,   1,    1,   1,  1,  1",
        "fall2021,     3,   1,    3,   1,  1,  1",
        "fall2021,     5,   2,    5,   2,  1,  1",
        "fall2021,    32,   8,   32,   8,  1,  4",
        "fall2021,    64,  16,   64,  16,  2,  7",
        "fall2021,   120,  30,  120,  30,  3, 12",
        "fall2021,   256,  64,  256,  64,  7, 26",
        "fall2021,  1024, 256, 1024, 256, 26, 103",
        "spring2022,  32,   8,   32,   4,  2,  7",
        "spring2022,  64,  16,   64,   7,  4, 13",
        "spring2022, 256,  64,  256,  26, 13, 52",
    })
    void phaseThreadsRoundUpAndTriggersAreTheCeilingOfTheFractionOfThePreviousPhase(
            String plan, int t, int p1, int p2, int p3, int trigger2, int trigger3) {
        LoadPlan p = PhasePlan.named(plan).forRun(t, 20_000, 10);
        assertEquals(
                List.of(p1, p2, p3),
                p.phases().stream().map(PlannedPhase::threads).toList());
        assertEquals(
                List.of(0, trigger2, trigger3),
                p.phases().stream().map(PlannedPhase::startAfter).toList());
    }

    @Test
    void ceilingIsTakenOfTheExactDecimalProductNotOfTheDoubleProduct() {
        // In doubles 0.07 * 100 = 7.000000000000001 and 0.28 * 25 = 7.000000000000001: a naive
        // Math.ceil would wait for 8 threads. The built-in fractions happen to be exact up to 1024,
        // but plans are data, so the arithmetic must not depend on that.
        assertEquals(7, PhasePlan.ceilTimes(0.07, 100));
        assertEquals(7, PhasePlan.ceilTimes(0.28, 25));
        assertEquals(7, PhasePlan.ceilTimes(0.14, 50));
        assertEquals(4, PhasePlan.ceilTimes(0.1, 32));
        Phase first = new Phase("a", 1.0, 1.0, 1, 2, 0);
        Phase second = new Phase("b", 1.0, 1.0, 3, 4, 0.07);
        assertEquals(
                7,
                new PhasePlan("t", List.of(first, second))
                        .forRun(100, 1_000, 1)
                        .phases()
                        .get(1)
                        .startAfter());
    }

    @Test
    void assignmentExampleSixtyFourThreadsTenTwentyFourSkiersTwentyRuns() {
        LoadPlan p = PhasePlan.fall2021().forRun(64, 1024, 20);
        PlannedPhase startup = p.phases().get(0);
        assertEquals(16, startup.threads());
        assertEquals(1, startup.assignments().get(0).skierFrom());
        assertEquals(64, startup.assignments().get(0).skierTo());
        assertEquals(65, startup.assignments().get(1).skierFrom());
        assertEquals(128, startup.assignments().get(1).skierTo());
        assertEquals(
                4 * (1024 / 16), startup.assignments().get(0).requests()); // "(numRunsx0.2)x(numSkiers/(numThreads/4))"
        PlannedPhase peak = p.phases().get(1);
        assertEquals(64, peak.threads());
        assertEquals(12 * (1024 / 64), peak.assignments().get(0).requests()); // "each sends 12*(1024/64) POSTs"
        assertEquals(2 * (1024 / 16), p.phases().get(2).assignments().get(0).requests());
    }

    @Test
    void requestsPerThreadRoundHalfUpAndNeverZero() {
        assertEquals(1, PhasePlan.requestsFor(0.1, 5, 1)); // 0.5 -> 1
        assertEquals(2, PhasePlan.requestsFor(0.1, 3, 5)); // 1.5 -> 2
        assertEquals(1, PhasePlan.requestsFor(0.1, 3, 4)); // 1.2 -> 1
        assertEquals(1, PhasePlan.requestsFor(0.2, 1, 2)); // 0.4 -> 0, raised to 1
        assertEquals(2, PhasePlan.requestsFor(0.6, 1, 4)); // 2.4 -> 2
    }

    @ParameterizedTest(name = "-t {0} -s {1} -m {2}")
    @CsvSource({"1,1,1", "1,1,10", "3,1,1", "3,2,1", "1,20000,1", "3,20000,1", "1024,1,1", "1024,5,20", "2,3,1"})
    void smallInputsRunEveryPhaseWithAtLeastOneThreadAndOneRequestEach(int t, int s, int m) {
        for (PhasePlan plan : PLANS) {
            LoadPlan p = plan.forRun(t, s, m);
            assertEquals(3, p.phases().size());
            for (PlannedPhase phase : p.phases()) {
                assertTrue(phase.threads() >= 1, phase.name());
                assertTrue(phase.threads() <= s, "no more threads than skiers: " + phase.name());
                phase.assignments()
                        .forEach(w -> assertTrue(w.requests() >= 1, phase.name() + " thread " + w.threadIndex()));
            }
        }
    }

    @Test
    void minimalRunSendsTheRoundedCountsPerPhase() {
        LoadPlan p = PhasePlan.fall2021().forRun(1, 1, 1);
        assertEquals(
                List.of(1L, 1L, 1L),
                p.phases().stream().map(PlannedPhase::requests).toList());
        LoadPlan q = PhasePlan.fall2021().forRun(1, 20_000, 1);
        assertEquals(
                List.of(4_000L, 12_000L, 2_000L),
                q.phases().stream().map(PlannedPhase::requests).toList());
    }

    @Test
    void moreThreadsThanSkiersGivesEachThreadOneSkier() {
        LoadPlan p = PhasePlan.fall2021().forRun(1024, 20, 10);
        assertEquals(
                List.of(20, 20, 20),
                p.phases().stream().map(PlannedPhase::threads).toList());
        assertEquals(180, p.totalRequests());
    }

    @Test
    void peakPhaseIsTheOneWithMostThreads() {
        assertEquals(
                "peak", PhasePlan.fall2021().forRun(32, 20_000, 10).peakPhase().name());
        assertEquals(48, PhasePlan.fall2021().forRun(32, 20_000, 10).totalThreads());
    }

    @Test
    void unknownPlanNameListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PhasePlan.named("winter"));
        assertEquals("unknown plan winter, expected one of fall2021, spring2022", e.getMessage());
        assertEquals("spring2022", PhasePlan.named(" Spring2022 ").name());
    }
}
