package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.engine.OperationStats;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunSummary.Latency;
import io.upic.liftride.client.threshold.Metric;
import io.upic.liftride.client.threshold.MetricSource;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;

/**
 * client-part2's {@link MetricSource}: latencies from the merged HdrHistograms (the summary's {@link Latency}
 * records, which it also gives whole), failures and throughput from the engine's account; {@link #phase} gives the
 * same for one phase. Immutable and thread-safe.
 */
public final class HistogramMetrics implements MetricSource, RunSummary.Measured {

    private final ScopeStats scope;
    private final long failed;
    private final double throughput;
    private final RunMetrics metrics;
    private final RunResult result;

    public HistogramMetrics(RunMetrics metrics, RunResult result) {
        this(
                Objects.requireNonNull(metrics, "metrics").run(),
                Objects.requireNonNull(result, "result").requests().failed(),
                result.throughputPerSecond(),
                metrics,
                result);
    }

    private HistogramMetrics(ScopeStats scope, long failed, double throughput, RunMetrics metrics, RunResult result) {
        this.scope = scope;
        this.failed = failed;
        this.throughput = throughput;
        this.metrics = metrics;
        this.result = result;
    }

    @Override
    public OptionalDouble value(Metric metric) {
        if (metric.intended() && scope.fromIntended() == null) {
            return OptionalDouble.empty(); // the closed model has no intended send
        }
        return switch (metric.kind()) {
            case FAILED -> OptionalDouble.of(failed);
            case THROUGHPUT -> OptionalDouble.of(throughput);
            default ->
                latency(
                        metric,
                        metric.intended() ? scope.fromIntended() : scope.all(),
                        metric.intended() ? scope.fromIntendedHistogram() : scope.allHistogram());
        };
    }

    /** A latency metric of {@code l}, in nanoseconds; NaN without attempts. */
    private static OptionalDouble latency(Metric metric, Latency l, Histogram histogram) {
        if (l.mean() == null) {
            return OptionalDouble.of(Double.NaN);
        }
        return OptionalDouble.of(1e6
                * switch (metric.kind()) {
                    case PERCENTILE -> LatencyHistograms.percentileMillis(histogram, metric.percentile(), l.max());
                    case MAX -> l.max();
                    default -> l.mean();
                });
    }

    /**
     * With --mix, operation {@code op}'s attempt latencies from its histogram (mean and max exact), its failed
     * requests and its throughput (successful requests / the run's wall time).
     */
    @Override
    public Optional<MetricSource> operation(Operation op) {
        RunMetrics.OperationLatency latency = metrics.operations().get(op);
        OperationStats counts = result.operations().get(op);
        if (!scope.isRun() || latency == null || counts == null) {
            return Optional.empty();
        }
        return Optional.of(metric -> metric.intended()
                ? OptionalDouble.empty()
                : switch (metric.kind()) {
                    case FAILED -> OptionalDouble.of(counts.failed());
                    case THROUGHPUT -> OptionalDouble.of(counts.successful() * 1e9 / result.wallNanos());
                    default -> latency(metric, latency.stats(), latency.histogram());
                });
    }

    /** Phase {@code index}'s histograms, its failed requests and its throughput over its own duration. */
    @Override
    public Optional<MetricSource> phase(int index) {
        if (!scope.isRun() || index < 0 || index >= metrics.phases().size()) {
            return Optional.empty();
        }
        ScopeStats p = metrics.phases().get(index);
        long phaseFailed = result.phases().get(index).requests().failed();
        return Optional.of(new HistogramMetrics(p, phaseFailed, p.throughputPerSecond(), metrics, result));
    }

    @Override
    public Latency latency(int phase, RunSummary.Attempts which) {
        ScopeStats s = phase < 0 ? metrics.run() : metrics.phases().get(phase);
        return switch (which) {
            case ALL -> s.all();
            case FIRST -> s.first();
            case INTENDED -> s.fromIntended();
        };
    }

    @Override
    public Latency operationLatency(Operation op) {
        RunMetrics.OperationLatency l = metrics.operations().get(op);
        return l == null ? new Latency(null, null, null, null, null, null) : l.stats();
    }
}
