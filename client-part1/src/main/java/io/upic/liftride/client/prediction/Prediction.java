package io.upic.liftride.client.prediction;

/**
 * What a model predicts for a plan before the run: the naive N / W, or the closed-network model ({@link
 * Network}, see {@link LittlesLaw}). Immutable.
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
     * The closed network a prediction was solved for, and where its inputs came from: N threads and two stations,
     * solved exactly by mean value analysis (MVA), the CPU (C cores serving D per request) and a delay station Z
     * for everything else a request waits on; docs/model.md gives the recursion. Immutable and thread-safe.
     *
     * @param cores              C, >= 1
     * @param cpuNanosPerRequest D, the CPU time per request under load (all cores together), > 0
     * @param delayNanos         Z, the rest of a request's cycle, >= 0
     * @param scope              whose CPU D is (client and embedded server, or the client alone)
     * @param source             where D came from (see {@link CpuDemand#source}), for the labels
     */
    public record Network(int cores, double cpuNanosPerRequest, double delayNanos, CpuScope scope, String source) {

        public Network {
            if (cores < 1 || !(cpuNanosPerRequest > 0) || !(delayNanos >= 0)) {
                throw new IllegalArgumentException(
                        "not C >= 1, D > 0, Z >= 0: " + cores + ", " + cpuNanosPerRequest + ", " + delayNanos);
            }
        }

        /** C / D in requests per second: the most the CPU can do, whatever the thread count. */
        public double capacityPerSecond() {
            return cores * 1e9 / cpuNanosPerRequest;
        }

        /** X(n) for n = 0..{@code maxThreads}, in requests per nanosecond (X(0) = 0). */
        public double[] throughputs(int maxThreads) {
            double[] x = new double[maxThreads + 1];
            double[] p = new double[cores]; // p(j | n - 1), j = 0..C-1
            double[] next = new double[cores];
            p[0] = 1;
            double q = 0;
            for (int n = 1; n <= maxThreads; n++) {
                double idle = 0;
                for (int j = 1; j < cores; j++) {
                    idle += (cores - j) * p[j - 1];
                }
                double r = cpuNanosPerRequest / cores * (1 + q + idle);
                x[n] = n / (r + delayNanos);
                q = x[n] * r;
                double dx = cpuNanosPerRequest * x[n];
                double busy = dx;
                for (int j = 1; j < cores; j++) {
                    next[j] = dx / j * p[j - 1];
                    busy += (cores - j) * next[j];
                }
                next[0] = Math.min(1, Math.max(0, 1 - busy / cores));
                double[] t = p;
                p = next;
                next = t;
            }
            return x;
        }

        /** X(n) in requests per second. */
        public double throughputPerSecond(int threads) {
            return throughputs(threads)[threads] * 1e9;
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
