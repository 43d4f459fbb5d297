package io.upic.liftride.client.engine;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import lombok.Builder;

/**
 * The account of one phase after a run. Immutable and thread-safe. Times are absolute:
 * {@code *Nanos} are {@code System.nanoTime()} values (subtract {@link RunResult#startNanos()} for
 * run-relative times), {@code *EpochMillis} are wall-clock times for charts and CSVs. A phase that a
 * stop prevented from starting has {@code started == false}, all its requests not sent and times 0.
 *
 * @param index            0-based phase index
 * @param name             phase name
 * @param threads          threads the plan gave this phase
 * @param requests         the request account of the requests the plan gave this phase (not sent: only after a stop
 *                         or a worker crash)
 * @param latencyNanosSum  sum of every attempt's latency
 * @param failuresByCause  failed requests by the code of their last attempt (HTTP status or negative
 *                         error kind, see {@link io.upic.liftride.client.http.AttemptCodes}), ascending
 * @param started          whether the phase started its threads
 * @param startEpochMillis wall clock just before the phase's first thread was started
 * @param startNanos       nanoTime just before the phase's first thread was started; a ramp's stage: its scheduled
 *                         start
 * @param endEpochMillis   wall clock when the phase's last thread finished
 * @param endNanos         nanoTime when the phase's last thread finished
 * @param offeredPerSecond open model (--rate): requests per second this phase's schedule offered; null in the closed
 *                         model
 * @param scheduleLag      open model: how far behind its schedule the phase's sends fell; null in the closed model
 */
@Builder(toBuilder = true)
public record PhaseResult(
        int index,
        String name,
        int threads,
        Requests requests,
        long latencyNanosSum,
        Map<Integer, Long> failuresByCause,
        boolean started,
        long startEpochMillis,
        long startNanos,
        long endEpochMillis,
        long endNanos,
        Double offeredPerSecond,
        ScheduleLag.Snapshot scheduleLag) {

    public PhaseResult {
        failuresByCause = Collections.unmodifiableMap(new TreeMap<>(failuresByCause));
        Objects.requireNonNull(requests, "requests");
    }

    /** From the phase's start to its last thread's end; 0 if it never started. */
    public long durationNanos() {
        return started ? endNanos - startNanos : 0;
    }

    /** Successful requests per second of this phase's own duration (phases overlap, so these do not add up). */
    public double throughputPerSecond() {
        long d = durationNanos();
        return requests.throughputPerSecond(d);
    }

    /**
     * Requests (successful or failed) per second of this phase's duration: with --rate, the rate achieved against
     * {@link #offeredPerSecond()}.
     */
    public double achievedPerSecond() {
        long d = durationNanos();
        return d <= 0 ? 0 : requests.finished() * 1e9 / d;
    }

    /** Mean latency of this phase's attempts in nanoseconds, or NaN without attempts. */
    public double meanLatencyNanos() {
        return requests.attempts() == 0 ? Double.NaN : (double) latencyNanosSum / requests.attempts();
    }

    /**
     * Little's law with measured numbers: mean requests in flight over the phase's duration,
     * (sum of attempt latencies) / duration. Close to {@link #threads()} when the client's threads
     * spend their time waiting on the server, lower when they spend it elsewhere.
     */
    public double measuredConcurrency() {
        long d = durationNanos();
        return d <= 0 ? 0 : (double) latencyNanosSum / d;
    }
}
