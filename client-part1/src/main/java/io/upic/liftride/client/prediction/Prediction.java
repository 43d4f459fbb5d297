package io.upic.liftride.client.prediction;

/**
 * What a model predicts for a plan before the run: the naive N / W, or the closed-network model ({@link
 * ClosedNetwork}, see {@link LittlesLaw}). Immutable.
 *
 * @param model                   {@link #NAIVE} or {@link #MVA}
 * @param meanLatencyNanos        W, the baseline's mean latency
 * @param network                 the closed network and what its inputs are; null for the naive prediction
 * @param peakThreads             N, threads of the largest phase
 * @param peakThroughputPerSecond X(N): N / W, or the network's X(N)
 * @param peakResponseNanos       a thread's time per request at N threads: W, or N / X(N)
 * @param wallNanos               predicted wall time, following the phase schedule
 * @param throughputPerSecond     planned requests / predicted wall time
 */
public record Prediction(
        String model,
        double meanLatencyNanos,
        Network network,
        int peakThreads,
        double peakThroughputPerSecond,
        double peakResponseNanos,
        double wallNanos,
        double throughputPerSecond) {

    /** The naive model's name, as summary.json writes it. */
    public static final String NAIVE = "naive N/W";

    /** The closed-network model's name, as summary.json writes it. */
    public static final String MVA = "MVA closed network";

    /**
     * The closed network a prediction was solved for, and where its inputs came from.
     *
     * @param solved the network: C cores, D CPU per request under load, Z the delay
     * @param scope  whose CPU D is (client and embedded server, or the client alone)
     * @param source where D came from (see {@link CpuDemand#source}), for the labels
     */
    public record Network(ClosedNetwork solved, CpuScope scope, String source) {

        public int cores() {
            return solved.cores();
        }

        public double cpuNanosPerRequest() {
            return solved.demandNanos();
        }

        public double delayNanos() {
            return solved.delayNanos();
        }

        /** C / D in requests per second: the most the CPU can do, whatever the thread count. */
        public double capacityPerSecond() {
            return solved.capacityPerSecond();
        }
    }

    /** N* = C x (D + Z) / D, above which the CPU bounds throughput; NaN when naive. */
    public double saturationThreads() {
        return network == null
                ? Double.NaN
                : network.cores()
                        * (network.cpuNanosPerRequest() + network.delayNanos())
                        / network.cpuNanosPerRequest();
    }
}
