package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.ScheduleLag;
import io.upic.liftride.client.plan.Ramp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A {@code --ramp} run's stages as reported. A stage was not offered in full when it achieved less than {@link
 * #MIN_ACHIEVED} of its offered rate, or its sends were on average more than {@link ScheduleLag#LATE_NANOS} late
 * (the sends queued behind each other). Stateless and thread-safe.
 */
public final class RampStages {

    /** The least achieved / offered of a stage offered in full. */
    public static final double MIN_ACHIEVED = 0.97;

    private static final Locale L = Locale.US;

    private RampStages() {}

    /**
     * One stage in {@code summary.json}.
     *
     * @param name                phase name of the stage ({@code stage1}, ...)
     * @param fromPerSecond       the rate at its start
     * @param toPerSecond         the rate at its end (its TARGET)
     * @param durationSeconds     its DURATION
     * @param offeredPerSecond    its requests / its duration
     * @param achievedPerSecond   requests done / the time from its start to its last answer (at least its duration)
     * @param achievedOverOffered the ratio of the two
     * @param sendLagMeanMs       mean time from a send's intended time to the send
     * @param sendLagMaxMs        the largest
     * @param lateSends           sends more than 1 ms late
     * @param offeredInFull       false when the stage was not offered in full (see the class comment)
     */
    public record Stage(
            String name,
            double fromPerSecond,
            double toPerSecond,
            double durationSeconds,
            double offeredPerSecond,
            double achievedPerSecond,
            double achievedOverOffered,
            double sendLagMeanMs,
            double sendLagMaxMs,
            long lateSends,
            boolean offeredInFull) {}

    /**
     * Why a stage that offered {@code offeredPerSecond}, achieved {@code achievedPerSecond} and sent with a mean lag
     * of {@code sendLagMeanNanos} was not offered in full (see the class comment), or null when it was.
     */
    public static String shortfall(double offeredPerSecond, double achievedPerSecond, double sendLagMeanNanos) {
        if (offeredPerSecond == 0) {
            return null;
        }
        double ratio = achievedPerSecond / offeredPerSecond;
        if (ratio < MIN_ACHIEVED) {
            return String.format(L, "achieved %.3f of offered, below %.2f", ratio, MIN_ACHIEVED);
        }
        double lagMs = sendLagMeanNanos / 1e6;
        if (lagMs > ScheduleLag.LATE_NANOS / 1e6) {
            return String.format(L, "mean send lag %.3f ms, over %.0f ms", lagMs, ScheduleLag.LATE_NANOS / 1e6);
        }
        return null;
    }

    /** Why {@code s} was not offered in full, or null when it was: the rule above on its numbers. */
    public static String shortfall(Stage s) {
        return s.offeredInFull()
                ? null
                : shortfall(s.offeredPerSecond(), s.achievedPerSecond(), s.sendLagMeanMs() * 1e6);
    }

    /** The stages of a run of {@code ramp} whose phases are {@code phases}, for {@code summary.json}. */
    public static List<Stage> of(Ramp ramp, List<PhaseResult> phases) {
        List<Stage> stages = new ArrayList<>(phases.size());
        for (PhaseResult p : phases) {
            Ramp.Stage s = ramp.stages().get(p.index());
            ScheduleLag.Snapshot lag = p.scheduleLag();
            double offered = p.offeredPerSecond();
            stages.add(new Stage(
                    p.name(),
                    ramp.fromPerSecond(p.index()),
                    s.targetPerSecond(),
                    s.durationNanos() / 1e9,
                    offered,
                    p.achievedPerSecond(),
                    offered == 0 ? 1 : p.achievedPerSecond() / offered,
                    lag.meanNanos() / 1e6,
                    lag.maxNanos() / 1e6,
                    lag.lateSends(),
                    !p.started() || shortfall(offered, p.achievedPerSecond(), lag.meanNanos()) == null));
        }
        return stages;
    }

    /** The console's two lines on the started stages of {@code s}: the verdict with the worst, and the figures. */
    public static List<String> brief(RunSummary s) {
        List<Stage> started = s.ramp().stages().stream()
                .filter(st -> s.phases().stream().anyMatch(p -> p.name().equals(st.name()) && p.ran()))
                .toList();
        long flagged = started.stream().filter(st -> !st.offeredInFull()).count();
        String verdict = started.stream()
                .min(Comparator.comparing(Stage::offeredInFull)
                        .thenComparingDouble(Stage::achievedOverOffered)
                        .thenComparingDouble(st -> -st.sendLagMeanMs()))
                .map(worst -> flagged > 0
                        ? String.format(
                                L,
                                "NOT OFFERED IN FULL: %s%s of %d stages (worst: %s)",
                                worst.name(),
                                flagged > 1 ? " and " + (flagged - 1) + " more" : "",
                                started.size(),
                                shortfall(worst))
                        : String.format(
                                L,
                                "all %d stages offered in full (lowest: %s achieved %.3f of offered, send lag mean"
                                        + " %.3f ms)",
                                started.size(),
                                worst.name(),
                                worst.achievedOverOffered(),
                                worst.sendLagMeanMs()))
                .orElse("no stage started");
        return List.of(verdict, "each stage's rates and send lag: --verbose, and report.md from client-part2");
    }
}
