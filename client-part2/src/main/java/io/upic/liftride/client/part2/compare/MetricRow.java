package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.threshold.Metric;
import java.util.Locale;
import java.util.Objects;

/**
 * One metric of one scope compared: both sides' spreads, the change of the candidate's median against the
 * baseline's, and the verdict against the band. Immutable and thread-safe.
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

    public MetricRow {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(verdict, "verdict");
    }

    /** Past the band the wrong way: {@link Verdict#REGRESSION} when {@code gated}, else WORSE. */
    public static MetricRow judge(Metric metric, Spread baseline, Spread candidate, double band, boolean gated) {
        if (baseline == null || candidate == null) {
            return new MetricRow(metric, baseline, candidate, Double.NaN, band, Verdict.NOT_MEASURED);
        }
        double change = change(baseline.median(), candidate.median());
        double worse = ComparedMetrics.higherIsWorse(metric) ? change : -change;
        Verdict v;
        if (band == Double.POSITIVE_INFINITY) {
            v = Verdict.NOT_GATED;
        } else if (worse > band) {
            v = gated ? Verdict.REGRESSION : Verdict.WORSE;
        } else if (-worse > band) {
            v = Verdict.BETTER;
        } else {
            v = Verdict.WITHIN;
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

    /** A value of this row's metric as the tables write it. */
    public String format(double v) {
        return ComparedMetrics.format(metric, v);
    }

    /** One side's value(s) as the tables write them, {@code -} when missing. */
    public String text(Spread s) {
        return s == null ? "-" : s.text(this::format);
    }

    /** The metric and its unit: {@code p99 (ms)}. */
    public String label() {
        return metric.label() + " (" + ComparedMetrics.unit(metric) + ")";
    }
}
