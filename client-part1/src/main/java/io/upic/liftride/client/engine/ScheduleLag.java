package io.upic.liftride.client.engine;

/**
 * How far behind its schedule the open model fell: per send, the time from the intended send to the actual one.
 * One instance per worker, written by it alone; {@link #add(ScheduleLag)} merges after the workers were joined.
 * Not thread-safe.
 */
public final class ScheduleLag {

    /** A send later than this counts as late ({@link #lateSends()}): the client, not the server, set its pace. */
    public static final long LATE_NANOS = 1_000_000;

    private long sends;
    private long sumNanos;
    private long maxNanos;
    private long lateSends;
    private long lastLateIntendedNanos;

    /** One send, {@code lagNanos >= 0} after its intended time {@code intendedNanos}. */
    void record(long intendedNanos, long lagNanos) {
        sends++;
        sumNanos += lagNanos;
        if (lagNanos > maxNanos) {
            maxNanos = lagNanos;
        }
        if (lagNanos > LATE_NANOS) {
            lateSends++;
            if (intendedNanos > lastLateIntendedNanos) {
                lastLateIntendedNanos = intendedNanos;
            }
        }
    }

    /** Adds {@code other} into this. */
    public void add(ScheduleLag other) {
        sends += other.sends;
        sumNanos += other.sumNanos;
        maxNanos = Math.max(maxNanos, other.maxNanos);
        lateSends += other.lateSends;
        lastLateIntendedNanos = Math.max(lastLateIntendedNanos, other.lastLateIntendedNanos);
    }

    /** An immutable copy. */
    public Snapshot snapshot() {
        return new Snapshot(sends, sumNanos, maxNanos, lateSends, lastLateIntendedNanos);
    }

    /**
     * Lag of a set of sends. Immutable.
     *
     * @param sends                 scheduled sends (first attempts)
     * @param sumNanos              sum of their lags
     * @param maxNanos              the largest lag
     * @param lateSends             sends more than {@link #LATE_NANOS} behind their schedule
     * @param lastLateIntendedNanos intended time (nanoTime) of the last late send, 0 if none
     */
    public record Snapshot(long sends, long sumNanos, long maxNanos, long lateSends, long lastLateIntendedNanos) {

        /** Mean lag in nanoseconds, 0 without sends. */
        public double meanNanos() {
            return sends == 0 ? 0 : (double) sumNanos / sends;
        }
    }
}
