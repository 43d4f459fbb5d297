package io.upic.liftride.client.report;

import java.util.List;

/**
 * What Little's law predicts for a plan from the single-thread mean latency W: naive, with every request
 * taking W, or bounded by the CPU, with every request taking R(busy threads) = max(W, busy x D / C) (see
 * {@link LittlesLaw}). Immutable. Times are nanoseconds from the run's start.
 *
 * @param meanLatencyNanos        W, the baseline's mean latency
 * @param cpu                     the CPU bound; null for the naive prediction
 * @param peakThreads             N, threads of the largest phase
 * @param peakThroughputPerSecond X(N): N / W, or min(N / W, C / D) when bounded
 * @param peakResponseNanos       R(N): W, or max(W, N x D / C) when bounded
 * @param wallNanos               predicted wall time, following the phase schedule
 * @param throughputPerSecond     planned requests / predicted wall time
 * @param phaseStartNanos         predicted start of each phase
 * @param phaseEndNanos           predicted end of each phase
 */
public record Prediction(
        double meanLatencyNanos,
        CpuBound cpu,
        int peakThreads,
        double peakThroughputPerSecond,
        double peakResponseNanos,
        double wallNanos,
        double throughputPerSecond,
        List<Double> phaseStartNanos,
        List<Double> phaseEndNanos) {

    public Prediction {
        phaseStartNanos = List.copyOf(phaseStartNanos);
        phaseEndNanos = List.copyOf(phaseEndNanos);
    }

    /**
     * The capacity bound of operational analysis: C cores finish at most C / D requests per second.
     *
     * @param cpuNanosPerRequest D, the CPU time per request measured in the baseline
     * @param cores              C, processors available to the JVM
     * @param scope              whose CPU D is
     */
    public record CpuBound(double cpuNanosPerRequest, int cores, CpuScope scope) {

        /** C / D in requests per second: the most the CPU can do, whatever the thread count. */
        public double capacityPerSecond() {
            return cores * 1e9 / cpuNanosPerRequest;
        }
    }

    /** N* = C x W / D: the thread count above which the CPU, not W, bounds throughput; NaN when naive. */
    public double saturationThreads() {
        return cpu == null ? Double.NaN : cpu.cores() * meanLatencyNanos / cpu.cpuNanosPerRequest();
    }
}
