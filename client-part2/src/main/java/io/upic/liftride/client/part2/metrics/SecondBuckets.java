package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.part2.csv.AttemptChunk;
import java.util.Arrays;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Per-second buckets for the time charts, indexed by the second (since the run's clock started) in
 * which an attempt <em>completed</em> (start + latency): attempts, 201s, failed attempts, latency sum
 * and a small histogram (2 significant digits) for the second's percentiles. Arrays grow by doubling,
 * so a long run costs a few KB per second, independent of the request rate.
 *
 * <p>Fed on the CSV writer thread, which already sees every attempt in chunks, so the buckets cost
 * the workers nothing and need no per-worker copies to merge; read after that thread was joined.
 * Not thread-safe otherwise.
 */
public final class SecondBuckets implements Consumer<AttemptChunk> {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private volatile long originNanos;
    private volatile boolean originSet;
    private int seconds;
    private long[] attempts = new long[64];
    private long[] successful = new long[64];
    private long[] failed = new long[64];
    private long[] sumMicros = new long[64];
    private Histogram[] histograms = new Histogram[64];
    /** Open model: the second's latencies from the intended send; null entries in the closed model. */
    private Histogram[] fromIntended = new Histogram[64];

    private long[] fromIntendedSumMicros = new long[64];

    /** The run's clock origin ({@code System.nanoTime()} at its start); set before any attempt. */
    public void setOrigin(long nanos) {
        originNanos = nanos;
        originSet = true;
    }

    @Override
    public void accept(AttemptChunk c) {
        if (!originSet) {
            throw new IllegalStateException("setOrigin() was not called before the first attempt");
        }
        long origin = originNanos;
        for (int i = 0, n = c.size(); i < n; i++) {
            add(c.startNanos(i) - origin, c.latencyMicros(i), c.code(i), c.sendDelayMicros(i));
        }
    }

    /** One attempt that started {@code startOffsetNanos} after the origin. */
    public void add(long startOffsetNanos, int latencyMicros, int code) {
        add(startOffsetNanos, latencyMicros, code, -1);
    }

    /**
     * One attempt that started {@code startOffsetNanos} after the origin and, in the open model,
     * {@code sendDelayMicros >= 0} after its request's intended send (-1 in the closed model).
     */
    public void add(long startOffsetNanos, int latencyMicros, int code, int sendDelayMicros) {
        long end = Math.max(0, startOffsetNanos + latencyMicros * 1_000L);
        int s = (int) Math.min(end / NANOS_PER_SECOND, Integer.MAX_VALUE - 8);
        ensure(s + 1);
        if (s >= seconds) {
            seconds = s + 1;
        }
        attempts[s]++;
        if (code == AttemptCodes.SUCCESS) {
            successful[s]++;
        } else {
            failed[s]++;
        }
        sumMicros[s] += latencyMicros;
        Histogram h = histograms[s];
        if (h == null) {
            histograms[s] = h = LatencyHistograms.forSecond();
        }
        h.recordValue(Math.max(0, latencyMicros));
        if (sendDelayMicros >= 0) {
            long fromIntendedMicros = (long) sendDelayMicros + Math.max(0, latencyMicros);
            Histogram f = fromIntended[s];
            if (f == null) {
                fromIntended[s] = f = LatencyHistograms.forSecond();
            }
            f.recordValue(fromIntendedMicros);
            fromIntendedSumMicros[s] += fromIntendedMicros;
        }
    }

    private void ensure(int n) {
        if (n <= attempts.length) {
            return;
        }
        int len = Math.max(n, attempts.length * 2);
        attempts = Arrays.copyOf(attempts, len);
        successful = Arrays.copyOf(successful, len);
        failed = Arrays.copyOf(failed, len);
        sumMicros = Arrays.copyOf(sumMicros, len);
        histograms = Arrays.copyOf(histograms, len);
        fromIntended = Arrays.copyOf(fromIntended, len);
        fromIntendedSumMicros = Arrays.copyOf(fromIntendedSumMicros, len);
    }

    /** The width of a bucket in nanoseconds. */
    public long bucketNanos() {
        return NANOS_PER_SECOND;
    }

    /** Seconds covered: 1 + the last second with an attempt (0 if none). */
    public int seconds() {
        return seconds;
    }

    public long attempts(int second) {
        return attempts[second];
    }
    /** Attempts that completed with a 201 in this second: completed requests. */
    public long successful(int second) {
        return successful[second];
    }
    /** Attempts that completed without a 201 in this second. */
    public long failed(int second) {
        return failed[second];
    }

    /** Mean latency of the second's attempts in ms, NaN if none. */
    public double meanMillis(int second) {
        return attempts[second] == 0 ? Double.NaN : sumMicros[second] / 1000.0 / attempts[second];
    }

    /** The second's latency at {@code percentile} in ms (HdrHistogram semantics, 2 digits), NaN if none. */
    public double percentileMillis(int second, double percentile) {
        Histogram h = histograms[second];
        return h == null || h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    /** Sum of the second's attempt latencies in µs (what its mean divides). */
    public long latencySumMicros(int second) {
        return sumMicros[second];
    }

    /** The second's latency histogram (µs, 2 digits), or null if no attempt completed in it; do not modify. */
    public Histogram histogram(int second) {
        return histograms[second];
    }

    /**
     * Adds a whole second's counts and histogram into second {@code second}: how a merge of shards sums their
     * seconds on one timeline. {@code histogram} may be null when {@code attempts} is 0.
     */
    public void addSecond(
            int second, long attempts, long successful, long failed, long sumMicros, Histogram histogram) {
        if (second < 0) {
            throw new IllegalArgumentException("second < 0: " + second);
        }
        ensure(second + 1);
        if (second >= seconds) {
            seconds = second + 1;
        }
        this.attempts[second] += attempts;
        this.successful[second] += successful;
        this.failed[second] += failed;
        this.sumMicros[second] += sumMicros;
        if (histogram != null && histogram.getTotalCount() > 0) {
            Histogram h = histograms[second];
            if (h == null) {
                histograms[second] = h = LatencyHistograms.forSecond();
            }
            h.add(histogram);
        }
    }

    /**
     * Open model: the second's latency from the intended send at {@code percentile} in ms (2 digits); NaN in the
     * closed model or for a second without attempts.
     */
    public double fromIntendedPercentileMillis(int second, double percentile) {
        Histogram h = fromIntended[second];
        return h == null || h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    /** Open model: the second's mean latency from the intended send in ms; NaN as above. */
    public double fromIntendedMeanMillis(int second) {
        Histogram h = fromIntended[second];
        return h == null || h.getTotalCount() == 0
                ? Double.NaN
                : fromIntendedSumMicros[second] / 1000.0 / h.getTotalCount();
    }

    /** Whether any attempt carried an intended send (the open model). */
    public boolean hasFromIntended() {
        for (int s = 0; s < seconds; s++) {
            if (fromIntended[s] != null) {
                return true;
            }
        }
        return false;
    }

    /** Sum of attempts over all seconds. */
    public long totalAttempts() {
        long sum = 0;
        for (int s = 0; s < seconds; s++) {
            sum += attempts[s];
        }
        return sum;
    }

    /** Sum of failed attempts over all seconds. */
    public long totalFailed() {
        long sum = 0;
        for (int s = 0; s < seconds; s++) {
            sum += failed[s];
        }
        return sum;
    }
}
