package io.upic.liftride.client.report;

import java.util.List;

/**
 * Little's law with the capacity bound of operational analysis (asymptotic bounds / utilization
 * law), for a plan given the single-thread latency W, the CPU time per request D and the cores C.
 * Immutable. All times are nanoseconds from the run's start. See {@link LittlesLaw#bounded}.
 *
 * @param meanLatencyNanos        W, the baseline's mean latency
 * @param cpuNanosPerRequest      D, the process CPU time per request during the baseline
 * @param cores                   C, processors available to the JVM
 * @param cpuIncludesServer       whether D covers the server too (embedded server, same JVM); false when the
 *                                server is remote, so the bound only reflects the client's CPU
 * @param peakThreads             threads of the largest phase, N
 * @param peakThroughputPerSecond X(N) = min(N / W, C / D)
 * @param peakResponseNanos       R(N) = max(W, N x D / C)
 * @param wallNanos               predicted wall time following the phase schedule, with every request taking
 *                                R(threads busy at that moment)
 * @param throughputPerSecond     planned requests / predicted wall time
 * @param phaseStartNanos         predicted start of each phase
 * @param phaseEndNanos           predicted end of each phase
 */
public record BoundedPrediction(
        double meanLatencyNanos,
        double cpuNanosPerRequest,
        int cores,
        boolean cpuIncludesServer,
        int peakThreads,
        double peakThroughputPerSecond,
        double peakResponseNanos,
        double wallNanos,
        double throughputPerSecond,
        List<Double> phaseStartNanos,
        List<Double> phaseEndNanos) {

    public BoundedPrediction {
        phaseStartNanos = List.copyOf(phaseStartNanos);
        phaseEndNanos = List.copyOf(phaseEndNanos);
    }

    /** C / D in requests per second: the most the CPU can do, whatever the thread count. */
    public double capacityPerSecond() {
        return LittlesLaw.capacity(cores, cpuNanosPerRequest);
    }

    /** N* = C x W / D: the thread count above which the CPU, not the latency W, bounds throughput. */
    public double saturationThreads() {
        return cores * meanLatencyNanos / cpuNanosPerRequest;
    }
}
