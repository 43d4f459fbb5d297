package io.upic.liftride.client.threshold;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * One threshold checked against a finished run. Immutable and thread-safe.
 *
 * @param threshold the condition
 * @param measured  the metric's value in its native unit (nanoseconds for a latency); NaN when not measured
 *                  or undefined (the mean of no attempts), which fails
 * @param passed    whether the measured value meets the threshold
 */
public record ThresholdResult(Threshold threshold, double measured, boolean passed) {

    /** Checks {@code threshold} against {@code source}; a metric the source lacks is NaN, so FAIL. */
    public static ThresholdResult check(Threshold threshold, MetricSource source) {
        MetricSource measured = threshold.operation() == null
                ? source
                : source.operation(threshold.operation()).orElse(metric -> OptionalDouble.empty());
        double v = measured.value(threshold.metric()).orElse(Double.NaN);
        return new ThresholdResult(threshold, v, threshold.holds(v));
    }

    /** The measured value in {@link Threshold#unit} (milliseconds for a latency); NaN when unknown. */
    public double displayValue() {
        return Threshold.displayValue(threshold.metric(), measured);
    }

    /** "PASS  p99<50ms  (measured 3.214 ms)"; a latency to the microsecond, throughput to 0.1 req/s. */
    public String line() {
        String value;
        if (Double.isNaN(measured)) {
            value = "not measured";
        } else if (threshold.metric().latency()) {
            value = String.format(Locale.US, "measured %,.3f ms", displayValue());
        } else if (threshold.metric().kind() == Metric.Kind.FAILED) {
            value = String.format(Locale.US, "measured %,d requests", (long) measured);
        } else {
            value = String.format(Locale.US, "measured %,.1f req/s", measured);
        }
        return (passed ? "PASS" : "FAIL") + "  " + threshold.expr() + "  (" + value + ")";
    }
}
