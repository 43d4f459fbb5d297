package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.report.RunSummary.Latency;
import io.upic.liftride.client.threshold.Metric;
import java.util.Objects;

/**
 * The numbers of one scope of one run as its summary gives them: the whole run or one phase. Latencies in
 * milliseconds as in {@code summary.json}. Immutable and thread-safe.
 *
 * @param name       "run" or the phase's name
 * @param throughput successful requests per second of the scope's duration
 * @param failed     requests that ended without a 201
 * @param latency    latency from the actual send; null when the summary has none for this scope (client-part1's
 *                   phases)
 * @param intended   latency from the intended send (open model); null otherwise
 */
public record ScopeNumbers(String name, double throughput, long failed, Latency latency, Latency intended) {

    public ScopeNumbers {
        Objects.requireNonNull(name, "name");
    }

    /** The value of {@code m} in the table's unit ({@link ComparedMetrics#unit}); null when not measured. */
    public Double value(Metric m) {
        return switch (m.kind()) {
            case THROUGHPUT -> throughput;
            case FAILED -> (double) failed;
            case MEAN, MAX, PERCENTILE -> latency(m.intended() ? intended : latency, m);
        };
    }

    private static Double latency(Latency l, Metric m) {
        if (l == null) {
            return null;
        }
        if (m.kind() == Metric.Kind.MEAN) {
            return l.mean();
        }
        if (m.kind() == Metric.Kind.MAX) {
            return l.max();
        }
        double p = m.percentile();
        Double v = p == 50 ? l.p50() : p == 90 ? l.p90() : p == 99 ? l.p99() : p == 99.9 ? l.p999() : null;
        // a summary written before percentiles were capped may hold one a histogram bucket above the exact max
        if (v == null || l.max() == null) {
            return v;
        }
        return Math.min(v, l.max());
    }
}
