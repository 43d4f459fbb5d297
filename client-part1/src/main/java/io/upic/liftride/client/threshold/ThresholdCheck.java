package io.upic.liftride.client.threshold;

import java.io.PrintStream;
import java.util.List;

/**
 * The thresholds of one run checked at its end, in the order given. Immutable and thread-safe.
 *
 * @param results one per threshold
 */
public record ThresholdCheck(List<ThresholdResult> results) {

    /** The exit code when every request succeeded but a threshold failed. */
    public static final int EXIT_CODE = 3;

    /** No thresholds: passes. */
    public static final ThresholdCheck NONE = new ThresholdCheck(List.of());

    public ThresholdCheck {
        results = List.copyOf(results);
    }

    /** Checks every threshold against {@code source}. */
    public static ThresholdCheck of(List<Threshold> thresholds, MetricSource source) {
        return new ThresholdCheck(
                thresholds.stream().map(t -> ThresholdResult.check(t, source)).toList());
    }

    /** Whether every threshold passed (true with none). */
    public boolean passed() {
        return results.stream().allMatch(ThresholdResult::passed);
    }

    /** "Thresholds: 2 of 3 passed" and a PASS/FAIL line per threshold; nothing without thresholds. */
    public void print(PrintStream out, String heading) {
        if (results.isEmpty()) {
            return;
        }
        long passed = results.stream().filter(ThresholdResult::passed).count();
        out.println(heading + ": " + passed + " of " + results.size() + " passed"
                + (passed() ? "" : " (exit code " + EXIT_CODE + " unless a request failed)"));
        results.forEach(r -> out.println("  " + r.line()));
    }
}
