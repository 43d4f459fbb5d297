package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.Operation;
import java.util.Arrays;

/**
 * One phase's requests of one operation so far ({@link LoadEngine#live()}): a live view, not the account, since
 * workers are read at slightly different moments ({@code inFlight} clamps at 0). Immutable (the arrays are copies).
 *
 * @param phaseIndex        0-based
 * @param phase             the phase's name
 * @param operation         the operation these requests sent
 * @param sent              requests whose first attempt has started
 * @param successful        requests answered their expected status
 * @param failed            requests that ended without it (after their retries)
 * @param retries           attempts after the first
 * @param failedByCause     failed requests per {@link Cause}, by ordinal
 * @param latencyBuckets    ended requests per latency bucket, by {@link #LATENCY_BOUNDS_NANOS} (the last: above all)
 * @param latencyNanosSum   the sum of their latencies from the intended send to the end of the last attempt
 */
public record LiveFigures(
        int phaseIndex,
        String phase,
        Operation operation,
        long sent,
        long successful,
        long failed,
        long retries,
        long[] failedByCause,
        long[] latencyBuckets,
        long latencyNanosSum) {

    /** Upper bounds of the latency buckets, 100 us to 10 s; a bucket above them takes the rest. */
    public static final long[] LATENCY_BOUNDS_NANOS = {
        100_000L,
        250_000L,
        500_000L,
        750_000L,
        1_000_000L,
        1_500_000L,
        2_000_000L,
        3_000_000L,
        5_000_000L,
        7_500_000L,
        10_000_000L,
        15_000_000L,
        25_000_000L,
        50_000_000L,
        100_000_000L,
        250_000_000L,
        500_000_000L,
        1_000_000_000L,
        2_500_000_000L,
        5_000_000_000L,
        10_000_000_000L
    };

    public LiveFigures {
        failedByCause = failedByCause.clone();
        latencyBuckets = latencyBuckets.clone();
    }

    /** Requests sent that have not ended yet. */
    public long inFlight() {
        return Math.max(0, sent - successful - failed);
    }

    /** Failed requests of {@code cause}. */
    public long failed(Cause cause) {
        return failedByCause[cause.ordinal()];
    }

    /** Why a request failed, coarsely: its last attempt's {@link AttemptCodes code} class. */
    public enum Cause {
        TIMEOUT("timeout"),
        CONNECTION("connection"),
        CLIENT("client"),
        STATUS_4XX("4xx"),
        STATUS_5XX("5xx"),
        OTHER("other");

        static final int COUNT = values().length;

        private final String label;

        Cause(String label) {
            this.label = label;
        }

        /** The label value: timeout, connection, client, 4xx, 5xx or other. */
        public String label() {
            return label;
        }

        /** The cause of a request that ended with {@code code} (not a success). */
        public static Cause of(int code) {
            return switch (code) {
                case AttemptCodes.TIMEOUT -> TIMEOUT;
                case AttemptCodes.CONNECTION_ERROR -> CONNECTION;
                case AttemptCodes.CLIENT_ERROR -> CLIENT;
                default -> code >= 400 && code < 500 ? STATUS_4XX : code >= 500 && code < 600 ? STATUS_5XX : OTHER;
            };
        }
    }

    /** The bucket of a latency: the first whose bound it does not exceed, else the last. */
    public static int bucketOf(long nanos) {
        int i = Arrays.binarySearch(LATENCY_BOUNDS_NANOS, nanos);
        return i >= 0 ? i : -i - 1;
    }

    /** A phase's figures being summed over its workers. Not thread-safe. */
    static final class Sums {
        private long sent, successful, failed, retries, latencyNanos;
        private final long[] causes = new long[Cause.COUNT];
        private final long[] buckets = new long[LATENCY_BOUNDS_NANOS.length + 1];

        void add(long sent, long successful, long failed, long retries, long latencyNanos) {
            this.sent += sent;
            this.successful += successful;
            this.failed += failed;
            this.retries += retries;
            this.latencyNanos += latencyNanos;
        }

        void failedBy(int cause, long n) {
            causes[cause] += n;
        }

        void bucket(int bucket, long n) {
            buckets[bucket] += n;
        }

        LiveFigures of(int phaseIndex, String phase, Operation operation) {
            return new LiveFigures(
                    phaseIndex, phase, operation, sent, successful, failed, retries, causes, buckets, latencyNanos);
        }
    }
}
