package io.upic.liftride.client.plan;

/**
 * One phase of a load plan, as data: how many threads, how many requests each, which minutes of
 * the ski day, and when it may start. Immutable and thread-safe.
 *
 * <p>Fractions are written as decimal literals ({@code 0.25}, {@code 0.1}) and evaluated exactly
 * (through {@link java.math.BigDecimal#valueOf(double)}), so a trigger of {@code 0.07 x 100} threads
 * is 7, not the double product 7.000000000000001 rounded up to 8.
 *
 * @param name               short label used in output ("startup", "peak", "cooldown")
 * @param threadsFraction    this phase's threads as a fraction of numThreads, rounded up; in (0, 16]
 * @param factor             requests per skier per run: a thread sends round(factor x numRuns x its skiers)
 * @param startMinute        first minute of the ski day a ride may have (inclusive, >= 1)
 * @param endMinute          last minute (inclusive, >= startMinute)
 * @param startAfterFraction the phase starts once ceil(startAfterFraction x threads of the previous
 *                           phase) of those threads have finished; in [0, 1]; ignored for the first phase
 */
public record Phase(
        String name, double threadsFraction, double factor, int startMinute, int endMinute, double startAfterFraction) {

    public Phase {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("phase name is blank");
        }
        if (!(threadsFraction > 0 && threadsFraction <= 16)) {
            throw new IllegalArgumentException("threadsFraction not in (0, 16]: " + threadsFraction);
        }
        if (!(factor > 0 && factor <= 100)) {
            throw new IllegalArgumentException("factor not in (0, 100]: " + factor);
        }
        if (startMinute < 1) {
            throw new IllegalArgumentException("startMinute < 1: " + startMinute);
        }
        if (endMinute < startMinute) {
            throw new IllegalArgumentException("endMinute < startMinute: " + endMinute + " < " + startMinute);
        }
        if (!(startAfterFraction >= 0 && startAfterFraction <= 1)) {
            throw new IllegalArgumentException("startAfterFraction not in [0, 1]: " + startAfterFraction);
        }
    }
}
