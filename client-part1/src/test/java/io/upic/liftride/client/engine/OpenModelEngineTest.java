package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.OpenModel;
import io.upic.liftride.client.plan.Phase;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The open model (--rate) through the real engine and clock, against instant or slow fake senders. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OpenModelEngineTest {

    private static final RetryPolicy NO_WAIT = new RetryPolicy(6, 0, 0);

    /** An attempt as the recorder saw it. */
    private record Seen(long startNanos, long intendedNanos, int attempt, String phase, int thread) {}

    private static AttemptListener recording(List<Seen> seen) {
        return (ThreadAssignment a) -> new AttemptRecorder() {
            @Override
            public void onAttempt(long epochMillis, long startNanos, long latencyNanos, int code, int attempt) {
                throw new AssertionError("the engine passes the intended start");
            }

            @Override
            public void onAttempt(
                    long epochMillis, long startNanos, long intended, long latencyNanos, int code, int attempt) {
                seen.add(new Seen(startNanos, intended, attempt, a.phaseName(), a.threadIndex()));
            }
        };
    }

    @Test
    void eachPhaseAchievesItsShareOfTheRateAndNoAttemptStartsBeforeItsSlot() {
        // 8 threads, 1,000 req/s at the peak: startup (2 threads) offers 250/s, peak 1,000/s, cooldown (1) 125/s
        LoadPlan plan = PhasePlan.fall2021().forRun(8, 200, 10); // 200 + 1,200 + 200 requests
        List<Seen> seen = new CopyOnWriteArrayList<>();
        RunResult r = LoadEngine.builder(plan, FakeSenders.always(201))
                .retryPolicy(NO_WAIT)
                .listener(recording(seen))
                .openModel(new OpenModel(1_000, 8))
                .build()
                .run();

        assertEquals(r.requests().planned(), r.requests().successful());
        assertEquals(r.requests().planned(), seen.size());
        for (Seen s : seen) {
            assertTrue(s.intendedNanos() != AttemptRecorder.UNSCHEDULED, s.toString());
            assertTrue(s.startNanos() >= s.intendedNanos(), "sent before its slot: " + s);
        }
        // the schedule gives each thread a slot every 8 ms (1,000/s over 8 threads), however late its sends come
        Map<String, List<Long>> slots = seen.stream()
                .collect(Collectors.groupingBy(
                        s -> s.phase() + "/" + s.thread(),
                        Collectors.mapping(Seen::intendedNanos, Collectors.toList())));
        for (Map.Entry<String, List<Long>> thread : slots.entrySet()) {
            List<Long> t = thread.getValue().stream().sorted().toList();
            for (int i = 1; i < t.size(); i++) {
                assertEquals(8_000_000, t.get(i) - t.get(i - 1), thread.getKey() + " slot " + i);
            }
        }
        for (PhaseResult p : r.phases()) {
            double offered = p.offeredPerSecond();
            assertEquals(1_000.0 * p.threads() / 8, offered, 1e-9);
            assertEquals(p.requests().successful(), p.scheduleLag().sends());
            // never faster than offered: a phase lasts at least its requests per thread x interval, less one interval
            double achieved = p.achievedPerSecond() / offered;
            assertTrue(achieved < 1.02, p.name() + " achieved " + p.achievedPerSecond() + " of " + offered);
            // slower only by late sends: a busy machine delays some by tens of ms, never by half a phase
            assertTrue(achieved > 0.5, p.name() + " achieved " + p.achievedPerSecond() + " of " + offered);
        }
        PhaseResult peak = r.phases().get(1);
        assertTrue(peak.durationNanos() > 0.95e9, "1,200 requests at 1,000/s take over a second: " + peak);
    }

    @Test
    void progressSnapshotsCarryTheRateTheRunningThreadsAreScheduledFor() {
        // 8 threads at 800 req/s: 100/s per thread; startup's 2 threads offer 200/s, the peak adds 8 more (1,000/s
        // while both run), cooldown's 1 adds 100
        LoadPlan plan = PhasePlan.fall2021().forRun(8, 200, 10);
        List<Progress> snapshots = new CopyOnWriteArrayList<>();
        LoadEngine.builder(plan, FakeSenders.always(201))
                .retryPolicy(NO_WAIT)
                .openModel(new OpenModel(800, 8))
                .progress(snapshots::add, 100)
                .build()
                .run();

        List<Progress> periodic = snapshots.stream().filter(p -> !p.finished()).toList();
        assertTrue(periodic.size() >= 5, "a snapshot every 100 ms of a run over a second: " + periodic.size());
        for (Progress p : periodic) {
            assertTrue(p.openModel());
            double perThread = p.offeredPerSecond() / 100.0;
            assertEquals(Math.rint(perThread), perThread, 1e-9, "whole threads: " + p);
            assertTrue(p.offeredPerSecond() <= 1_100, "never more than all phases' threads at once: " + p);
        }
        assertTrue(
                periodic.stream().anyMatch(p -> p.phaseName().equals("peak") && p.offeredPerSecond() >= 800),
                "the peak's threads offer 800/s: " + periodic);
        assertTrue(snapshots.get(snapshots.size() - 1).finished());
    }

    @Test
    void closedModelSnapshotsHaveNoOfferedRate() {
        List<Progress> snapshots = new CopyOnWriteArrayList<>();
        LoadEngine.builder(PhasePlan.fall2021().forRun(4, 40, 10), FakeSenders.always(201))
                .retryPolicy(NO_WAIT)
                .progress(snapshots::add, 100)
                .build()
                .run();
        assertTrue(snapshots.stream().noneMatch(Progress::openModel), snapshots.toString());
    }

    @Test
    void aSlowServerMakesTheThreadsLateAndTheyCatchUpWithoutSkippingAnyRequest() {
        // 1 thread wants a request every 2 ms, each answer takes 5 ms: it falls behind, sends at once, skips none
        LoadPlan plan = new PhasePlan("one", List.of(new Phase("only", 1.0, 1, 1, 2, 0))).forRun(1, 1, 60);
        List<Seen> seen = new CopyOnWriteArrayList<>();
        RunResult r = LoadEngine.builder(plan, new FakeSenders((i, skier) -> 201, 5_000_000))
                .retryPolicy(NO_WAIT)
                .listener(recording(seen))
                .openModel(new OpenModel(500, 1))
                .build()
                .run();

        assertEquals(r.requests().planned(), r.requests().successful());
        ScheduleLag.Snapshot lag = r.phases().get(0).scheduleLag();
        assertEquals(r.requests().planned(), lag.sends(), "every request sent, none skipped");
        assertTrue(lag.maxNanos() > 100_000_000, "the last send is ~3 ms x requests late: " + lag);
        assertTrue(lag.lateSends() >= r.requests().planned() - 2, lag.toString());
        Seen last = seen.get(seen.size() - 1);
        assertTrue(last.startNanos() - last.intendedNanos() > 100_000_000, last.toString());
    }

    @Test
    void retriesKeepTheFirstAttemptsSlot() {
        LoadPlan plan = new PhasePlan("one", List.of(new Phase("only", 1.0, 1, 1, 2, 0))).forRun(2, 2, 10);
        List<Seen> seen = new CopyOnWriteArrayList<>();
        // every request fails twice, then succeeds
        RunResult r = LoadEngine.builder(plan, new FakeSenders((i, skier) -> i % 3 == 2 ? 201 : 503, 0))
                .retryPolicy(NO_WAIT)
                .listener(recording(seen))
                .openModel(new OpenModel(200, 2))
                .build()
                .run();
        assertTrue(r.requests().retries() > 0, r.toString());
        for (Seen s : seen) {
            assertTrue(s.intendedNanos() <= s.startNanos(), s.toString());
        }
        long distinctSlots = seen.stream().map(Seen::intendedNanos).distinct().count();
        assertEquals(r.requests().planned(), distinctSlots, "one slot per request, shared by its retries");
        assertEquals(r.requests().planned() + r.requests().retries(), seen.size());
    }

    @Test
    void theClosedModelHasNoScheduleAndNoOfferedRate() {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 40, 5);
        List<Seen> seen = new CopyOnWriteArrayList<>();
        RunResult r = LoadEngine.builder(plan, FakeSenders.always(201))
                .listener(recording(seen))
                .build()
                .run();
        assertTrue(seen.stream().allMatch(s -> s.intendedNanos() == AttemptRecorder.UNSCHEDULED));
        for (PhaseResult p : r.phases()) {
            assertNull(p.offeredPerSecond());
            assertNull(p.scheduleLag());
        }
    }
}
