package io.upic.liftride.client.threshold;

import java.util.List;

/**
 * What a client can measure, known before the run, so that a threshold on a metric it does not measure is a
 * bad flag (exit 2) and not a FAIL at the end. Implementations are immutable, thread-safe.
 */
@FunctionalInterface
public interface MetricCatalog {

    /** The flag thresholds come from, as messages name it. */
    String FLAG = "--threshold";

    /** Null when the client measures {@code metric}, else why not (one clause, for a usage message). */
    String whyNotMeasured(Metric metric);

    /** client-part1's counters: failed, throughput and the mean latency; no percentile, max or intended latency. */
    static MetricCatalog clientPart1() {
        return m -> {
            if (m.intended()) {
                return "client-part1 keeps no latency from the intended send; use client-part2 with --rate";
            }
            if (m.kind() == Metric.Kind.PERCENTILE || m.kind() == Metric.Kind.MAX) {
                return "client-part1 measures no percentiles or maximum (only mean, failed, throughput);"
                        + " use client-part2";
            }
            return null;
        };
    }

    /** A client with HdrHistograms: every metric; {@code intended.*} only in the open model. */
    static MetricCatalog histograms(boolean openModel) {
        return m -> m.intended() && !openModel
                ? m.label() + " needs --rate: the latency from the intended send exists only in the open model"
                : null;
    }

    /** The usage error for the first threshold this client cannot check, or null. */
    default String unmeasurable(List<Threshold> thresholds) {
        for (Threshold t : thresholds) {
            String why = whyNotMeasured(t.metric());
            if (why != null) {
                return FLAG + " " + t.expr() + " cannot be checked: " + why;
            }
        }
        return null;
    }
}
