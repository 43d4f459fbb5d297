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
    /** Sends per lag bucket ({@link #bucket}): enough for a percentile within about 3%. */
    private final int[] buckets = new int[BUCKETS];

    /** Exact below 64 µs (1.024 µs units), then 32 buckets per doubling up to 2^40 units (about 13 days). */
    private static final int BUCKETS = 64 + 35 * 32;

    /** One send, {@code lagNanos >= 0} after its intended time {@code intendedNanos}. */
    void record(long intendedNanos, long lagNanos) {
        sends++;
        sumNanos += lagNanos;
        if (lagNanos > maxNanos) {
            maxNanos = lagNanos;
        }
        buckets[bucket(lagNanos)]++;
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
        for (int i = 0; i < BUCKETS; i++) {
            buckets[i] += other.buckets[i];
        }
    }

    /** An immutable copy. */
    public Snapshot snapshot() {
        return new Snapshot(sends, sumNanos, maxNanos, lateSends, lastLateIntendedNanos, p99Nanos());
    }

    /** The lag that 99% of the sends did not exceed: its bucket's upper bound, at most the max; 0 without sends. */
    private long p99Nanos() {
        long rank = (long) Math.ceil(sends * 0.99);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += buckets[i];
            if (seen >= rank && seen > 0) {
                return Math.min(maxNanos, upperNanos(i));
            }
        }
        return 0;
    }

    static int bucket(long lagNanos) {
        long units = Math.min(lagNanos >> 10, (1L << 40) - 1);
        if (units < 64) {
            return (int) units;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(units); // 6..39
        return 64 + (exponent - 6) * 32 + (int) ((units >> (exponent - 5)) & 31);
    }

    /** The largest lag in nanoseconds that falls in {@code bucket}. */
    static long upperNanos(int bucket) {
        if (bucket < 64) {
            return ((bucket + 1L) << 10) - 1;
        }
        int exponent = (bucket - 64) / 32 + 6;
        long units = (32L + (bucket - 64) % 32 + 1) << (exponent - 5);
        return (units << 10) - 1;
    }

    /**
     * Lag of a set of sends. Immutable.
     *
     * @param lateSends             sends more than {@link #LATE_NANOS} behind their schedule
     * @param lastLateIntendedNanos intended time (nanoTime) of the last late send, 0 if none
     * @param p99Nanos              the lag 99% of the sends did not exceed (within about 3%)
     */
    public record Snapshot(
            long sends, long sumNanos, long maxNanos, long lateSends, long lastLateIntendedNanos, long p99Nanos) {

        /** Mean lag in nanoseconds, 0 without sends. */
        public double meanNanos() {
            return sends == 0 ? 0 : (double) sumNanos / sends;
        }
    }
}
