package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.report.RunSummary.Latency;
import io.upic.liftride.client.threshold.Metric;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One metric of one scope compared: both sides' spreads, the change of the candidate's median against the
 * baseline's, and the verdict against the band; with the metrics {@code compare} shows and how it writes them.
 * Immutable and thread-safe.
 *
 * @param metric    which metric
 * @param baseline  the baseline's value(s); null when no baseline run measured it
 * @param candidate the candidate's value(s); null when no candidate run measured it
 * @param change    (candidate - baseline) / baseline of the medians; 0 when both are 0, infinite when only the
 *                  baseline is 0, NaN when a side is missing
 * @param band      the band applied, a fraction ({@link Double#POSITIVE_INFINITY}: off)
 * @param verdict   what the change means
 */
public record MetricRow(Metric metric, Spread baseline, Spread candidate, double change, double band, Verdict verdict) {

    /** The latency statistics a summary carries, from the actual send. */
    public static final List<Metric> LATENCIES = List.of(
            Metric.MEAN,
            Metric.percentile(50),
            Metric.percentile(90),
            Metric.percentile(99),
            Metric.percentile(99.9),
            Metric.MAX);

    /** Every metric of the closed model, in table order. */
    public static final List<Metric> ACTUAL = concat(List.of(Metric.THROUGHPUT), LATENCIES, List.of(Metric.FAILED));

    /** The latencies from the intended send (open model, {@code --rate}), in table order. */
    public static final List<Metric> INTENDED =
            LATENCIES.stream().map(Metric::fromIntended).toList();

    /** What a band may name, as messages say it. */
    public static final String NAMES =
            "throughput, mean, p50, p90, p99, p99.9, max, failed, or intended. before mean, p50 ... max";

    /** What one metric's change means against its band, as the tables write it. */
    public enum Verdict {
        /** Moved the wrong way past its band in the whole run: sets exit code 3. */
        REGRESSION("REGRESSION"),
        /** Moved the wrong way past its band in a phase or an operation: shown, not gating. */
        WORSE("worse"),
        BETTER("better"),
        WITHIN("ok"),
        /** Its band is {@code off}. */
        NOT_GATED("not gated"),
        /** One side (or both) has no value for it. */
        NOT_MEASURED("n/a");

        public final String text;

        Verdict(String text) {
            this.text = text;
        }
    }

    /**
     * One metric over the runs of one side: their median (of an even count, the mean of the middle two) and range.
     *
     * @param runs how many runs gave a value (at least 1)
     */
    public record Spread(double median, double min, double max, int runs) {

        /** The spread of the values that are not null or NaN; null when none is (no run measured the metric). */
        public static Spread of(List<Double> values) {
            List<Double> v = new ArrayList<>(values);
            v.removeIf(d -> d == null || d.isNaN());
            if (v.isEmpty()) {
                return null;
            }
            Collections.sort(v);
            int n = v.size();
            double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
            return new Spread(median, v.get(0), v.get(n - 1), n);
        }
    }

    public MetricRow {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(verdict, "verdict");
    }

    @SafeVarargs
    private static List<Metric> concat(List<Metric>... parts) {
        List<Metric> all = new ArrayList<>();
        for (List<Metric> p : parts) {
            all.addAll(p);
        }
        return List.copyOf(all);
    }

    /** Past the band the wrong way: {@link Verdict#REGRESSION} when {@code gated}, else WORSE. */
    public static MetricRow judge(Metric metric, Spread baseline, Spread candidate, double band, boolean gated) {
        if (baseline == null || candidate == null) {
            return new MetricRow(metric, baseline, candidate, Double.NaN, band, Verdict.NOT_MEASURED);
        }
        double change = change(baseline.median(), candidate.median());
        double worse = metric.kind() == Metric.Kind.THROUGHPUT ? -change : change;
        Verdict v;
        if (band == Double.POSITIVE_INFINITY) {
            v = Verdict.NOT_GATED;
        } else if (worse > band) {
            v = gated ? Verdict.REGRESSION : Verdict.WORSE;
        } else {
            v = -worse > band ? Verdict.BETTER : Verdict.WITHIN;
        }
        return new MetricRow(metric, baseline, candidate, change, band, v);
    }

    /** The relative change from {@code base} to {@code cand}; 0 from 0 to 0, infinite from 0 to anything else. */
    static double change(double base, double cand) {
        if (base == 0) {
            return cand == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, cand);
        }
        return (cand - base) / Math.abs(base);
    }

    /**
     * The value of {@code m} in the table's unit from a scope's numbers as a summary gives them; null when not
     * measured. Percentiles are capped at the exact max, whatever a summary holds.
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

    private static Double capped(Double v, Double max) {
        return v == null || max == null ? v : Double.valueOf(Math.min(v, max));
    }

    /** Whether compare shows {@code m}. */
    public static boolean shown(Metric m) {
        return ACTUAL.contains(m) || INTENDED.contains(m);
    }

    /** The unit the table writes {@code m} in: {@code req/s}, {@code ms}, {@code requests}. */
    public static String unit(Metric m) {
        return m.latency() ? "ms" : m.kind() == Metric.Kind.FAILED ? "requests" : "req/s";
    }

    /** Whether this row sets exit code 3. */
    public boolean regression() {
        return verdict == Verdict.REGRESSION;
    }

    /** The change as the tables write it: {@code +4.3%}, {@code -12.0%}, {@code 0.0%}, {@code from 0}, {@code -}. */
    public String changeText() {
        if (Double.isNaN(change)) {
            return "-";
        }
        if (Double.isInfinite(change)) {
            return "from 0";
        }
        String pct = String.format(Locale.US, "%+.1f%%", change * 100);
        return pct.equals("-0.0%") || pct.equals("+0.0%") ? "0.0%" : pct;
    }

    /** One value as the tables write it: {@code 5,123.4} req/s, {@code 1.234} ms, {@code 12} requests. */
    public String format(double v) {
        if (metric.latency()) {
            return String.format(Locale.US, v >= 100 ? "%,.1f" : "%.3f", v);
        }
        if (metric.kind() == Metric.Kind.FAILED && v == Math.rint(v)) {
            return String.format(Locale.US, "%,d", (long) v);
        }
        return String.format(Locale.US, "%,.1f", v);
    }

    /** One side's median, its range {@code (min–max)} after it when the runs differ; {@code -} when missing. */
    public String text(Spread s) {
        if (s == null) {
            return "-";
        }
        return s.min() < s.max()
                ? format(s.median()) + " (" + format(s.min()) + "–" + format(s.max()) + ")"
                : format(s.median());
    }

    /** The metric and its unit: {@code p99 (ms)}. */
    public String label() {
        return metric.label() + " (" + unit(metric) + ")";
    }
}
