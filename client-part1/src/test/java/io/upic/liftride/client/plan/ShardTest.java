package io.upic.liftride.client.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ShardTest {

    private static final List<PhasePlan> PLANS = List.of(PhasePlan.fall2021(), PhasePlan.spring2022());

    @ParameterizedTest(name = "-s {0}")
    @ValueSource(ints = {20_000, 37})
    void shardsOfEveryThreadCountTogetherAreExactlyTheUnshardedPlanAndDisjoint(int skiers) {
        for (PhasePlan plan : PLANS) {
            for (int t = 1; t <= 1024; t++) {
                LoadPlan whole = plan.forRun(t, skiers, 10);
                for (int n : new int[] {2, 3, 4, 7, 64}) {
                    if (n <= whole.totalThreads()) {
                        assertUnionIsThePlan(whole, n, plan.name() + " -t " + t + " -s " + skiers + " N " + n);
                    }
                }
            }
        }
    }

    @Test
    void everyShardCountUpToTheThreadsOfThePlanSplitsSmallPlansExactly() {
        for (PhasePlan plan : PLANS) {
            for (int t = 1; t <= 64; t++) {
                for (int skiers : new int[] {1, 3, 20_000}) {
                    LoadPlan whole = plan.forRun(t, skiers, 7);
                    for (int n = 1; n <= whole.totalThreads(); n++) {
                        assertUnionIsThePlan(whole, n, plan.name() + " -t " + t + " -s " + skiers + " N " + n);
                    }
                }
            }
        }
    }

    @Test
    void everyShardCountSplitsARampsStagesExactly() {
        Ramp ramp = Ramp.parse("100,300:1s,300:500ms,0:1s");
        for (int t = 1; t <= 12; t++) {
            LoadPlan whole = ramp.forRun(t, 40, 10);
            for (int n = 2; n <= whole.totalThreads(); n++) {
                assertUnionIsThePlan(whole, n, "--ramp -t " + t + " N " + n);
            }
        }
    }

    @Test
    void largestShardCountSplitsTheLargestPlan() {
        LoadPlan whole = PhasePlan.fall2021().forRun(1024, 100_000, 20);
        assertUnionIsThePlan(whole, Shard.MAX_COUNT, "-t 1024 N 1024");
    }

    @Test
    void threadsAreDealtAcrossPhasesSoSmallPhasesLandOnDifferentShards() {
        // -t 4: startup 1 thread (ordinal 0), peak 4 (ordinals 1-4), cooldown 1 (ordinal 5)
        LoadPlan whole = PhasePlan.fall2021().forRun(4, 20_000, 10);
        assertEquals(List.of(1, 1, 0), threadsPerPhase(new Shard(1, 4).of(whole)));
        assertEquals(List.of(0, 1, 1), threadsPerPhase(new Shard(2, 4).of(whole)));
        assertEquals(List.of(0, 1, 0), threadsPerPhase(new Shard(3, 4).of(whole)));
        assertEquals(List.of(0, 1, 0), threadsPerPhase(new Shard(4, 4).of(whole)));
        // shard 2's peak thread is the plan's peak thread 0 with its own range and count
        ThreadAssignment a =
                new Shard(2, 4).of(whole).phases().get(1).assignments().get(0);
        assertEquals(whole.phases().get(1).assignments().get(0), a);
    }

    @Test
    void triggersCountOnlyTheShardsOwnThreadsOfThePreviousPhase() {
        LoadPlan whole = PhasePlan.fall2021().forRun(64, 20_000, 10); // 16 + 64 + 16 threads, triggers 10%
        LoadPlan shard = new Shard(1, 4).of(whole);
        assertEquals(List.of(4, 16, 4), threadsPerPhase(shard));
        assertEquals(0, shard.phases().get(0).startAfter());
        assertEquals(1, shard.phases().get(1).startAfter()); // ceil(0.1 x 4), where the whole plan waits for 2 of 16
        assertEquals(2, shard.phases().get(2).startAfter()); // ceil(0.1 x 16), where the whole plan waits for 7 of 64
        assertEquals(2, whole.phases().get(1).startAfter());
        assertEquals(7, whole.phases().get(2).startAfter());
        // a shard with no thread in the previous phase starts the next at once
        LoadPlan small = new Shard(3, 4).of(PhasePlan.fall2021().forRun(4, 20_000, 10));
        assertEquals(0, small.phases().get(1).startAfter());
    }

    @Test
    void wholeShardIsThePlanItself() {
        LoadPlan whole = PhasePlan.fall2021().forRun(32, 100, 10);
        assertSame(whole, Shard.WHOLE.of(whole));
        assertTrue(Shard.WHOLE.whole());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"1/1,1,1", "2/4,2,4", " 3/3 ,3,3", "1024/1024,1024,1024", "007/8,7,8"})
    void parsesKOfN(String text, int k, int n) {
        assertEquals(new Shard(k, n), Shard.parse(text));
        assertEquals(k + "/" + n, Shard.parse(text).toString());
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(
            strings = {
                "",
                "2",
                "/4",
                "2/",
                "0/4",
                "5/4",
                "1/0",
                "1/1025",
                "-1/4",
                "+1/4",
                "1/4/2",
                "a/b",
                "1 /4",
                "2.0/4",
                "99999999999/99999999999",
                "1,4"
            })
    void refusesMalformedShards(String text) {
        assertThrows(IllegalArgumentException.class, () -> Shard.parse(text));
    }

    @ParameterizedTest(name = "auto/{1} with index {0}")
    @CsvSource({"0,4,1", "3,4,4", "' 2 ',3,3", "1023,1024,1024"})
    void autoTakesKFromTheIndexedJobsZeroBasedCompletionIndex(String index, int n, int k) {
        Shard s = Shard.parse("auto/" + n, name -> name.equals(Shard.INDEX_VARIABLE) ? index : null);
        assertEquals(new Shard(k, n), s);
        assertEquals(k + "/" + n, s.toString());
    }

    @ParameterizedTest(name = "auto/4 with index \"{0}\"")
    @ValueSource(strings = {"4", "-1", "x", "", "1.0", "99999"})
    void autoRefusesAnIndexOutsideZeroToNMinusOneNamingTheVariable(String index) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Shard.parse("auto/4", name -> index));
        assertEquals(
                "auto/N takes K - 1 from JOB_COMPLETION_INDEX, an integer in 0..3; it is \"" + index + "\"",
                e.getMessage());
    }

    @Test
    void autoWithoutTheVariableSaysItIsUnset() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Shard.parse("auto/4", name -> null));
        assertEquals("auto/N takes K - 1 from JOB_COMPLETION_INDEX, an integer in 0..3; it is unset", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Shard.parse("auto/0", name -> "0"));
        assertThrows(IllegalArgumentException.class, () -> Shard.parse("auto/1025", name -> "0"));
        assertThrows(IllegalArgumentException.class, () -> Shard.parse("auto/", name -> "0"));
    }

    @Test
    void constructorChecksItsRange() {
        assertThrows(IllegalArgumentException.class, () -> new Shard(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Shard(2, 1));
        assertThrows(IllegalArgumentException.class, () -> new Shard(1, 1025));
    }

    private static List<Integer> threadsPerPhase(LoadPlan p) {
        return p.phases().stream().map(PlannedPhase::threads).toList();
    }

    /** The N shards' assignments, phase by phase, are the plan's, each exactly once; counts and triggers sane. */
    private static void assertUnionIsThePlan(LoadPlan whole, int n, String what) {
        List<List<ThreadAssignment>> union = new ArrayList<>();
        whole.phases().forEach(p -> union.add(new ArrayList<>()));
        long requests = 0;
        int[] minThreads = new int[whole.phases().size()];
        int[] maxThreads = new int[whole.phases().size()];
        java.util.Arrays.fill(minThreads, Integer.MAX_VALUE);
        for (int k = 1; k <= n; k++) {
            LoadPlan shard = new Shard(k, n).of(whole);
            assertEquals(whole.phases().size(), shard.phases().size(), what);
            assertTrue(shard.totalThreads() > 0, what + ": shard " + k + " is empty");
            requests += shard.totalRequests();
            for (PlannedPhase p : shard.phases()) {
                int i = p.index();
                union.get(i).addAll(p.assignments());
                minThreads[i] = Math.min(minThreads[i], p.threads());
                maxThreads[i] = Math.max(maxThreads[i], p.threads());
                assertEquals(whole.phases().get(i).threads(), p.wholeThreads(), what + ": the whole phase's threads");
                int previous = i == 0 ? 0 : shard.phases().get(i - 1).threads();
                assertTrue(p.startAfter() <= previous, what + ": trigger above the previous phase's threads");
                assertEquals(
                        i == 0 ? 0 : PhasePlan.ceilTimes(p.phase().startAfterFraction(), previous),
                        p.startAfter(),
                        what);
            }
        }
        assertEquals(whole.totalRequests(), requests, what + ": requests");
        for (PlannedPhase p : whole.phases()) {
            List<ThreadAssignment> got = union.get(p.index());
            got.sort(Comparator.comparingInt(ThreadAssignment::threadIndex));
            assertEquals(p.assignments(), got, what + ": " + p.name() + " (disjoint and complete)");
            assertTrue(maxThreads[p.index()] - minThreads[p.index()] <= 1, what + ": shards differ by more than 1");
        }
    }
}
