package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.threshold.Metric;
import io.upic.liftride.client.threshold.MetricSource;
import java.util.Objects;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;

/**
 * client-part2's {@link MetricSource}: every latency statistic of the whole run from its merged HdrHistogram
 * (all attempts; percentiles with {@link LatencyStats}' semantics, mean and max exact), failures and
 * throughput from the engine's account; with {@code --rate}, {@code intended.*} from the histogram of latencies
 * from the intended send (empty in the closed model). Immutable and thread-safe.
 */
public final class HistogramMetrics implements MetricSource {

    private final ScopeStats run;
    private final RunResult result;

    public HistogramMetrics(RunMetrics metrics, RunResult result) {
        this.run = Objects.requireNonNull(metrics, "metrics").run();
        this.result = Objects.requireNonNull(result, "result");
    }

    @Override
    public OptionalDouble value(Metric metric) {
        if (metric.intended() && run.fromIntended() == null) {
            return OptionalDouble.empty(); // the closed model has no intended send
        }
        LatencyStats stats = metric.intended() ? run.fromIntended() : run.all();
        Histogram histogram = metric.intended() ? run.fromIntendedHistogram() : run.allHistogram();
        return switch (metric.kind()) {
            case PERCENTILE ->
                OptionalDouble.of(
                        stats.count() == 0 ? Double.NaN : histogram.getValueAtPercentile(metric.percentile()) * 1e3);
            case MEAN -> OptionalDouble.of(stats.meanMillis() * 1e6);
            case MAX -> OptionalDouble.of(stats.count() == 0 ? Double.NaN : stats.maxMillis() * 1e6);
            case FAILED -> OptionalDouble.of(result.requests().failed());
            case THROUGHPUT -> OptionalDouble.of(result.throughputPerSecond());
        };
    }
}
