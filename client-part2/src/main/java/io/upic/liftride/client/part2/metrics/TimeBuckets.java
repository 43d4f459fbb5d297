package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.part2.csv.AttemptChunk;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Time buckets for the charts over time, indexed by when an attempt completed: counts, latency sum and
 * 2-digit histograms. Buckets start {@value #FINE_MILLIS} ms wide, become 1 s past {@value #FINE_BUCKETS}
 * and then coalesce in pairs, so there are never more than {@value #MAX_BUCKETS}. Fed on the CSV writer
 * thread and read after it was joined; not thread-safe otherwise.
 */
public final class TimeBuckets implements Consumer<AttemptChunk> {

    /** The first width. */
    public static final long FINE_MILLIS = 100;
    /** Fine buckets kept before coalescing to 1 s. */
    public static final int FINE_BUCKETS = 600;
    /** Buckets kept at most. */
    public static final int MAX_BUCKETS = 3600;

    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long SECOND_NANOS = 1_000_000_000L;

    private volatile long originNanos;
    private volatile boolean originSet;
    private long widthNanos = FINE_MILLIS * NANOS_PER_MILLI;
    private int count;
    private long[] attempts = new long[64];
    private long[] successful = new long[64];
    private long[] failed = new long[64];
    private long[] sumMicros = new long[64];
    private Histogram[] histograms = new Histogram[64];
    /** The bucket's failed attempts' latencies (null where none): what a merge reads the failed counts from. */
    private Histogram[] failedHistograms = new Histogram[64];
    /** Open model: the bucket's latencies from the intended send; null entries in the closed model. */
    private Histogram[] fromIntended = new Histogram[64];

    private long[] fromIntendedSumMicros = new long[64];
    /** Failed attempts per bucket by their code (an HTTP status or an error kind), in code order. */
    private final TreeMap<Integer, long[]> failedByCode = new TreeMap<>();
    /** Each worker's first start and last completion (offsets in ns), keyed by phase and thread index. */
    private final Map<Long, long[]> threadSpans = new HashMap<>();

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
        int n = c.size();
        for (int i = 0; i < n; i++) {
            add(c.startNanos(i) - origin, c.latencyMicros(i), c.code(i), c.sendDelayMicros(i));
        }
        if (n > 0) {
            long[] span = threadSpans.computeIfAbsent(
                    ((long) c.phaseIndex() << 32) | c.threadIndex(), k -> new long[] {Long.MAX_VALUE, 0});
            span[0] = Math.min(span[0], c.startNanos(0) - origin);
            span[1] = Math.max(span[1], c.startNanos(n - 1) - origin + c.latencyMicros(n - 1) * 1_000L);
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
        int s = slot(Math.max(0, startOffsetNanos + latencyMicros * 1_000L));
        attempts[s]++;
        if (AttemptCodes.isSuccessStatus(code)) {
            successful[s]++;
        } else {
            failed[s]++;
            failedByCode.computeIfAbsent(code, k -> new long[attempts.length])[s]++;
            failedHistograms[s] = orNew(failedHistograms[s]);
            failedHistograms[s].recordValue(Math.max(0, latencyMicros));
        }
        sumMicros[s] += latencyMicros;
        histograms[s] = orNew(histograms[s]);
        histograms[s].recordValue(Math.max(0, latencyMicros));
        if (sendDelayMicros >= 0) {
            long fromIntendedMicros = (long) sendDelayMicros + Math.max(0, latencyMicros);
            fromIntended[s] = orNew(fromIntended[s]);
            fromIntended[s].recordValue(fromIntendedMicros);
            fromIntendedSumMicros[s] += fromIntendedMicros;
        }
    }

    /** A shard's log bucket whose middle is {@code offsetNanos} after this origin; nulls count empty. */
    public void add(long offsetNanos, Histogram all, Histogram failedAttempts, Histogram intended) {
        int s = slot(Math.max(0, offsetNanos));
        long n = all.getTotalCount(), bad = failedAttempts == null ? 0 : failedAttempts.getTotalCount();
        attempts[s] += n;
        failed[s] += bad;
        successful[s] += n - bad;
        sumMicros[s] += Math.round(all.getMean() * n);
        histograms[s] = sum(orNew(histograms[s]), all);
        failedHistograms[s] = sum(orNew(failedHistograms[s]), failedAttempts);
        if (intended != null) {
            fromIntended[s] = sum(orNew(fromIntended[s]), intended);
            fromIntendedSumMicros[s] += Math.round(intended.getMean() * intended.getTotalCount());
        }
    }

    /** The bucket of offset {@code nanos}, coalescing first if it lies past the buckets this width may have. */
    private int slot(long nanos) {
        long i = nanos / widthNanos;
        while (i >= limit()) {
            coalesce(widthNanos < SECOND_NANOS ? (int) Math.max(2, SECOND_NANOS / widthNanos) : 2);
            i = nanos / widthNanos;
        }
        int s = (int) i;
        ensure(s + 1);
        if (s >= count) {
            count = s + 1;
        }
        return s;
    }

    private int limit() {
        return widthNanos < SECOND_NANOS ? FINE_BUCKETS : MAX_BUCKETS;
    }

    /** Every {@code factor} neighbouring buckets become one {@code factor} times as wide. */
    private void coalesce(int factor) {
        int n = (count + factor - 1) / factor;
        for (int i = 0; i < count; i++) {
            int j = i / factor;
            if (i == j) {
                continue;
            }
            attempts[j] += attempts[i];
            successful[j] += successful[i];
            failed[j] += failed[i];
            sumMicros[j] += sumMicros[i];
            fromIntendedSumMicros[j] += fromIntendedSumMicros[i];
            histograms[j] = sum(histograms[j], histograms[i]);
            failedHistograms[j] = sum(failedHistograms[j], failedHistograms[i]);
            fromIntended[j] = sum(fromIntended[j], fromIntended[i]);
            for (long[] f : failedByCode.values()) {
                f[j] += f[i];
                f[i] = 0;
            }
            attempts[i] = successful[i] = failed[i] = sumMicros[i] = fromIntendedSumMicros[i] = 0;
            histograms[i] = fromIntended[i] = failedHistograms[i] = null;
        }
        count = n;
        widthNanos *= factor;
    }

    private static Histogram orNew(Histogram h) {
        return h == null ? LatencyHistograms.forSecond() : h;
    }

    private static Histogram sum(Histogram into, Histogram h) {
        if (h == null) {
            return into;
        }
        if (into == null) {
            return h;
        }
        into.add(h);
        return into;
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
        failedHistograms = Arrays.copyOf(failedHistograms, len);
        fromIntended = Arrays.copyOf(fromIntended, len);
        fromIntendedSumMicros = Arrays.copyOf(fromIntendedSumMicros, len);
        failedByCode.replaceAll((code, f) -> Arrays.copyOf(f, len));
    }

    /** The width of a bucket in nanoseconds (it grows as a long run is coalesced). */
    public long bucketNanos() {
        return widthNanos;
    }

    /** The width of a bucket in milliseconds. */
    public long bucketMillis() {
        return widthNanos / NANOS_PER_MILLI;
    }

    /** Buckets covered: 1 + the last bucket with an attempt (0 if none). */
    public int count() {
        return count;
    }

    public long attempts(int bucket) {
        return attempts[bucket];
    }
    /** Attempts that completed with a 201 in this bucket: completed requests. */
    public long successful(int bucket) {
        return successful[bucket];
    }
    /** Attempts that completed without a 201 in this bucket. */
    public long failed(int bucket) {
        return failed[bucket];
    }

    /** Mean latency of the bucket's attempts in ms, NaN if none. */
    public double meanMillis(int bucket) {
        return attempts[bucket] == 0 ? Double.NaN : sumMicros[bucket] / 1000.0 / attempts[bucket];
    }

    /** The bucket's latency at {@code percentile} in ms (HdrHistogram semantics, 2 digits), NaN if none. */
    public double percentileMillis(int bucket, double percentile) {
        return percentile(histograms[bucket], percentile);
    }

    private static double percentile(Histogram h, double percentile) {
        return h == null || h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    /** The bucket's latency histogram (µs, 2 digits), or null if no attempt completed in it; do not modify. */
    public Histogram histogram(int bucket) {
        return histograms[bucket];
    }

    /** The bucket's failed attempts' latencies (µs, 2 digits), or null if none failed in it; do not modify. */
    public Histogram failedHistogram(int bucket) {
        return failedHistograms[bucket];
    }

    /** Open model: the bucket's histogram from the intended send (µs), or null; do not modify. */
    public Histogram fromIntendedHistogram(int bucket) {
        return fromIntended[bucket];
    }

    /** Open model: sum of the bucket's latencies from the intended send in µs. */
    public long fromIntendedSumMicros(int bucket) {
        return fromIntendedSumMicros[bucket];
    }

    /** Open model: the bucket's intended latency at {@code percentile}, ms; NaN otherwise. */
    public double fromIntendedPercentileMillis(int bucket, double percentile) {
        return percentile(fromIntended[bucket], percentile);
    }

    /** Open model: the bucket's mean latency from the intended send in ms; NaN as above. */
    public double fromIntendedMeanMillis(int bucket) {
        Histogram h = fromIntended[bucket];
        return h == null || h.getTotalCount() == 0
                ? Double.NaN
                : fromIntendedSumMicros[bucket] / 1000.0 / h.getTotalCount();
    }

    /** Whether any attempt carried an intended send (the open model). */
    public boolean hasFromIntended() {
        for (int s = 0; s < count; s++) {
            if (fromIntended[s] != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Failed attempts per bucket by code, codes ascending, each array at least {@link #count()} long; empty for
     * a merge of shards. Do not modify.
     */
    public SortedMap<Integer, long[]> failedByCode() {
        return Collections.unmodifiableSortedMap(failedByCode);
    }

    /** Each worker's {@code {first start, last completion}} in ns per phase index; empty for a merge. */
    public Map<Integer, List<long[]>> threadSpans() {
        Map<Integer, List<long[]>> byPhase = new TreeMap<>();
        threadSpans.forEach((key, span) -> byPhase.computeIfAbsent((int) (key >>> 32), k -> new ArrayList<>())
                .add(span.clone()));
        return byPhase;
    }

    /** Sum of attempts over all buckets. */
    public long totalAttempts() {
        return Arrays.stream(attempts, 0, count).sum();
    }

    /** Sum of failed attempts over all buckets. */
    public long totalFailed() {
        return Arrays.stream(failed, 0, count).sum();
    }
}
