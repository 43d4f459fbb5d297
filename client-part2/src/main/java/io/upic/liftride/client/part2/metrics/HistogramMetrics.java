package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.threshold.Metric;
import io.upic.liftride.client.threshold.MetricSource;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * client-part2's {@link MetricSource}: every latency statistic of the whole run from its merged HdrHistogram
 * (all attempts; percentiles with {@link LatencyStats}' semantics, mean and max exact), failures and
 * throughput from the engine's account. The latency from the intended send is not here: the open model's
 * source plugs in with {@link MetricSource#withIntended}. Immutable and thread-safe.
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
        if (metric.intended()) {
            return OptionalDouble.empty();
        }
        LatencyStats all = run.all();
        return switch (metric.kind()) {
            case PERCENTILE ->
                OptionalDouble.of(
                        all.count() == 0
                                ? Double.NaN
                                : run.allHistogram().getValueAtPercentile(metric.percentile()) * 1e3);
            case MEAN -> OptionalDouble.of(all.meanMillis() * 1e6);
            case MAX -> OptionalDouble.of(all.count() == 0 ? Double.NaN : all.maxMillis() * 1e6);
            case FAILED -> OptionalDouble.of(result.failed());
            case THROUGHPUT -> OptionalDouble.of(result.throughputPerSecond());
        };
    }
}
