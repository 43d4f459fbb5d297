package io.upic.liftride.client.threshold;

import io.upic.liftride.client.http.Operation;
import java.util.Optional;
import java.util.OptionalDouble;

/** A run's measured {@link Metric}s, read by thresholds and the summary. Immutable, thread-safe. */
@FunctionalInterface
public interface MetricSource {

    /**
     * The value in the metric's native unit (nanoseconds for a latency, requests, requests per second);
     * empty when this client does not measure the metric. NaN when measured but undefined (a mean of no
     * attempts).
     */
    OptionalDouble value(Metric metric);

    /**
     * The same metrics measured over phase {@code index} of the plan alone (its failed requests, its own
     * throughput, its attempts' latencies); empty when this client keeps no statistics per phase.
     */
    default Optional<MetricSource> phase(int index) {
        return Optional.empty();
    }

    /**
     * The same metrics measured over the requests of operation {@code op} alone ({@code --mix}); empty when the run
     * sent none of it or this client keeps no statistics per operation.
     */
    default Optional<MetricSource> operation(Operation op) {
        return Optional.empty();
    }
}
