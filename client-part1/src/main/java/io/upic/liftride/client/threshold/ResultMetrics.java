package io.upic.liftride.client.threshold;

import io.upic.liftride.client.engine.OperationStats;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * client-part1's {@link MetricSource}: what the engine's counters give (see {@link MetricCatalog#clientPart1()}):
 * the mean latency of all attempts, the failed requests and the throughput. Immutable and thread-safe.
 */
public final class ResultMetrics implements MetricSource {

    private final RunResult result;

    public ResultMetrics(RunResult result) {
        this.result = Objects.requireNonNull(result, "result");
    }

    @Override
    public OptionalDouble value(Metric metric) {
        if (metric.intended()) {
            return OptionalDouble.empty();
        }
        return switch (metric.kind()) {
            case MEAN -> OptionalDouble.of(result.meanLatencyNanos());
            case FAILED -> OptionalDouble.of(result.requests().failed());
            case THROUGHPUT -> OptionalDouble.of(result.throughputPerSecond());
            case PERCENTILE, MAX -> OptionalDouble.empty();
        };
    }

    /** The mean latency, failed requests and throughput (successful ones / the run's wall time) of {@code op}. */
    @Override
    public Optional<MetricSource> operation(Operation op) {
        OperationStats s = result.operations().get(op);
        if (s == null) {
            return Optional.empty();
        }
        return Optional.of(metric -> metric.intended()
                ? OptionalDouble.empty()
                : switch (metric.kind()) {
                    case MEAN -> OptionalDouble.of(s.meanLatencyNanos());
                    case FAILED -> OptionalDouble.of(s.failed());
                    case THROUGHPUT -> OptionalDouble.of(s.successful() * 1e9 / result.wallNanos());
                    case PERCENTILE, MAX -> OptionalDouble.empty();
                });
    }
}
