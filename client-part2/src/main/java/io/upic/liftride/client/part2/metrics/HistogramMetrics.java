package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.engine.OperationStats;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.threshold.Metric;
import io.upic.liftride.client.threshold.MetricSource;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;

/**
 * client-part2's {@link MetricSource}: latencies from the merged HdrHistograms ({@link LatencyStats}' semantics),
 * failures and throughput from the engine's account; {@link #phase} gives the same for one phase. Immutable and
 * thread-safe.
 */
public final class HistogramMetrics implements MetricSource {

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
        LatencyStats stats = metric.intended() ? scope.fromIntended() : scope.all();
        Histogram histogram = metric.intended() ? scope.fromIntendedHistogram() : scope.allHistogram();
        return switch (metric.kind()) {
            case PERCENTILE ->
                OptionalDouble.of(
                        stats.count() == 0
                                ? Double.NaN
                                : LatencyStats.percentileMillis(histogram, metric.percentile(), stats.maxMillis())
                                        * 1e6);
            case MEAN -> OptionalDouble.of(stats.meanMillis() * 1e6);
            case MAX -> OptionalDouble.of(stats.count() == 0 ? Double.NaN : stats.maxMillis() * 1e6);
            case FAILED -> OptionalDouble.of(failed);
            case THROUGHPUT -> OptionalDouble.of(throughput);
        };
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
        LatencyStats stats = latency.stats();
        return Optional.of(metric -> metric.intended()
                ? OptionalDouble.empty()
                : switch (metric.kind()) {
                    case PERCENTILE ->
                        OptionalDouble.of(LatencyStats.percentileMillis(
                                        latency.histogram(), metric.percentile(), stats.maxMillis())
                                * 1e6);
                    case MEAN -> OptionalDouble.of(stats.meanMillis() * 1e6);
                    case MAX -> OptionalDouble.of(stats.maxMillis() * 1e6);
                    case FAILED -> OptionalDouble.of(counts.failed());
                    case THROUGHPUT -> OptionalDouble.of(counts.successful() * 1e9 / result.wallNanos());
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
}
