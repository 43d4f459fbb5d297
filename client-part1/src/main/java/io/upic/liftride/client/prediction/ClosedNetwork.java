package io.upic.liftride.client.prediction;

/**
 * A closed queueing network of N threads and two stations, solved exactly by mean value analysis (MVA): the CPU,
 * C cores serving a demand of D per request, and a delay station Z for everything else a request waits on.
 * Immutable and thread-safe; the solution for 0..N threads is computed once, in O(N x C).
 *
 * <pre>
 * R(n)     = D / C x (1 + Q(n - 1) + sum_{j=1}^{C-1} (C - j) p(j - 1 | n - 1))   time at the CPU
 * X(n)     = n / (R(n) + Z)                                                    throughput (Little, whole loop)
 * Q(n)     = X(n) x R(n)                                                       (Little, CPU)
 * p(j | n) = D X(n) / j x p(j - 1 | n - 1)                                     j = 1..C-1
 * p(0 | n) = 1 - (D X(n) + sum_{j=1}^{C-1} (C - j) p(j | n)) / C
 * </pre>
 *
 * p(0 | n) loses precision once the CPU saturates, so it is kept within [0, 1].
 *
 * @param cores       C, >= 1
 * @param demandNanos D, the CPU time per request in nanoseconds (all cores together), > 0
 * @param delayNanos  Z, the rest of a request's cycle in nanoseconds, >= 0
 */
public record ClosedNetwork(int cores, double demandNanos, double delayNanos) {

    public ClosedNetwork {
        if (cores < 1) {
            throw new IllegalArgumentException("cores < 1: " + cores);
        }
        if (!(demandNanos > 0) || Double.isInfinite(demandNanos)) {
            throw new IllegalArgumentException("demandNanos <= 0: " + demandNanos);
        }
        if (!(delayNanos >= 0) || Double.isInfinite(delayNanos)) {
            throw new IllegalArgumentException("delayNanos < 0: " + delayNanos);
        }
    }

    /** C / D in requests per second: the most the CPU can complete, whatever the thread count. */
    public double capacityPerSecond() {
        return cores * 1e9 / demandNanos;
    }

    /**
     * X(n) for n = 0..{@code maxThreads}, in requests per nanosecond (X(0) = 0).
     *
     * @param maxThreads >= 0
     */
    public double[] throughputs(int maxThreads) {
        if (maxThreads < 0) {
            throw new IllegalArgumentException("maxThreads < 0: " + maxThreads);
        }
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
            double r = demandNanos / cores * (1 + q + idle);
            x[n] = n / (r + delayNanos);
            q = x[n] * r;
            double dx = demandNanos * x[n];
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
