package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.Ramp;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A ramp (--ramp) through the real engine and clock, against an instant fake sender. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RampEngineTest {

    @Test
    void everyRequestIsSentAtTheRampsTimeForItAndEachStageAchievesItsOfferedRate() {
        Ramp ramp = Ramp.parse("200,600:1s,600:1s,0:1s,0:300ms"); // 400 + 600 + 300 + 0 requests
        LoadPlan plan = ramp.forRun(4, 40, 10);
        Map<String, List<Long>> intended = new ConcurrentHashMap<>();
        List<Long> early = new CopyOnWriteArrayList<>();
        AttemptListener listener = (ThreadAssignment a) -> new AttemptRecorder() {
            @Override
            public void onAttempt(long epochMillis, long startNanos, long latencyNanos, int code, int attempt) {
                throw new AssertionError("the engine passes the intended start");
            }

            @Override
            public void onAttempt(
                    long epochMillis, long startNanos, long intendedNanos, long latencyNanos, int code, int attempt) {
                intended.computeIfAbsent(a.phaseName(), k -> new CopyOnWriteArrayList<>())
                        .add(intendedNanos);
                if (startNanos < intendedNanos) {
                    early.add(intendedNanos - startNanos);
                }
            }
        };
        RunResult r = LoadEngine.builder(plan, FakeSenders.always(201))
                .retryPolicy(new RetryPolicy(6, 0, 0))
                .listener(listener)
                .ramp(ramp)
                .build()
                .run();

        assertEquals(1_300, r.requests().successful());
        assertEquals(List.of(), early, "sent before their slot");
        for (PhaseResult p : r.phases()) {
            int s = p.index();
            List<Long> times = new ArrayList<>(intended.getOrDefault(p.name(), List.of()));
            times.sort(null);
            assertEquals(ramp.requests(s), times.size(), p.name());
            for (int j = 0; j < times.size(); j++) {
                assertEquals(r.startNanos() + ramp.dueNanos(s, j), times.get(j), p.name() + " request " + j);
            }
            assertEquals(r.startNanos() + ramp.startNanos(s), p.startNanos(), p.name() + " counts from its slot");
            assertTrue(p.endNanos() >= r.startNanos() + ramp.endNanos(s), p.name() + " lasts its duration");
            assertEquals(ramp.offeredPerSecond(s), p.offeredPerSecond(), 1e-9);
            assertEquals(ramp.requests(s), p.scheduleLag().sends());
            if (p.offeredPerSecond() > 0) {
                double ratio = p.achievedPerSecond() / p.offeredPerSecond();
                assertTrue(Math.abs(ratio - 1) < 0.03, p.name() + " achieved/offered " + ratio);
            }
        }
        assertTrue(r.wallNanos() >= ramp.durationNanos(), "the run lasts the ramp, its idle stage too");
    }

    @Test
    void progressSnapshotsCarryTheRampsRateAtTheirTime() {
        Ramp ramp = Ramp.parse("100,500:1s");
        List<Progress> snapshots = new CopyOnWriteArrayList<>();
        LoadEngine.builder(ramp.forRun(2, 10, 10), FakeSenders.always(201))
                .retryPolicy(new RetryPolicy(6, 0, 0))
                .ramp(ramp)
                .progress(snapshots::add, 100)
                .build()
                .run();
        List<Progress> periodic = snapshots.stream().filter(p -> !p.finished()).toList();
        assertTrue(periodic.size() >= 5, periodic.toString());
        for (Progress p : periodic) {
            double expected = p.elapsedNanos() >= 1e9 ? 0 : 100 + 400 * p.elapsedNanos() / 1e9;
            assertEquals(expected, p.offeredPerSecond(), 1e-6, p.toString());
        }
    }
}
