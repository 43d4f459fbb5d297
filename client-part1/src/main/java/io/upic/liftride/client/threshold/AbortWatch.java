package io.upic.liftride.client.threshold;

import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.engine.LiveFigures;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * {@code --abort-on-fail}: stops a run as soon as a threshold can no longer hold ({@link ThresholdOutlook}),
 * judged every {@link #INTERVAL_NANOS} after the delay. Wraps the run's listener; its thread only reads counters,
 * so nothing on the request path waits for it. {@link #attach} before the run, {@link #abort()} after it.
 */
public final class AbortWatch implements AttemptListener {

    /** How often the thresholds are judged. */
    static final long INTERVAL_NANOS = 100_000_000L;

    private final List<Threshold> thresholds;
    private final long delayNanos;
    private final long plannedRequests;
    private final AttemptListener listener;
    /** Created on the run's thread before the clock starts; read by the watch thread, which starts after. */
    private final List<WorkerTally> workers = new ArrayList<>();

    private Supplier<List<LiveFigures>> live = List::of;
    private Runnable stop = () -> {};
    private long startNanos;
    private long startEpochMillis;
    private Thread thread;
    private volatile boolean ended;
    private volatile Abort abort;

    /**
     * @param thresholds      the run's thresholds, in the order given (the first that can no longer hold is named)
     * @param delay           how long after the run's start they are first judged
     * @param plannedRequests the requests of the run's plan
     * @param listener        the run's own listener
     */
    public AbortWatch(List<Threshold> thresholds, Duration delay, long plannedRequests, AttemptListener listener) {
        this.thresholds = List.copyOf(thresholds);
        this.delayNanos = delay.toNanos();
        this.plannedRequests = plannedRequests;
        this.listener = listener;
    }

    /** Where the run's live figures come from, and what stops it ({@code LoadEngine::live}, {@code ::stop}). */
    public void attach(Supplier<List<LiveFigures>> live, Runnable stop) {
        this.live = live;
        this.stop = stop;
    }

    /** Why and when the run was stopped; null if it was not (or has not been yet). */
    public Abort abort() {
        return abort;
    }

    @Override
    public AttemptRecorder recorder(ThreadAssignment assignment) {
        WorkerTally w = new WorkerTally(listener.recorder(assignment), thresholds);
        workers.add(w);
        return w;
    }

    @Override
    public void onRunStart(LoadPlan plan, long epochMillis, long nanos) {
        listener.onRunStart(plan, epochMillis, nanos);
        startNanos = nanos;
        startEpochMillis = epochMillis;
        thread = new Thread(this::watch, "liftride-abort-on-fail");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void onPhaseStart(int phaseIndex, String phaseName, long epochMillis, long nanos) {
        listener.onPhaseStart(phaseIndex, phaseName, epochMillis, nanos);
    }

    @Override
    public void onPhaseEnd(int phaseIndex, String phaseName, long epochMillis, long nanos) {
        listener.onPhaseEnd(phaseIndex, phaseName, epochMillis, nanos);
    }

    @Override
    public BackgroundTask backgroundTask() {
        return listener.backgroundTask();
    }

    /** Ends the watch (waiting for its thread, so {@link #abort()} is final), then passes the result on. */
    @Override
    public void onRunEnd(RunResult result) {
        ended = true;
        if (thread != null) {
            LockSupport.unpark(thread);
            boolean interrupted = false;
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        listener.onRunEnd(result);
    }

    private void watch() {
        do {
            LockSupport.parkNanos(INTERVAL_NANOS);
        } while (!ended && !judge(System.nanoTime()));
    }

    /** Judges the thresholds at {@code nowNanos}; stops the run and returns true when one can no longer hold. */
    boolean judge(long nowNanos) {
        long elapsed = nowNanos - startNanos;
        if (elapsed < delayNanos) {
            return false;
        }
        long[] tallies = new long[thresholds.size()];
        long retries = 0;
        for (WorkerTally w : workers) {
            for (int i = 0; i < tallies.length; i++) {
                tallies[i] += w.tally(i);
            }
            retries += w.retries(); // after the tallies: never fewer retries than they counted
        }
        List<LiveFigures> figures = live.get();
        long failed = figures.stream().mapToLong(LiveFigures::failed).sum();
        if (figures.stream().mapToLong(LiveFigures::sent).sum() >= plannedRequests) {
            return false; // nothing left to save
        }
        ThresholdOutlook.SoFar soFar = new ThresholdOutlook.SoFar(plannedRequests, retries, failed, elapsed);
        for (int i = 0; i < tallies.length; i++) {
            String why = ThresholdOutlook.whyLost(thresholds.get(i), tallies[i], soFar);
            if (why != null) {
                abort = new Abort(thresholds.get(i).expr(), why, elapsed, startEpochMillis + elapsed / 1_000_000);
                stop.run();
                return true;
            }
        }
        return false;
    }
}
