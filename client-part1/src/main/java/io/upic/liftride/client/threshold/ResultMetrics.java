package io.upic.liftride.client.threshold;

import io.upic.liftride.client.engine.OperationStats;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * client-part1's {@link MetricSource}: what the engine's counters give (see {@link MetricCatalog#clientPart1()}):
 * the mean latency of all attempts, the failed requests and the throughput. Immutable and thread-safe.
 *
 * @param result the finished run
 */
public record ResultMetrics(RunResult result) implements MetricSource {

    @Override
    public OptionalDouble value(Metric metric) {
        return value(metric, result.meanLatencyNanos(), result.requests().failed(), result.throughputPerSecond());
    }

    /** The mean latency, failed requests and throughput (successful ones / the run's wall time) of {@code op}. */
    @Override
    public Optional<MetricSource> operation(Operation op) {
        OperationStats s = result.operations().get(op);
        return s == null
                ? Optional.empty()
                : Optional.of(metric ->
                        value(metric, s.meanLatencyNanos(), s.failed(), s.successful() * 1e9 / result.wallNanos()));
    }

    private static OptionalDouble value(Metric metric, double meanNanos, long failed, double throughput) {
        return metric.intended()
                ? OptionalDouble.empty()
                : switch (metric.kind()) {
                    case MEAN -> OptionalDouble.of(meanNanos);
                    case FAILED -> OptionalDouble.of(failed);
                    case THROUGHPUT -> OptionalDouble.of(throughput);
                    case PERCENTILE, MAX -> OptionalDouble.empty();
                };
    }
}
