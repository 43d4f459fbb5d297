package io.upic.liftride.client.threshold;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One number a run measures and a {@link Threshold} can bound: a latency statistic (from the intended send with
 * {@code intended.}), failed requests or throughput. Latencies in nanoseconds, throughput in successful requests
 * per second. Immutable and thread-safe.
 *
 * @param percentile the percentile for {@link Kind#PERCENTILE}, in (0, 100]; 0 for the other kinds
 */
public record Metric(boolean intended, Kind kind, double percentile) {

    /** The statistics a threshold can name. */
    public enum Kind {
        PERCENTILE,
        MEAN,
        MAX,
        FAILED,
        THROUGHPUT
    }

    /** The prefix that selects the latency from the intended send. */
    public static final String INTENDED_PREFIX = "intended.";

    public static final Metric MEAN = new Metric(false, Kind.MEAN, 0);
    public static final Metric MAX = new Metric(false, Kind.MAX, 0);
    public static final Metric FAILED = new Metric(false, Kind.FAILED, 0);
    public static final Metric THROUGHPUT = new Metric(false, Kind.THROUGHPUT, 0);

    /** What {@link #parse} accepts, as messages say it. */
    public static final String NAMES =
            "pN (N in (0, 100], e.g. p50, p99.9), mean, max, failed, throughput, or intended. before a latency";

    private static final Pattern PERCENTILE = Pattern.compile("p(\\d+(?:\\.\\d+)?)");

    public Metric {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.PERCENTILE) {
            if (!(percentile > 0 && percentile <= 100)) {
                throw new IllegalArgumentException("percentile not in (0, 100]: " + percentile);
            }
        } else if (percentile != 0) {
            throw new IllegalArgumentException("percentile of a " + kind + " metric: " + percentile);
        }
        if (intended && (kind == Kind.FAILED || kind == Kind.THROUGHPUT)) {
            throw new IllegalArgumentException(INTENDED_PREFIX + " applies to latencies only, not " + kind);
        }
    }

    /**
     * The metric {@code name} names, as thresholds and {@code compare}'s bands write it: {@code p99}, {@code p99.9},
     * {@code mean}, {@code max}, {@code failed}, {@code throughput}, {@code intended.p99}.
     *
     * @throws IllegalArgumentException naming what is wrong ({@code unknown metric p99x; metrics: ...})
     */
    public static Metric parse(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no metric named; metrics: " + NAMES);
        }
        boolean intended = name.startsWith(INTENDED_PREFIX);
        String base = intended ? name.substring(INTENDED_PREFIX.length()) : name;
        Metric m;
        Matcher p = PERCENTILE.matcher(base);
        if (p.matches()) {
            double pct = Double.parseDouble(p.group(1));
            if (!(pct > 0 && pct <= 100)) {
                throw new IllegalArgumentException(
                        base + " is no percentile in (0, 100]" + (pct > 100 ? " (the 99.9th is p99.9)" : ""));
            }
            m = percentile(pct);
        } else {
            m = switch (base) {
                case "mean" -> MEAN;
                case "max" -> MAX;
                case "failed" -> FAILED;
                case "throughput" -> THROUGHPUT;
                default -> throw new IllegalArgumentException("unknown metric " + name + "; metrics: " + NAMES);
            };
        }
        if (intended) {
            if (!m.latency()) {
                throw new IllegalArgumentException(
                        INTENDED_PREFIX + " goes before a latency (pN, mean, max), not " + base);
            }
            m = m.fromIntended();
        }
        return m;
    }

    /** The {@code percentile}-th percentile of the latency from the actual send. */
    public static Metric percentile(double percentile) {
        return new Metric(false, Kind.PERCENTILE, percentile);
    }

    /** The same statistic of the latency from the intended send. */
    public Metric fromIntended() {
        return new Metric(true, kind, percentile);
    }

    /** Whether this metric is a latency (nanoseconds, bounded with a unit). */
    public boolean latency() {
        return kind != Kind.FAILED && kind != Kind.THROUGHPUT;
    }

    /** As thresholds write it: {@code p99.9}, {@code mean}, {@code intended.p99}, {@code throughput}. */
    public String label() {
        String base = kind == Kind.PERCENTILE
                ? "p" + BigDecimal.valueOf(percentile).stripTrailingZeros().toPlainString()
                : kind.name().toLowerCase(Locale.ROOT);
        return intended ? INTENDED_PREFIX + base : base;
    }

    @Override
    public String toString() {
        return label();
    }
}
