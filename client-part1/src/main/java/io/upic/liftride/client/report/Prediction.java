package io.upic.liftride.client.report;

import java.util.List;

/**
 * What Little's law predicts for a plan given the single-thread latency W. Immutable. All times are
 * nanoseconds from the run's start.
 *
 * @param meanLatencyNanos          W, the baseline's mean latency
 * @param peakThreads               threads of the largest phase
 * @param peakThroughputPerSecond   peakThreads / W
 * @param wallNanos                 predicted wall time following the phase schedule
 * @param throughputPerSecond       planned requests / predicted wall time
 * @param phaseStartNanos           predicted start of each phase
 * @param phaseEndNanos             predicted end of each phase
 */
public record Prediction(
        double meanLatencyNanos,
        int peakThreads,
        double peakThroughputPerSecond,
        double wallNanos,
        double throughputPerSecond,
        List<Double> phaseStartNanos,
        List<Double> phaseEndNanos) {

    public Prediction {
        phaseStartNanos = List.copyOf(phaseStartNanos);
        phaseEndNanos = List.copyOf(phaseEndNanos);
    }
}
