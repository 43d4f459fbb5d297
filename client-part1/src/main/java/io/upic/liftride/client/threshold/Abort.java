package io.upic.liftride.client.threshold;

/**
 * Why and when {@code --abort-on-fail} stopped a run. Immutable and thread-safe.
 *
 * @param threshold   the expression of the threshold that could no longer hold
 * @param reason      why, with the counts that decided it
 * @param afterNanos  when, from the run's start
 * @param epochMillis when, on the wall clock
 */
public record Abort(String threshold, String reason, long afterNanos, long epochMillis) {}
