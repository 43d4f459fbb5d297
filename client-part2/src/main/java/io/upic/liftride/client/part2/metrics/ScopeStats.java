package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.report.RunSummary.Latency;
import org.HdrHistogram.Histogram;

/**
 * The statistics of one scope of a run: the whole run, or one phase. Immutable once built (the
 * histograms are fresh merges owned by this object; callers must not modify them).
 *
 * @param name                scope name: "run" or the phase name
 * @param phaseIndex          the phase index, or -1 for the whole run
 * @param threads             threads of the phase, or the run's -t value
 * @param started             false for a phase a stop prevented from starting
 * @param durationNanos       the scope's duration (the run's wall time, or the phase's start to end)
 * @param successful          requests that got a 201
 * @param throughputPerSecond successful requests / duration in seconds
 * @param all                 every attempt
 * @param first               first attempts only (retries excluded)
 * @param allHistogram        every attempt's latency, µs
 * @param firstHistogram      first attempts' latency, µs
 * @param fromIntended        open model (--rate): every attempt's latency from its request's intended send time
 *                            (free of coordinated omission); null in the closed model
 * @param fromIntendedHistogram the same in µs; null in the closed model
 */
public record ScopeStats(
        String name,
        int phaseIndex,
        int threads,
        boolean started,
        long durationNanos,
        long successful,
        double throughputPerSecond,
        Latency all,
        Latency first,
        Histogram allHistogram,
        Histogram firstHistogram,
        Latency fromIntended,
        Histogram fromIntendedHistogram) {

    public boolean isRun() {
        return phaseIndex < 0;
    }
}
