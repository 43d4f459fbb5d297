package io.upic.liftride.client.engine;

/**
 * The open model's timetable for one worker: request {@code i} is due at {@code first + i x interval}, so a late
 * request never shifts the ones after it. Immutable and thread-safe.
 *
 * @param firstNanos    {@code System.nanoTime()} value at which request 0 is due
 * @param intervalNanos time between two of this worker's requests
 */
public record SendSchedule(long firstNanos, long intervalNanos) implements Timetable {

    public SendSchedule {
        if (intervalNanos < 1) {
            throw new IllegalArgumentException("intervalNanos < 1: " + intervalNanos);
        }
    }

    /**
     * The schedule of thread {@code threadIndex} of {@code phaseThreads} that starts at {@code startNanos}: its
     * first request is due after {@code threadIndex / phaseThreads} of an interval, so the threads of a phase take
     * turns instead of firing together.
     */
    public static SendSchedule forThread(long startNanos, long intervalNanos, int threadIndex, int phaseThreads) {
        if (threadIndex < 0 || threadIndex >= phaseThreads) {
            throw new IllegalArgumentException("threadIndex not in 0.." + (phaseThreads - 1) + ": " + threadIndex);
        }
        long offset = (long) ((double) intervalNanos * threadIndex / phaseThreads);
        return new SendSchedule(startNanos + offset, intervalNanos);
    }

    /** When request {@code i} (0-based) of this worker is due. */
    @Override
    public long intendedNanos(long i) {
        return firstNanos + i * intervalNanos;
    }
}
