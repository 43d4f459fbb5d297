package io.upic.liftride.client.plan;

/**
 * The open model (--rate): the run offers {@code ratePerSecond} requests per second in its peak phase, every
 * worker sending on a fixed schedule of {@code ratePerSecond / peakThreads} per second, so a phase with fewer
 * threads offers its share. Immutable and thread-safe.
 *
 * @param ratePerSecond requests per second offered by the peak phase (all {@code peakThreads} threads)
 * @param peakThreads   threads of the peak phase (-t)
 */
public record OpenModel(double ratePerSecond, int peakThreads) {

    public OpenModel {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("ratePerSecond <= 0: " + ratePerSecond);
        }
        if (peakThreads < 1) {
            throw new IllegalArgumentException("peakThreads < 1: " + peakThreads);
        }
    }

    /** Time between two requests of one worker, at least 1 ns. */
    public long intervalNanos() {
        return Math.max(1, Math.round(peakThreads * 1e9 / ratePerSecond));
    }

    /** Requests per second a phase of {@code threads} threads offers. */
    public double offeredPerSecond(int threads) {
        return ratePerSecond * threads / peakThreads;
    }
}
