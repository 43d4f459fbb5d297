package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.Operation;

/**
 * One operation's account in a run with {@code --mix}. A request succeeds when it ends with the status the contract
 * answers for it: 201 for the ride POST, 200 for a GET, and 404 for a GET that asked for unknown data on purpose
 * (counted in {@code notFound} too). Immutable and thread-safe.
 *
 * @param requests        requests of this operation that ended (each counted once, whatever its retries)
 * @param successful      requests that ended with their expected status
 * @param notFound        of the successful ones, the GETs for unknown data answered 404 as expected
 * @param attempts        HTTP attempts of these requests, retries included
 * @param latencyNanosSum sum of the attempts' latencies, from the actual send (as the run's mean is)
 */
public record OperationStats(
        Operation operation, long requests, long successful, long notFound, long attempts, long latencyNanosSum) {

    /** Requests that did not end with their expected status. */
    public long failed() {
        return requests - successful;
    }

    /** The mean attempt latency, NaN without attempts. */
    public double meanLatencyNanos() {
        return attempts == 0 ? Double.NaN : (double) latencyNanosSum / attempts;
    }

    /** Both accounts summed (of the same operation). */
    public OperationStats plus(OperationStats o) {
        return new OperationStats(
                operation,
                requests + o.requests,
                successful + o.successful,
                notFound + o.notFound,
                attempts + o.attempts,
                latencyNanosSum + o.latencyNanosSum);
    }
}
