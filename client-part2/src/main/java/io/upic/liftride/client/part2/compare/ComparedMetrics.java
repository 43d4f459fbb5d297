package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.report.RunSummary.Latency;
import io.upic.liftride.client.threshold.Metric;
import java.util.List;
import java.util.Locale;

/** The metrics {@code compare} shows, with the direction that makes each worse. Thread-safe. */
public final class ComparedMetrics {

    /** The latency statistics a summary carries, from the actual send. */
    public static final List<Metric> LATENCIES = List.of(
            Metric.MEAN,
            Metric.percentile(50),
            Metric.percentile(90),
            Metric.percentile(99),
            Metric.percentile(99.9),
            Metric.MAX);

    /** Every metric of the closed model, in table order. */
    public static final List<Metric> ACTUAL = List.of(
            Metric.THROUGHPUT,
            LATENCIES.get(0),
            LATENCIES.get(1),
            LATENCIES.get(2),
            LATENCIES.get(3),
            LATENCIES.get(4),
            LATENCIES.get(5),
            Metric.FAILED);

    /** The latencies from the intended send (open model, {@code --rate}), in table order. */
    public static final List<Metric> INTENDED =
            LATENCIES.stream().map(Metric::fromIntended).toList();

    /** What a band may name, as messages say it. */
    public static final String NAMES =
            "throughput, mean, p50, p90, p99, p99.9, max, failed, or intended. before mean, p50 ... max";

    private ComparedMetrics() {}

    /**
     * The value of {@code m} in the table's unit ({@link #unit}) from a scope's numbers as a summary gives them;
     * null when not measured (a latency the scope has none of: client-part1's phases, the closed model's intended).
     */
    public static Double value(Metric m, double throughput, long failed, Latency latency, Latency intended) {
        Latency l = m.intended() ? intended : latency;
        return switch (m.kind()) {
            case THROUGHPUT -> Double.valueOf(throughput); // boxed, so that no arm unboxes a null
            case FAILED -> Double.valueOf(failed);
            case MEAN -> l == null ? null : l.mean();
            case MAX -> l == null ? null : l.max();
            case PERCENTILE -> l == null ? null : capped(percentile(l, m.percentile()), l.max());
        };
    }

    private static Double percentile(Latency l, double p) {
        return p == 50 ? l.p50() : p == 90 ? l.p90() : p == 99 ? l.p99() : p == 99.9 ? l.p999() : null;
    }

    /** Percentiles are shown at most the exact max, whatever a summary holds (a bucket's edge can lie above it). */
    private static Double capped(Double v, Double max) {
        return v == null || max == null ? v : Double.valueOf(Math.min(v, max));
    }

    /** Whether compare shows {@code m}. */
    public static boolean shown(Metric m) {
        return ACTUAL.contains(m) || INTENDED.contains(m);
    }

    /** Whether a higher value is worse: every latency and failed; throughput is worse lower. */
    public static boolean higherIsWorse(Metric m) {
        return m.kind() != Metric.Kind.THROUGHPUT;
    }

    /** The unit the table writes the value in: {@code req/s}, {@code ms}, {@code requests}. */
    public static String unit(Metric m) {
        return m.latency() ? "ms" : m.kind() == Metric.Kind.FAILED ? "requests" : "req/s";
    }

    /** One value as the tables write it: {@code 5,123.4} req/s, {@code 1.234} ms, {@code 12} requests. */
    public static String format(Metric m, double v) {
        if (m.latency()) {
            return String.format(Locale.US, v >= 100 ? "%,.1f" : "%.3f", v);
        }
        if (m.kind() == Metric.Kind.FAILED) {
            return v == Math.rint(v) ? String.format(Locale.US, "%,d", (long) v) : String.format(Locale.US, "%,.1f", v);
        }
        return String.format(Locale.US, "%,.1f", v);
    }
}
