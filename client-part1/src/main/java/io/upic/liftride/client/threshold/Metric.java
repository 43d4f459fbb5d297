package io.upic.liftride.client.threshold;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * One number a run measures and a {@link Threshold} can bound: a latency statistic (a percentile, the mean,
 * the maximum; from the actual send, or with {@code intended.} from the intended send of the open model),
 * the failed-request count or the throughput. Latencies are in nanoseconds, throughput in successful
 * requests per second, failures in requests. Immutable and thread-safe.
 *
 * @param intended   latency from the intended send time (the {@code --rate} schedule) rather than the actual one
 * @param kind       which statistic
 * @param percentile the percentile for {@link Kind#PERCENTILE}, in (0, 100]; 0 for the other kinds
 */
public record Metric(boolean intended, Kind kind, double percentile) {

    /** The statistics a threshold can name. */
    public enum Kind {
        PERCENTILE(true),
        MEAN(true),
        MAX(true),
        FAILED(false),
        THROUGHPUT(false);

        private final boolean latency;

        Kind(boolean latency) {
            this.latency = latency;
        }

        /** Whether the metric is a latency (nanoseconds, bounded with a unit). */
        public boolean latency() {
            return latency;
        }
    }

    /** The prefix that selects the latency from the intended send. */
    public static final String INTENDED_PREFIX = "intended.";

    public static final Metric MEAN = new Metric(false, Kind.MEAN, 0);
    public static final Metric MAX = new Metric(false, Kind.MAX, 0);
    public static final Metric FAILED = new Metric(false, Kind.FAILED, 0);
    public static final Metric THROUGHPUT = new Metric(false, Kind.THROUGHPUT, 0);

    public Metric {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.PERCENTILE) {
            if (!(percentile > 0 && percentile <= 100)) {
                throw new IllegalArgumentException("percentile not in (0, 100]: " + percentile);
            }
        } else if (percentile != 0) {
            throw new IllegalArgumentException("percentile of a " + kind + " metric: " + percentile);
        }
        if (intended && !kind.latency()) {
            throw new IllegalArgumentException(INTENDED_PREFIX + " applies to latencies only, not " + kind);
        }
    }

    /** The {@code percentile}-th percentile of the latency from the actual send. */
    public static Metric percentile(double percentile) {
        return new Metric(false, Kind.PERCENTILE, percentile);
    }

    /** The same statistic of the latency from the intended send. */
    public Metric fromIntended() {
        return new Metric(true, kind, percentile);
    }

    /** Whether this metric is a latency. */
    public boolean latency() {
        return kind.latency();
    }

    /** As thresholds write it: {@code p99.9}, {@code mean}, {@code intended.p99}, {@code throughput}. */
    public String label() {
        String base = switch (kind) {
            case PERCENTILE ->
                "p" + BigDecimal.valueOf(percentile).stripTrailingZeros().toPlainString();
            case MEAN -> "mean";
            case MAX -> "max";
            case FAILED -> "failed";
            case THROUGHPUT -> "throughput";
        };
        return intended ? INTENDED_PREFIX + base : base;
    }

    @Override
    public String toString() {
        return label();
    }
}
