package io.upic.liftride.client.engine;

import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.function.BooleanSupplier;

/**
 * The engine's extension point: observes a run without changing it. {@link #recorder(ThreadAssignment)},
 * {@link #onRunStart}, {@link #onPhaseStart} and {@link #onRunEnd} run on the thread that called {@link
 * LoadEngine#run()}, in that order; {@link #onPhaseEnd} runs on a worker thread and must be thread-safe.
 * {@link #onRunEnd} runs after every worker was joined, so merging per-worker state needs no locks.
 */
public interface AttemptListener {

    /** Observes nothing. */
    AttemptListener NONE = assignment -> AttemptRecorder.NONE;

    /**
     * A recorder for one worker, called once per worker before the run starts.
     *
     * @param assignment the worker's phase index and name, thread index, skier range and request count
     */
    AttemptRecorder recorder(ThreadAssignment assignment);

    /**
     * The run's clock starts (just before Phase 1's threads are started).
     *
     * @param plan        what will run
     * @param epochMillis {@code System.currentTimeMillis()} at the start
     * @param nanos       {@code System.nanoTime()} at the start: the origin of every nanos value
     */
    default void onRunStart(LoadPlan plan, long epochMillis, long nanos) {}

    /** Phase {@code phaseIndex} is about to start its threads. */
    default void onPhaseStart(int phaseIndex, String phaseName, long epochMillis, long nanos) {}

    /** The last thread of phase {@code phaseIndex} finished (on that thread). */
    default void onPhaseEnd(int phaseIndex, String phaseName, long epochMillis, long nanos) {}

    /** A task needing its own thread during the run, joined before {@link #onRunEnd}; null for none. */
    default BackgroundTask backgroundTask() {
        return null;
    }

    /** Every worker has finished and been joined; {@code result} is the merged account. */
    default void onRunEnd(RunResult result) {}

    /** Work run by the engine on its own thread for the length of a run. */
    @FunctionalInterface
    interface BackgroundTask {

        /** Runs until {@code workersDone} and nothing is left; a throw goes to {@link RunResult#problems()}. */
        void run(BooleanSupplier workersDone) throws Exception;
    }
}
