package io.upic.liftride.client.engine;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import lombok.Builder;

/**
 * The account of one phase after a run. Immutable and thread-safe. {@code *Nanos} are {@code System.nanoTime()}
 * values, {@code *EpochMillis} wall-clock times; a phase a stop kept from starting has all requests not sent.
 *
 * @param index            0-based phase index
 * @param name             phase name
 * @param threads          threads the plan gave this phase
 * @param requests         the request account of the requests the plan gave this phase
 * @param latencyNanosSum  sum of every attempt's latency
 * @param failuresByCause  failed requests by the code of their last attempt, ascending
 * @param started          whether the phase started its threads
 * @param startEpochMillis wall clock just before the phase's first thread was started
 * @param startNanos       nanoTime just before the phase's first thread was started; a ramp's stage: its scheduled
 *                         start
 * @param endEpochMillis   wall clock when the phase's last thread finished
 * @param endNanos         nanoTime when the phase's last thread finished
 * @param offeredPerSecond open model: requests per second this phase's schedule offered; null in the closed model
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

    /** Requests ended per second of this phase's duration: the achieved rate. */
    public double achievedPerSecond() {
        long d = durationNanos();
        return d <= 0 ? 0 : requests.finished() * 1e9 / d;
    }

    /** Mean latency of this phase's attempts in nanoseconds, or NaN without attempts. */
    public double meanLatencyNanos() {
        return requests.attempts() == 0 ? Double.NaN : (double) latencyNanosSum / requests.attempts();
    }

    /** Little's law with measured numbers: mean requests in flight, (sum of attempt latencies) / duration. */
    public double measuredConcurrency() {
        long d = durationNanos();
        return d <= 0 ? 0 : (double) latencyNanosSum / d;
    }
}
