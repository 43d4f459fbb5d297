package io.upic.liftride.client.engine;

import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.function.BooleanSupplier;

/**
 * The engine's extension point: observes a run without changing it. client-part2 plugs its
 * per-attempt CSV, histograms and per-second buckets in here; part1 itself needs none.
 *
 * <p>Threading: {@link #recorder(ThreadAssignment)}, {@link #onRunStart}, {@link #onPhaseStart} and
 * {@link #onRunEnd} are called on the thread that called {@link LoadEngine#run()}, in that order
 * per run. {@link #onPhaseEnd} is called on the worker thread that finished its phase last, so it may
 * run concurrently with attempts of other phases; implementations make it thread-safe (it is rare:
 * once per phase). All recorders are created before the run's clock starts, and
 * {@link #onRunEnd} runs after every worker thread has been joined, so merging per-worker state
 * there needs no locks.
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

    /**
     * Optional work that needs a thread of its own during the run, such as a CSV writer draining
     * per-worker buffers; null (the default) for none. The engine owns that thread: it starts it after
     * every recorder is created and before the clock starts, and joins it after all workers have
     * finished and before {@link #onRunEnd}, so whatever the task wrote is complete by then.
     */
    default BackgroundTask backgroundTask() {
        return null;
    }

    /** Every worker has finished and been joined; {@code result} is the merged account. */
    default void onRunEnd(RunResult result) {}

    /** Work run by the engine on its own thread for the length of a run. */
    @FunctionalInterface
    interface BackgroundTask {

        /**
         * Runs until {@code workersDone} is true and nothing is left to do, then returns. The engine
         * unparks the thread when the workers are done, so the task may wait with
         * {@link java.util.concurrent.locks.LockSupport#parkNanos} (bounded, as unparks can come early).
         * An exception ends the task and is reported in {@link RunResult#problems()}.
         */
        void run(BooleanSupplier workersDone) throws Exception;
    }
}
