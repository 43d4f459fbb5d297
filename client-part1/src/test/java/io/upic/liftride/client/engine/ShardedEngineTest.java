package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.Shard;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShardedEngineTest {

    private static RunResult run(LoadPlan plan, FakeSenders senders, AttemptListener listener) {
        return LoadEngine.builder(plan, senders)
                .ride(new RideValues(7, 2022, 3, 40))
                .retryPolicy(new RetryPolicy(6, 0, 0))
                .seed(42L)
                .listener(listener)
                .build()
                .run();
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
