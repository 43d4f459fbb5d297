package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.OpenModel;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.Ramp;
import io.upic.liftride.client.plan.Shard;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShardedEngineTest {

    private static RunResult run(LoadPlan plan, FakeSenders senders, AttemptListener listener) {
        return run(plan, senders, listener, b -> b);
    }

    private static RunResult run(
            LoadPlan plan, FakeSenders senders, AttemptListener listener, UnaryOperator<LoadEngine.Builder> model) {
        return model.apply(LoadEngine.builder(plan, senders)
                        .ride(new RideValues(7, 2022, 3, 40))
                        .retryPolicy(new RetryPolicy(6, 0, 0))
                        .seed(42L)
                        .listener(listener))
                .build()
                .run();
    }

    /** Every attempt's intended start, by "phase index/thread index". */
    private static AttemptListener intendedStarts(Map<String, List<Long>> into) {
        return (ThreadAssignment a) -> new AttemptRecorder() {
            @Override
            public void onAttempt(long epochMillis, long startNanos, long latencyNanos, int code, int attempt) {
                throw new AssertionError("the engine passes the intended start");
            }

            @Override
            public void onAttempt(
                    long epochMillis, long startNanos, long intended, long latencyNanos, int code, int attempt) {
                into.computeIfAbsent(a.phaseIndex() + "/" + a.threadIndex(), k -> new CopyOnWriteArrayList<>())
                        .add(intended);
            }
        };
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {2, 3})
    void shardsOfARateRunEachSendTheirWholeShareOnTheUnshardedScheduleAndTogetherThePlan(int n) {
        LoadPlan whole = PhasePlan.fall2021().forRun(8, 200, 1); // 2 + 8 + 2 threads, 40 + 120 + 20 requests
        OpenModel rate = new OpenModel(800, 8); // every thread 100/s: a slot every 10 ms
        FakeSenders unsharded = FakeSenders.always(201);
        run(whole, unsharded, AttemptListener.NONE, b -> b.openModel(rate));

        Map<FakeSenders.Ride, Integer> got = new HashMap<>();
        for (int k = 1; k <= n; k++) {
            LoadPlan shard = new Shard(k, n).of(whole);
            FakeSenders senders = FakeSenders.always(201);
            Map<String, List<Long>> slots = new ConcurrentHashMap<>();
            RunResult r = run(shard, senders, intendedStarts(slots), b -> b.openModel(rate));

            String what = "shard " + k + "/" + n + ": " + r;
            assertEquals(List.of(), r.problems(), what);
            assertEquals(shard.totalRequests(), r.requests().planned(), what);
            assertEquals(shard.totalRequests(), r.requests().successful(), what);
            for (PlannedPhase p : shard.phases()) {
                assertEquals(800.0 * p.threads() / 8, r.phases().get(p.index()).offeredPerSecond(), 1e-9, what);
            }
            for (Map.Entry<String, List<Long>> thread : slots.entrySet()) {
                List<Long> t = thread.getValue().stream().sorted().toList();
                for (int i = 1; i < t.size(); i++) {
                    assertEquals(rate.intervalNanos(), t.get(i) - t.get(i - 1), what + " " + thread.getKey());
                }
            }
            count(senders.rides).forEach((ride, c) -> got.merge(ride, c, Integer::sum));
        }
        assertEquals(count(unsharded.rides), got, "the unsharded run's rides, each as often");
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {2, 3})
    void shardsOfARampSendExactlyTheRampsRequestsAtItsTimesBetweenThem(int n) {
        Ramp ramp = Ramp.parse("100,300:1s"); // 200 requests over 4 threads
        LoadPlan whole = ramp.forRun(4, 40, 10);
        List<Long> due = new ArrayList<>();
        for (long j = 0; j < ramp.requests(0); j++) {
            due.add(ramp.dueNanos(0, j));
        }

        List<Long> sent = new ArrayList<>();
        for (int k = 1; k <= n; k++) {
            LoadPlan shard = new Shard(k, n).of(whole);
            Map<String, List<Long>> intended = new ConcurrentHashMap<>();
            RunResult r = run(shard, FakeSenders.always(201), intendedStarts(intended), b -> b.ramp(ramp));

            String what = "shard " + k + "/" + n + ": " + r;
            assertEquals(List.of(), r.problems(), what);
            assertEquals(shard.totalRequests(), r.requests().successful(), what);
            intended.values().forEach(times -> times.forEach(t -> sent.add(t - r.startNanos())));
        }
        sent.sort(null);
        assertEquals(due, sent, "every due time of the ramp once, none twice");
    }

    @Test
    void fourShardsWithTheSameSeedSendTheUnshardedRunsRidesBetweenThem() {
        LoadPlan whole = PhasePlan.fall2021().forRun(4, 200, 10); // 1 + 4 + 1 threads: most shards miss a phase
        FakeSenders unsharded = FakeSenders.always(201);
        RunResult all = run(whole, unsharded, AttemptListener.NONE);
        assertEquals(1_800, all.requests().successful());

        Map<FakeSenders.Ride, Integer> expected = count(unsharded.rides);
        Map<FakeSenders.Ride, Integer> got = new HashMap<>();
        long successful = 0;
        for (int k = 1; k <= 4; k++) {
            FakeSenders senders = FakeSenders.always(201);
            List<Integer> ended = new ArrayList<>();
            RunResult r = run(new Shard(k, 4).of(whole), senders, new AttemptListener() {
                @Override
                public AttemptRecorder recorder(ThreadAssignment assignment) {
                    return AttemptListener.NONE.recorder(assignment);
                }

                @Override
                public void onPhaseEnd(int phaseIndex, String name, long epochMillis, long nanos) {
                    synchronized (ended) {
                        ended.add(phaseIndex);
                    }
                }
            });
            successful += r.requests().successful();
            assertTrue(r.allSucceeded(), r.toString());
            assertEquals(3, ended.size(), "shard " + k + ": every phase ends, empty ones too: " + ended);
            for (PhaseResult p : r.phases()) {
                assertTrue(p.started() && p.endNanos() >= p.startNanos(), "shard " + k + " " + p);
            }
            count(senders.rides).forEach((ride, n) -> got.merge(ride, n, Integer::sum));
        }
        assertEquals(1_800, successful);
        assertEquals(expected, got, "the same rides, each as often");
    }

    private static Map<FakeSenders.Ride, Integer> count(List<FakeSenders.Ride> rides) {
        Map<FakeSenders.Ride, Integer> m = new HashMap<>();
        rides.forEach(r -> m.merge(r, 1, Integer::sum));
        return m;
    }
}
