package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.threshold.Metric;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * How far a metric may move the wrong way before {@code compare} calls it a regression, as a fraction of the
 * baseline: one band for all and per-metric overrides, as {@code --max-regression} writes them ({@code 5%},
 * {@code p99=10%}, {@code max=off}). Immutable and thread-safe.
 *
 * @param perMetric bands of single metrics; {@link Double#POSITIVE_INFINITY} when {@code off}
 */
public record NoiseBand(double all, Map<Metric, Double> perMetric) {

    /** The band when no {@code --max-regression} is given: 10% on every metric. */
    public static final NoiseBand DEFAULT = new NoiseBand(0.10, Map.of());

    /** How the usage and the one-line errors describe a band. */
    public static final String RULE = "N% (every metric) or METRIC=N% or METRIC=off, comma-separated";

    private static final Pattern PERCENT = Pattern.compile("(\\d+(?:\\.\\d+)?)%");
    private static final String OFF = "off";

    public NoiseBand {
        perMetric = Map.copyOf(perMetric);
    }

    /**
     * The band the {@code --max-regression} values give ({@link #DEFAULT} when there are none); a later value
     * for the same metric (or for all) is refused, not silently taken.
     *
     * @throws IllegalArgumentException naming the form that is wrong and why
     */
    public static NoiseBand parse(List<String> values) {
        Double all = null;
        Map<Metric, Double> per = new LinkedHashMap<>();
        for (String value : values) {
            for (String part : value.split(",", -1)) {
                String form = part.trim();
                if (form.isEmpty()) {
                    throw new IllegalArgumentException("an empty band in the list " + value);
                }
                int eq = form.indexOf('=');
                if (eq < 0) {
                    if (all != null) {
                        throw new IllegalArgumentException("the band of every metric is given twice: " + form);
                    }
                    all = percent(form, form);
                    continue;
                }
                Metric m = metric(form.substring(0, eq).trim());
                String band = form.substring(eq + 1).trim();
                double f = band.equals(OFF) ? Double.POSITIVE_INFINITY : percent(band, form);
                if (per.put(m, f) != null) {
                    throw new IllegalArgumentException("the band of " + m + " is given twice");
                }
            }
        }
        return new NoiseBand(all == null ? DEFAULT.all() : all, per);
    }

    private static Metric metric(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no metric before '='; metrics: " + MetricRow.NAMES);
        }
        Metric m = Metric.parse(name);
        if (!MetricRow.shown(m)) {
            throw new IllegalArgumentException(
                    "compare shows no " + m + " (a summary has no such number); metrics: " + MetricRow.NAMES);
        }
        return m;
    }

    private static double percent(String text, String form) {
        Matcher p = PERCENT.matcher(text);
        if (p.matches()) {
            return Double.parseDouble(p.group(1)) / 100;
        }
        if (text.isEmpty()) {
            throw new IllegalArgumentException("an empty band in " + form);
        }
        throw new IllegalArgumentException(
                text.matches("\\d+(?:\\.\\d+)?")
                        ? "a band is a percentage: " + text + "%, not " + text
                        : "not a percentage (N%) or off: " + text);
    }

    /** The band of {@code m} as a fraction of the baseline; {@link Double#POSITIVE_INFINITY} when off. */
    public double of(Metric m) {
        Objects.requireNonNull(m, "m");
        return perMetric.getOrDefault(m, all);
    }

    /** A fraction as a band is written: 0.05 -> {@code 5%}, infinity -> {@code off}. */
    public static String text(double fraction) {
        if (fraction == Double.POSITIVE_INFINITY) {
            return OFF;
        }
        return BigDecimal.valueOf(fraction * 100).stripTrailingZeros().toPlainString() + "%";
    }

    /** The band as one line: {@code 5% on every metric; p99 10%, max off}, per-metric bands in table order. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        for (Metric m : Stream.concat(MetricRow.ACTUAL.stream(), MetricRow.INTENDED.stream())
                .toList()) {
            if (perMetric.containsKey(m)) {
                parts.add(m + " " + text(perMetric.get(m)));
            }
        }
        return text(all) + " on every metric" + (parts.isEmpty() ? "" : "; " + String.join(", ", parts));
    }
}
