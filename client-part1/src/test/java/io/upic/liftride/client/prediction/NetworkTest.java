package io.upic.liftride.client.prediction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NetworkTest {

    private static Prediction.Network network(int cores, double d, double z) {
        return new Prediction.Network(cores, d, z, CpuScope.EMBEDDED_SERVER, "test");
    }

    /** X(n) per nanosecond. */
    private static double x(int cores, double d, double z, int n) {
        return network(cores, d, z).throughputs(n)[n];
    }

    @Test
    void oneThreadCyclesThroughDemandPlusDelay() {
        for (int cores = 1; cores <= 4; cores++) {
            assertEquals(1 / 300.0, x(cores, 100, 200, 1), 1e-15);
        }
        assertEquals(0, network(2, 1, 1).throughputs(0)[0]);
    }

    @Test
    void twoCoresTwoThreadsHandComputed() {
        // Z = 0: both threads always at the CPU, one core each: X = 2 / D
        assertEquals(2.0, x(2, 1, 0, 2), 1e-12);
        // D = Z = 1: requests at the CPU k = 0, 1, 2 with probabilities 1/4, 1/2, 1/4 (birth-death by hand),
        // X = 1 x 1/2 + 2 x 1/4 = 1
        assertEquals(1.0, x(2, 1, 1, 2), 1e-12);
        // one core, D = Z = 1, 2 threads: MVA by hand: R(1) = 1, X(1) = 1/2, Q(1) = 1/2; R(2) = 3/2, X(2) = 2 / (5/2)
        assertEquals(0.8, x(1, 1, 1, 2), 1e-12);
    }

    @Test
    void matchesTheExactBirthDeathSolutionOfTheSameNetwork() {
        // within 1e-6: p(0 | n) loses digits once the CPU saturates (2e-8 seen at C = 4, 128 threads)
        double[][] cases = {{1, 80, 100}, {2, 80, 100}, {2, 77, 108}, {4, 50, 1_000}, {2, 100, 40_000_000}};
        for (double[] c : cases) {
            int cores = (int) c[0];
            double[] mva = network(cores, c[1], c[2]).throughputs(300);
            for (int n : new int[] {1, 2, 3, 5, 8, 32, 64, 128, 256, 300}) {
                double exact = birthDeath(cores, c[1], c[2], n);
                assertEquals(exact, mva[n], exact * 1e-6, "C=" + cores + " D=" + c[1] + " Z=" + c[2] + " N=" + n);
            }
        }
    }

    @Test
    void reducesToNOverWWhenTheDelayDominatesAndToCOverDWhenTheCpuDoes() {
        // the WAN case: D = 100 us, Z = 40 ms, 64 threads use 0.16 of 2 cores: within 0.2% of N / (D + Z)
        double naive = 64 / (100e3 + 40e6);
        assertEquals(naive, x(2, 100e3, 40e6, 64), naive * 0.002);
        // loopback: D = 77 us, Z = 108 us, 256 threads: the CPU's capacity C / D
        Prediction.Network loopback = network(2, 77e3, 108e3);
        assertEquals(loopback.capacityPerSecond(), loopback.throughputPerSecond(256), 1e-6);
        assertEquals(2e9 / 77e3, loopback.capacityPerSecond(), 1e-9);
        // and never above either bound
        for (int n = 1; n <= 64; n++) {
            double xn = x(2, 77e3, 108e3, n) * 1e9;
            assertEquals(true, xn <= Math.min(n * 1e9 / 185e3, 2e9 / 77e3) * (1 + 1e-12), "n=" + n + ": " + xn);
        }
    }

    @Test
    void rejectsImpossibleInputsNamingThem() {
        for (double[] bad : new double[][] {{0, 1, 1}, {2, 0, 1}, {2, 1, -1}, {2, Double.NaN, 1}}) {
            assertThrows(IllegalArgumentException.class, () -> network((int) bad[0], bad[1], bad[2]));
        }
    }

    /**
     * The same network solved another way: k requests at the CPU is a birth-death process (arrivals (n - k) / Z,
     * departures min(k, C) / D), in logarithms so that 300 threads do not overflow; Z = 0 puts all n at the CPU.
     */
    private static double birthDeath(int cores, double d, double z, int n) {
        if (z == 0) {
            return Math.min(n, cores) / d;
        }
        double[] log = new double[n + 1];
        for (int k = 1; k <= n; k++) {
            log[k] = log[k - 1] + Math.log((n - k + 1) / z) - Math.log(Math.min(k, cores) / d);
        }
        double max = 0;
        for (double v : log) {
            max = Math.max(max, v);
        }
        double sum = 0, x = 0;
        for (int k = 0; k <= n; k++) {
            double w = Math.exp(log[k] - max);
            sum += w;
            x += w * Math.min(k, cores) / d;
        }
        return x / sum;
    }
}
