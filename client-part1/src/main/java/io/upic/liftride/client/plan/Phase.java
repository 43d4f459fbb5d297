package io.upic.liftride.client.plan;

/**
 * One phase of a load plan, as data. Fractions are evaluated exactly ({@link java.math.BigDecimal#valueOf(double)}),
 * so 0.07 x 100 threads is 7, not 8. Immutable and thread-safe.
 *
 * @param threadsFraction    this phase's threads as a fraction of numThreads, rounded up; in (0, 16]
 * @param factor             requests per skier per run: a thread sends round(factor x numRuns x its skiers)
 * @param startMinute        first minute of the ski day a ride may have (inclusive, >= 1)
 * @param endMinute          last minute (inclusive, >= startMinute)
 * @param startAfterFraction the phase starts once ceil(startAfterFraction x threads of the previous
 *                           phase) of those threads have finished; in [0, 1]; ignored for the first phase
 */
public record Phase(
        String name,
        double threadsFraction,
        double factor,
        int startMinute,
        int endMinute,
        double startAfterFraction) {}
