package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.plan.PlannedPhase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * One phase's workers and their threads: created before the clock, started together, joined at the end; each
 * runs in a {@link FutureTask} that carries what it threw. Used by the {@link LoadEngine}'s thread only, except
 * {@link #done()}, {@link #failedSoFar()} and {@link #live()}, which any thread may call.
 */
final class Crew {

    /** Worker stacks: the request path is shallow, and 1,500 threads at the 1 MB default add up. */
    private static final long WORKER_STACK_BYTES = 512 * 1024;

    private final PlannedPhase phase;
    private final PhaseTracker tracker;
    private final List<Worker> workers;
    private final List<FutureTask<Void>> runs;
    private final List<Thread> threads;
    private final List<Operation> operations;

    /** A crew of {@code workers}, each on its own daemon thread (not started), sending {@code operations}. */
    Crew(PlannedPhase phase, PhaseTracker tracker, List<Worker> workers, List<Operation> operations) {
        this.phase = phase;
        this.operations = List.copyOf(operations);
        this.tracker = tracker;
        this.workers = List.copyOf(workers);
        this.runs = new ArrayList<>(workers.size());
        this.threads = new ArrayList<>(workers.size());
        for (Worker w : workers) {
            String name = "liftride-" + phase.name() + "-" + w.assignment().threadIndex();
            FutureTask<Void> run = new FutureTask<>(w, null);
            Thread t = new Thread(null, run, name, WORKER_STACK_BYTES);
            t.setDaemon(true); // a stuck socket must never keep the JVM alive after main returns
            runs.add(run);
            threads.add(t);
        }
    }

    PhaseTracker tracker() {
        return tracker;
    }

    /** Marks the phase started now and starts its threads. */
    void start(AttemptListener listener) {
        long epochMillis = System.currentTimeMillis();
        long nanos = System.nanoTime();
        listener.onPhaseStart(tracker.index(), phase.name(), epochMillis, nanos);
        tracker.starting(threads.size(), epochMillis, nanos);
        for (Thread t : threads) {
            t.start();
        }
    }

    /** Joins every thread, retrying through interrupts (each one runs {@code onInterrupt}); returns whether any. */
    boolean join(Runnable onInterrupt) {
        boolean interrupted = false;
        for (Thread t : threads) {
            interrupted |= joinUninterruptibly(t, onInterrupt);
        }
        return interrupted;
    }

    /** Requests finished so far (successful or failed); safe from any thread. */
    long done() {
        long done = 0;
        for (Worker w : workers) {
            done += w.done();
        }
        return done;
    }

    /** Requests failed so far; safe from any thread. */
    long failedSoFar() {
        long failed = 0;
        for (Worker w : workers) {
            failed += w.failedSoFar();
        }
        return failed;
    }

    /** The phase's figures so far, one per operation; safe from any thread. */
    List<LiveFigures> live() {
        List<LiveFigures> figures = new ArrayList<>(operations.size());
        for (Operation op : operations) {
            LiveFigures.Sums sums = new LiveFigures.Sums();
            for (Worker w : workers) {
                w.addLiveTo(op, sums);
            }
            figures.add(sums.of(tracker.index(), phase.name(), op));
        }
        return figures;
    }

    /** Adds the workers' per-operation accounts into {@code into}; once joined. */
    void addOperationsTo(Map<Operation, OperationStats> into) {
        workers.forEach(w -> w.addOperationsTo(into));
    }

    /** The phase's account once joined; adds its workers' problems to {@code problems}. */
    PhaseResult result(Double offeredPerSecond, List<String> problems) {
        Map<Integer, Long> causes = new TreeMap<>();
        long s = 0, f = 0, r = 0, a = 0, l = 0;
        ScheduleLag lag = new ScheduleLag();
        for (int i = 0; i < workers.size(); i++) {
            Worker w = workers.get(i);
            lag.add(w.lag());
            s += w.successful();
            f += w.failed();
            r += w.retries();
            a += w.attempts();
            l += w.latencyNanosSum();
            w.addFailuresTo(causes);
            w.addProblemsTo(problems, crashOf(runs.get(i)));
        }
        if (tracker.listenerError() != null) {
            problems.add("listener.onPhaseEnd failed for " + phase.name() + ": " + tracker.listenerError());
        }
        return PhaseResult.builder()
                .index(tracker.index())
                .name(phase.name())
                .threads(phase.threads())
                .requests(Requests.of(phase.requests(), s, f, r, a))
                .latencyNanosSum(l)
                .failuresByCause(causes)
                .started(tracker.started())
                .startEpochMillis(tracker.startEpochMillis())
                .startNanos(tracker.startNanos())
                .endEpochMillis(tracker.endEpochMillis())
                .endNanos(tracker.endNanos())
                .offeredPerSecond(offeredPerSecond)
                .scheduleLag(offeredPerSecond == null ? null : lag.snapshot())
                .build();
    }

    /** Joins {@code t}, retrying through interrupts (each runs {@code onInterrupt}); returns whether one happened. */
    static boolean joinUninterruptibly(Thread t, Runnable onInterrupt) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
                onInterrupt.run();
            }
        }
    }

    /** What {@code run} threw, or null if it returned or has not run; never waits. */
    static Throwable crashOf(Future<?> run) {
        if (!run.isDone()) {
            return null; // a phase the run stopped before
        }
        try {
            run.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) { // not thrown: get() on a done future does not wait
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
