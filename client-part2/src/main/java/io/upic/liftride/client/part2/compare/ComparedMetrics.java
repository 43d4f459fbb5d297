package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.threshold.Metric;
import java.util.List;
import java.util.Locale;

/**
 * The metrics {@code compare} shows, in table order, with the direction that makes each one worse and how its
 * value is written. Names are the thresholds' ({@link Metric#label()}): {@code throughput}, {@code mean},
 * {@code p50} ... {@code p99.9}, {@code max}, {@code failed}, and {@code intended.*} for the latencies from the
 * intended send of the open model. Static and thread-safe.
 */
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
