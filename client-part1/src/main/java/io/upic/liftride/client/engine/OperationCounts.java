package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.Operation;
import java.util.Map;

/** One worker's per-operation counts, read after it is joined. Allocates nothing per request. */
final class OperationCounts {

    private static final int OPS = Operation.values().length;

    private final long[] requests = new long[OPS];
    private final long[] successful = new long[OPS];
    private final long[] notFound = new long[OPS];
    private final long[] attempts = new long[OPS];
    private final long[] latencyNanosSum = new long[OPS];

    /** A request of {@code op} ended; {@code notFound}: a GET for unknown data answered 404 as expected. */
    void finished(Operation op, boolean success, boolean notFound, int attempts, long latencyNanos) {
        int i = op.ordinal();
        requests[i]++;
        if (success) {
            successful[i]++;
        }
        if (notFound) {
            this.notFound[i]++;
        }
        this.attempts[i] += attempts;
        latencyNanosSum[i] += latencyNanos;
    }

    /** Adds the operations this worker sent into {@code into}. */
    void addTo(Map<Operation, OperationStats> into) {
        for (Operation op : Operation.values()) {
            int i = op.ordinal();
            if (requests[i] > 0) {
                into.merge(
                        op,
                        new OperationStats(
                                op, requests[i], successful[i], notFound[i], attempts[i], latencyNanosSum[i]),
                        OperationStats::plus);
            }
        }
    }
}
