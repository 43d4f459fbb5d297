package io.upic.liftride.client.engine;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Start/end bookkeeping of one phase: the latch that triggers the next phase and the count of
 * threads still running. Thread-safe; touched once per worker, never on the request path.
 */
final class PhaseTracker {

    private final int index;
    private final String name;
    private final CountDownLatch nextPhaseTrigger;
    private final AtomicInteger running = new AtomicInteger();
    private final AttemptListener listener;

    private volatile boolean started;
    private volatile long startEpochMillis;
    private volatile long startNanos;
    private volatile long endEpochMillis;
    private volatile long endNanos;
    private volatile RuntimeException listenerError;

    /**
     * @param triggerCount threads of this phase that must finish before the next phase starts
     *                     (0 for the last phase)
     */
    public PhaseTracker(int index, String name, int triggerCount, AttemptListener listener) {
        this.index = index;
        this.name = name;
        this.nextPhaseTrigger = new CountDownLatch(triggerCount);
        this.listener = listener;
    }

    /**
     * Called by the engine just before it starts the phase's {@code threads} threads. A phase without threads (a
     * shard's share of a phase with fewer threads than shards) ends here, as it starts.
     */
    public void starting(int threads, long epochMillis, long nanos) {
        running.set(threads);
        startEpochMillis = epochMillis;
        startNanos = nanos;
        started = true;
        if (threads == 0) {
            ended(epochMillis, nanos);
        }
    }

    /** Called by each worker exactly once, last thing, even if it crashed. */
    void workerFinished(long nanos) {
        nextPhaseTrigger.countDown();
        if (running.decrementAndGet() == 0) {
            ended(System.currentTimeMillis(), nanos);
        }
    }

    private void ended(long epochMillis, long nanos) {
        endEpochMillis = epochMillis;
        endNanos = nanos;
        try {
            listener.onPhaseEnd(index, name, endEpochMillis, endNanos);
        } catch (RuntimeException e) {
            listenerError = e; // reported with the run's problems instead of killing the worker
        }
    }

    /** Threads of this phase still running (0 before it starts and after it ends); for the progress display. */
    public int running() {
        return running.get();
    }

    /** The latch the engine awaits before starting the next phase. */
    public CountDownLatch nextPhaseTrigger() {
        return nextPhaseTrigger;
    }

    /** Releases the trigger at once (used by a stop, so the engine is not left waiting). */
    public void releaseTrigger() {
        while (nextPhaseTrigger.getCount() > 0) {
            nextPhaseTrigger.countDown();
        }
    }

    public int index() {
        return index;
    }

    public boolean started() {
        return started;
    }

    public long startEpochMillis() {
        return startEpochMillis;
    }

    public long startNanos() {
        return startNanos;
    }

    public long endEpochMillis() {
        return endEpochMillis;
    }

    public long endNanos() {
        return endNanos;
    }

    public RuntimeException listenerError() {
        return listenerError;
    }
}
