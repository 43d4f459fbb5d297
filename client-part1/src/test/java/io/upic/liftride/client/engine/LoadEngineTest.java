package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.Phase;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

// A hang is a failure, not a stuck build: the engine's promise is that runs end by themselves.
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LoadEngineTest {

    private static final RetryPolicy NO_WAIT = new RetryPolicy(6, 0, 0);

    private static LoadEngine.Builder engine(LoadPlan plan, FakeSenders senders) {
        return LoadEngine.builder(plan, senders)
                .ride(new RideValues(7, 2022, 3, 40))
                .retryPolicy(NO_WAIT);
    }

    @Test
    void everyPlannedRequestIsSentOnceWithRideValuesInRangeAndTheAccountBalances() {
        LoadPlan plan = PhasePlan.fall2021().forRun(16, 2_000, 10);
        FakeSenders senders = FakeSenders.always(201);
        RunResult r = engine(plan, senders).build().run();

        assertEquals(18_000, r.requests().planned());
        assertEquals(18_000, r.requests().successful());
        assertEquals(0, r.requests().failed());
        assertEquals(0, r.requests().notSent());
        assertEquals(0, r.requests().retries());
        assertEquals(18_000, r.requests().attempts());
        assertEquals(18_000, senders.rides.size());
        assertFalse(r.stopped());
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        assertTrue(r.allSucceeded());
        int[] byWindow = new int[3];
        for (FakeSenders.Ride ride : senders.rides) {
            assertEquals(7, ride.resortId());
            assertEquals(2022, ride.seasonId());
            assertEquals(3, ride.dayId());
            assertTrue(ride.skierId() >= 1 && ride.skierId() <= 2_000, ride.toString());
            assertTrue(ride.liftId() >= 1 && ride.liftId() <= 40, ride.toString());
            assertTrue(ride.minute() >= 1 && ride.minute() <= 420, ride.toString());
            assertTrue(ride.waitTime() >= 0 && ride.waitTime() <= 10, ride.toString());
            byWindow[ride.minute() <= 90 ? 0 : ride.minute() <= 360 ? 1 : 2]++;
        }
        // Each phase draws times only from its own window, so the windows count each phase's requests.
        assertEquals(List.of(4_000, 12_000, 2_000), List.of(byWindow[0], byWindow[1], byWindow[2]));
        assertEquals(
                List.of(4_000L, 12_000L, 2_000L),
                r.phases().stream().map(p -> p.requests().successful()).toList());
        // Every sender was created before the run and closed by its worker.
        assertEquals(plan.totalThreads(), senders.created.get());
        assertEquals(plan.totalThreads(), senders.closed.get());
    }

    @Test
    void everyRangeEndpointAndEveryLiftAndWaitValueIsReachable() {
        // Inclusive bounds: skiers 1..2, lifts 1..5, waitTime 0..10 and both ends of each time window
        // all appear among 4,000 draws per phase (missing one has a probability below 1e-100).
        PhasePlan wide = new PhasePlan(
                "test", List.of(new Phase("a", 1.0, 100, 1, 3, 0), new Phase("b", 1.0, 100, 418, 420, 0)));
        LoadPlan plan = wide.forRun(1, 2, 20);
        assertEquals(8_000, plan.totalRequests());
        FakeSenders senders = FakeSenders.always(201);
        LoadEngine.builder(plan, senders)
                .ride(new RideValues(1, 2022, 1, 5))
                .build()
                .run();
        java.util.function.Function<java.util.function.Function<FakeSenders.Ride, Integer>, java.util.Set<Integer>>
                values = f ->
                        new java.util.TreeSet<>(senders.rides.stream().map(f).toList());
        assertEquals(java.util.Set.of(1, 2), values.apply(FakeSenders.Ride::skierId));
        assertEquals(java.util.Set.of(1, 2, 3, 4, 5), values.apply(FakeSenders.Ride::liftId));
        assertEquals(java.util.Set.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), values.apply(FakeSenders.Ride::waitTime));
        assertEquals(java.util.Set.of(1, 2, 3, 418, 419, 420), values.apply(FakeSenders.Ride::minute));
    }

    @Test
    void eachThreadSendsOnlySkiersOfItsOwnRange() {
        LoadPlan plan = PhasePlan.fall2021().forRun(8, 80, 10);
        Map<String, ThreadAssignment> workOfThread = new ConcurrentHashMap<>();
        List<String> violations = new CopyOnWriteArrayList<>();
        FakeSenders senders = new FakeSenders(
                (i, skier) -> {
                    ThreadAssignment w = workOfThread.get(Thread.currentThread().getName());
                    if (skier < w.skierFrom() || skier > w.skierTo()) {
                        violations.add(Thread.currentThread().getName() + " sent " + skier);
                    }
                    return 201;
                },
                0);
        AttemptListener listener = work -> {
            workOfThread.put("liftride-" + work.phaseName() + "-" + work.threadIndex(), work);
            return AttemptRecorder.NONE;
        };
        RunResult r = engine(plan, senders).listener(listener).build().run();
        assertEquals(720, r.requests().successful());
        assertEquals(List.of(), violations);
    }

    @Test
    void alwaysFailingServerGivesOneFailurePerRequestAfterSixAttemptsCountedByCause() {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 40, 10); // 360 requests
        RunResult r = engine(plan, FakeSenders.always(503)).build().run();
        assertEquals(0, r.requests().successful());
        assertEquals(360, r.requests().failed());
        assertEquals(5 * 360, r.requests().retries());
        assertEquals(6 * 360, r.requests().attempts());
        assertEquals(Map.of(503, 360L), r.failuresByCause());
        assertFalse(r.allSucceeded());
    }

    @Test
    void failuresAreCountedByTheCauseOfTheLastAttempt() {
        LoadPlan plan = PhasePlan.fall2021().forRun(1, 10, 10); // 90 requests, one thread per phase
        // skier-dependent script: odd skiers time out forever, even skiers succeed
        FakeSenders senders = new FakeSenders(
                (i, skier) -> {
                    if (skier % 2 == 1) {
                        throw new SocketTimeoutException("Read timed out");
                    }
                    return 201;
                },
                0);
        RunResult r = engine(plan, senders).build().run();
        assertEquals(90, r.requests().successful() + r.requests().failed());
        assertEquals(Map.of(AttemptCodes.TIMEOUT, r.requests().failed()), r.failuresByCause());
        assertEquals(5 * r.requests().failed(), r.requests().retries());
        assertTrue(r.requests().failed() > 10 && r.requests().successful() > 10, r.toString());
    }

    @Test
    void aFailureThenSuccessIsOneSuccessAndOneRetry() {
        LoadPlan plan = PhasePlan.fall2021().forRun(1, 1, 10); // 2 + 6 + 1 requests
        FakeSenders senders = new FakeSenders((i, skier) -> i % 2 == 0 ? 500 : 201, 0);
        RunResult r = engine(plan, senders).build().run();
        assertEquals(9, r.requests().successful());
        assertEquals(0, r.requests().failed());
        assertEquals(9, r.requests().retries());
        assertEquals(18, r.requests().attempts());
    }

    @Test
    void theListenerSeesEveryAttemptWithItsNumberAndCode() {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 100, 10);
        FakeSenders senders = new FakeSenders((i, skier) -> i % 3 == 0 ? 503 : 201, 0);
        AtomicLong attempts = new AtomicLong();
        AtomicLong firstAttempts = new AtomicLong();
        AtomicLong successes = new AtomicLong();
        List<String> events = new CopyOnWriteArrayList<>();
        AttemptListener listener = new AttemptListener() {
            @Override
            public AttemptRecorder recorder(ThreadAssignment assignment) {
                return new AttemptRecorder() {
                    long count; // per-worker, unsynchronized: only this worker's thread touches it
                    String thread;

                    @Override
                    public void onAttempt(
                            long startEpochMillis, long startNanos, long latencyNanos, int code, int attemptNumber) {
                        if (thread == null) {
                            thread = Thread.currentThread().getName();
                        }
                        assertEquals(thread, Thread.currentThread().getName());
                        assertTrue(latencyNanos >= 0 && startEpochMillis > 0);
                        count++;
                        if (attemptNumber == 1) {
                            firstAttempts.incrementAndGet();
                        }
                        if (code == 201) {
                            successes.incrementAndGet();
                        }
                    }

                    @Override
                    public void close() {
                        attempts.addAndGet(count);
                    }
                };
            }

            @Override
            public void onRunStart(LoadPlan p, long epochMillis, long nanos) {
                events.add("run start");
            }

            @Override
            public void onPhaseStart(int phaseIndex, String phaseName, long epochMillis, long nanos) {
                events.add("start " + phaseName);
            }

            @Override
            public void onPhaseEnd(int phaseIndex, String phaseName, long epochMillis, long nanos) {
                events.add("end " + phaseName);
            }

            @Override
            public void onRunEnd(RunResult result) {
                events.add("run end");
            }
        };
        RunResult r = engine(plan, senders).listener(listener).build().run();
        assertEquals(r.requests().attempts(), attempts.get());
        assertEquals(r.requests().planned(), firstAttempts.get());
        assertEquals(r.requests().successful(), successes.get());
        assertEquals("run start", events.get(0));
        assertEquals("run end", events.get(events.size() - 1));
        for (String phase : List.of("startup", "peak", "cooldown")) {
            assertTrue(events.indexOf("start " + phase) < events.indexOf("end " + phase), events.toString());
        }
        assertTrue(events.indexOf("start startup") < events.indexOf("start peak"));
        assertTrue(events.indexOf("start peak") < events.indexOf("start cooldown"));
    }

    @Test
    void aPhaseStartsOnlyAfterItsTriggerCountOfThePreviousPhasesThreadsFinished() {
        // startup: 10 threads whose work grows with the thread index, so they finish one by one.
        Phase startup = new Phase("startup", 1.0, 1.0, 1, 90, 0);
        Phase peak = new Phase("peak", 1.0, 0.1, 91, 360, 0.3);
        LoadPlan base = new PhasePlan("test", List.of(startup, peak)).forRun(10, 10, 1);
        List<ThreadAssignment> staggered = new ArrayList<>();
        for (ThreadAssignment w : base.phases().get(0).assignments()) {
            staggered.add(new ThreadAssignment(
                    0, "startup", w.threadIndex(), w.skierFrom(), w.skierTo(), 5 * (w.threadIndex() + 1), 1, 90));
        }
        LoadPlan plan = new LoadPlan(
                "test",
                10,
                10,
                1,
                List.of(
                        new PlannedPhase(0, startup, 10, 10, 0, staggered),
                        base.phases().get(1)));
        assertEquals(3, plan.phases().get(1).startAfter());

        Map<Integer, Long> startupFinish = new ConcurrentHashMap<>();
        long[] peakStart = new long[1];
        AttemptListener listener = new AttemptListener() {
            @Override
            public AttemptRecorder recorder(ThreadAssignment assignment) {
                return new AttemptRecorder() {
                    @Override
                    public void onAttempt(long a, long b, long c, int d, int e) {}

                    @Override
                    public void close() {
                        if (assignment.phaseIndex() == 0) {
                            startupFinish.put(assignment.threadIndex(), System.nanoTime());
                        }
                    }
                };
            }

            @Override
            public void onPhaseStart(int phaseIndex, String phaseName, long epochMillis, long nanos) {
                if (phaseIndex == 1) {
                    peakStart[0] = nanos;
                }
            }
        };
        FakeSenders senders = new FakeSenders((i, skier) -> 201, 2_000_000); // 2 ms per request
        RunResult r = engine(plan, senders).listener(listener).build().run();

        long finishedBeforePeak =
                startupFinish.values().stream().filter(t -> t <= peakStart[0]).count();
        assertTrue(finishedBeforePeak >= 3, "peak started after only " + finishedBeforePeak + " startup threads");
        assertTrue(finishedBeforePeak < 10, "peak waited for the whole startup phase");
        PhaseResult s = r.phases().get(0);
        PhaseResult p = r.phases().get(1);
        assertTrue(p.startNanos() >= s.startNanos() && p.startNanos() < s.endNanos());
        assertTrue(r.wallNanos() >= Math.max(s.endNanos(), p.endNanos()) - r.startNanos());
    }

    @Test
    void stopEndsTheRunQuicklyAndAccountsForEveryRequest() {
        LoadPlan plan = PhasePlan.fall2021().forRun(8, 2_000, 10); // 18,000 requests at 1 ms each: ~10 s if not stopped
        FakeSenders senders = new FakeSenders((i, skier) -> 201, 1_000_000);
        AtomicReference<LoadEngine> stoppable = new AtomicReference<>();
        AtomicLong stoppedAt = new AtomicLong();
        AttemptListener stopAfter200 = work -> (a, b, c, code, n) -> {
            if (senders.attempts.get() >= 200 && stoppedAt.compareAndSet(0, System.nanoTime())) {
                stoppable.get().stop(); // from a worker thread, mid-run
            }
        };
        stoppable.set(engine(plan, senders).listener(stopAfter200).build());
        RunResult r = stoppable.get().run();
        long millis = (System.nanoTime() - stoppedAt.get()) / 1_000_000;

        assertTrue(r.stopped());
        assertTrue(millis < 3_000, "run took " + millis + " ms after the stop");
        assertEquals(
                r.requests().planned(),
                r.requests().successful() + r.requests().failed() + r.requests().notSent());
        assertTrue(r.requests().notSent() > 0);
        assertTrue(r.requests().successful() > 0);
        assertFalse(r.allSucceeded());
        assertTrue(r.phases().stream().anyMatch(p -> !p.started())
                || r.phases().get(2).requests().notSent() > 0);
        assertEquals(List.of(), liveWorkerThreads());
    }

    @Test
    void stopBeforeRunSendsNothing() {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 100, 10);
        FakeSenders senders = FakeSenders.always(201);
        LoadEngine e = engine(plan, senders).build();
        e.stop();
        RunResult r = e.run();
        assertTrue(r.stopped());
        assertEquals(r.requests().planned(), r.requests().notSent());
        assertEquals(0, senders.attempts.get());
    }

    @Test
    void aCrashingRecorderNeitherHangsTheRunNorLosesCount() {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 100, 10);
        AttemptListener listener = work -> (a, b, c, code, n) -> {
            if (work.phaseIndex() == 0 && work.threadIndex() == 0) {
                throw new IllegalStateException("listener bug");
            }
        };
        RunResult r =
                engine(plan, FakeSenders.always(201)).listener(listener).build().run();
        assertEquals(
                r.requests().planned(),
                r.requests().successful() + r.requests().failed() + r.requests().notSent());
        assertTrue(r.requests().notSent() > 0);
        assertEquals(1, r.problems().size());
        assertTrue(
                r.problems()
                        .get(0)
                        .startsWith("startup thread 0 crashed: java.lang.IllegalStateException: listener bug"),
                r.problems().get(0));
        assertFalse(r.allSucceeded());
    }

    @Test
    void aSenderThatThrowsUncheckedIsCountedAsClientErrorAndReportedOnce() {
        LoadPlan plan = PhasePlan.fall2021().forRun(1, 1, 10);
        FakeSenders senders = new FakeSenders(
                (i, skier) -> {
                    throw new IllegalArgumentException("boom " + i);
                },
                0);
        RunResult r = engine(plan, senders).build().run();
        assertEquals(9, r.requests().failed());
        assertEquals(Map.of(AttemptCodes.CLIENT_ERROR, 9L), r.failuresByCause());
        assertEquals(3, r.problems().size()); // first error of each of the three workers
        assertTrue(
                r.problems().get(0).contains("IllegalArgumentException: boom 0"),
                r.problems().get(0));
    }

    @Test
    void sameSeedSendsTheSameRides() {
        LoadPlan plan = PhasePlan.fall2021().forRun(8, 500, 10);
        FakeSenders a = FakeSenders.always(201);
        FakeSenders b = FakeSenders.always(201);
        FakeSenders c = FakeSenders.always(201);
        engine(plan, a).seed(42L).build().run();
        engine(plan, b).seed(42L).build().run();
        engine(plan, c).seed(43L).build().run();
        assertEquals(sorted(a.rides), sorted(b.rides));
        assertFalse(sorted(a.rides).equals(sorted(c.rides)));
    }

    @Test
    void progressIsReportedAndEndsWithAFinishedSnapshot() {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 400, 10); // 3,600 requests at 0.5 ms: ~1.5 s
        List<Progress> snapshots = new CopyOnWriteArrayList<>();
        RunResult r = engine(plan, new FakeSenders((i, s) -> 201, 500_000))
                .progress(snapshots::add, 100)
                .build()
                .run();
        assertTrue(snapshots.size() >= 3, "snapshots: " + snapshots.size());
        Progress last = snapshots.get(snapshots.size() - 1);
        assertTrue(last.finished());
        assertEquals(r.requests().planned(), last.done());
        assertEquals(r.requests().planned(), last.planned());
        assertEquals(1, snapshots.stream().filter(Progress::finished).count());
        for (int i = 1; i < snapshots.size(); i++) {
            assertTrue(snapshots.get(i).done() >= snapshots.get(i - 1).done());
        }
    }

    @Test
    void aFinalProgressSnapshotThatThrowsStillEndsTheRunWithOnRunEndAndTheResult() {
        RunResult[] seenAtRunEnd = {null};
        AttemptListener listener = new AttemptListener() {
            @Override
            public AttemptRecorder recorder(ThreadAssignment assignment) {
                return AttemptRecorder.NONE;
            }

            @Override
            public void onRunEnd(RunResult result) {
                seenAtRunEnd[0] = result;
            }
        };
        ProgressListener brokenDisplay = p -> {
            if (p.finished()) {
                throw new IllegalStateException("terminal gone");
            }
        };
        RunResult r = engine(PhasePlan.fall2021().forRun(2, 10, 10), FakeSenders.always(201))
                .listener(listener)
                .progress(brokenDisplay, 1_000)
                .build()
                .run();
        assertEquals(90, r.requests().successful());
        assertEquals(r, seenAtRunEnd[0], "the listener (client-part2's summary) still gets the run's account");
    }

    @Test
    void theListenersBackgroundTaskRunsOnAnEngineThreadAndFinishesBeforeOnRunEnd() {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 100, 10);
        java.util.concurrent.ConcurrentLinkedQueue<Integer> queue = new java.util.concurrent.ConcurrentLinkedQueue<>();
        AtomicLong drained = new AtomicLong();
        long[] drainedAtRunEnd = {-1};
        String[] taskThread = {null};
        AttemptListener listener = new AttemptListener() {
            @Override
            public AttemptRecorder recorder(ThreadAssignment assignment) {
                return (a, b, c, code, n) -> queue.add(code);
            }

            @Override
            public BackgroundTask backgroundTask() {
                return workersDone -> {
                    taskThread[0] = Thread.currentThread().getName();
                    while (true) {
                        boolean done =
                                workersDone.getAsBoolean(); // read before draining: nothing arrives after it is true
                        for (Integer code; (code = queue.poll()) != null; ) {
                            drained.incrementAndGet();
                        }
                        if (done) {
                            return;
                        }
                        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    }
                };
            }

            @Override
            public void onRunEnd(RunResult result) {
                drainedAtRunEnd[0] = drained.get();
            }
        };
        RunResult r = engine(plan, new FakeSenders((i, s) -> 201, 100_000))
                .listener(listener)
                .build()
                .run();
        assertEquals("liftride-listener", taskThread[0]);
        assertEquals(r.requests().attempts(), drainedAtRunEnd[0]);
        assertEquals(List.of(), liveWorkerThreads());
    }

    @Test
    void aFailingBackgroundTaskIsReportedNotFatal() {
        AttemptListener listener = new AttemptListener() {
            @Override
            public AttemptRecorder recorder(ThreadAssignment assignment) {
                return AttemptRecorder.NONE;
            }

            @Override
            public BackgroundTask backgroundTask() {
                return workersDone -> {
                    throw new java.io.IOException("disk full");
                };
            }
        };
        RunResult r = engine(PhasePlan.fall2021().forRun(2, 10, 10), FakeSenders.always(201))
                .listener(listener)
                .build()
                .run();
        assertEquals(90, r.requests().successful());
        assertEquals(List.of("listener background task failed: java.io.IOException: disk full"), r.problems());
        assertFalse(r.allSucceeded());
    }

    @Test
    void runIsSingleUse() {
        LoadEngine e = engine(PhasePlan.fall2021().forRun(1, 1, 1), FakeSenders.always(201))
                .build();
        e.run();
        assertThrows(IllegalStateException.class, e::run);
    }

    private static List<String> sorted(List<FakeSenders.Ride> rides) {
        List<String> s =
                new ArrayList<>(rides.stream().map(FakeSenders.Ride::toString).toList());
        Collections.sort(s);
        return s;
    }

    static List<String> liveWorkerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("liftride-"))
                .map(Thread::getName)
                .sorted(Comparator.naturalOrder())
                .toList();
    }
}
