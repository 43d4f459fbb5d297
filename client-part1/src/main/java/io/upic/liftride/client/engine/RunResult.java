package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.plan.LoadPlan;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import lombok.Builder;

/**
 * The merged account of one run: what was planned, what happened to every request, and when each
 * phase ran. Immutable and thread-safe.
 *
 * @param failuresByCause  failed requests by final code (HTTP status, or negative error kind)
 * @param startNanos       nanoTime when the run's clock started: the origin for every nanos value
 * @param wallNanos        from before Phase 1 to after the last thread of any phase finished
 * @param problems         unexpected client-side errors, a silent-server give-up first; empty in a healthy run
 * @param operations       with {@code --mix}: each operation's account, in declaration order; empty without
 */
@Builder(toBuilder = true)
public record RunResult(
        String planName,
        int numThreads,
        List<PhaseResult> phases,
        Requests requests,
        long latencyNanosSum,
        Map<Integer, Long> failuresByCause,
        long startEpochMillis,
        long startNanos,
        long wallNanos,
        boolean stopped,
        List<String> problems,
        Map<Operation, OperationStats> operations) {

    public RunResult {
        operations = operations == null || operations.isEmpty()
                ? Map.of()
                : Collections.unmodifiableMap(new EnumMap<>(operations));
        phases = List.copyOf(phases);
        failuresByCause = Collections.unmodifiableMap(new TreeMap<>(failuresByCause));
        problems = List.copyOf(problems);
        Objects.requireNonNull(requests, "requests");
    }

    /**
     * The account of {@code phases} folded together, with every phase's failures by cause, as the engine ends a run.
     */
    public static RunResult of(
            LoadPlan plan,
            List<PhaseResult> phases,
            long startEpochMillis,
            long startNanos,
            long wallNanos,
            boolean stopped,
            List<String> problems) {
        Requests r = Requests.NONE;
        long latency = 0;
        Map<Integer, Long> causes = new TreeMap<>();
        for (PhaseResult p : phases) {
            r = r.plus(p.requests());
            latency += p.latencyNanosSum();
            p.failuresByCause().forEach((code, count) -> causes.merge(code, count, Long::sum));
        }
        return RunResult.builder()
                .planName(plan.planName())
                .numThreads(plan.numThreads())
                .phases(phases)
                .requests(r)
                .latencyNanosSum(latency)
                .failuresByCause(causes)
                .startEpochMillis(startEpochMillis)
                .startNanos(startNanos)
                .wallNanos(wallNanos)
                .stopped(stopped)
                .problems(problems)
                .build();
    }

    /** The rides the server answered 201: every successful request without a mix, the successful POSTs with one. */
    public long successfulWrites() {
        OperationStats writes = operations.get(Operation.WRITE_NEW_LIFT_RIDE);
        return operations.isEmpty() ? requests.successful() : writes == null ? 0 : writes.successful();
    }

    /** Throughput as the assignment defines it: successful requests / wall time in seconds. */
    public double throughputPerSecond() {
        return requests.throughputPerSecond(wallNanos);
    }

    /** Mean latency of all attempts in nanoseconds, or NaN without attempts. */
    public double meanLatencyNanos() {
        return requests.attempts() == 0 ? Double.NaN : (double) latencyNanosSum / requests.attempts();
    }

    /** Whether every planned request got its 201 and nothing went wrong inside the client. */
    public boolean allSucceeded() {
        return requests.allSucceeded() && problems.isEmpty();
    }

    /** The client's side of "ok": every planned request got its 201, no client error, not stopped. */
    public boolean ok() {
        return allSucceeded() && !stopped;
    }
}
