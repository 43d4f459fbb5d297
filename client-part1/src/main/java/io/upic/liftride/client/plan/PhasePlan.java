package io.upic.liftride.client.plan;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntBinaryOperator;

/**
 * A named list of {@link Phase}s, and the arithmetic that turns it into a {@link LoadPlan} (rules in
 * docs/client.md): a phase's threads are ceil(threadsFraction x numThreads) within 1..numSkiers, over
 * contiguous disjoint skier ranges; a thread sends round-half-up(factor x numRuns x range size), at least
 * 1; a phase starts once ceil(startAfterFraction x the previous phase's threads) have finished. Immutable
 * and thread-safe.
 *
 * @param name   the plan's name as accepted by {@code --plan}
 * @param phases phases in start order
 */
public record PhasePlan(String name, List<Phase> phases) {

    /** Day length of the assignment: minutes 1..420 (9am-4pm). */
    public static final int DAY_MINUTES = 420;

    public PhasePlan {
        phases = List.copyOf(phases);
    }

    /** The Fall 2021 plan (the default); see docs/client.md. */
    public static PhasePlan fall2021() {
        return new PhasePlan(
                "fall2021",
                List.of(
                        new Phase("startup", 0.25, 0.2, 1, 90, 0),
                        new Phase("peak", 1.0, 0.6, 91, 360, 0.1),
                        new Phase("cooldown", 0.25, 0.1, 361, 420, 0.1)));
    }

    /** The Spring 2022 plan: as {@link #fall2021()} but triggers at 20% and Phase 3 runs 10% of numThreads. */
    public static PhasePlan spring2022() {
        return new PhasePlan(
                "spring2022",
                List.of(
                        new Phase("startup", 0.25, 0.2, 1, 90, 0),
                        new Phase("peak", 1.0, 0.6, 91, 360, 0.2),
                        new Phase("cooldown", 0.1, 0.1, 361, 420, 0.2)));
    }

    /** Names accepted by {@link #named(String)}, default first. */
    public static List<String> names() {
        return List.of("fall2021", "spring2022");
    }

    /**
     * The built-in plan with this name (case-insensitive).
     *
     * @throws IllegalArgumentException naming the allowed values if there is none
     */
    public static PhasePlan named(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "fall2021" -> fall2021();
            case "spring2022" -> spring2022();
            default ->
                throw new IllegalArgumentException(
                        "unknown plan " + name + ", expected one of " + String.join(", ", names()));
        };
    }

    /**
     * Resolves this plan for one run.
     *
     * @param numThreads -t, >= 1
     * @param numSkiers  -s, >= 1
     * @param numRuns    -m, >= 1
     */
    public LoadPlan forRun(int numThreads, int numSkiers, int numRuns) {
        List<PlannedPhase> planned = new ArrayList<>(phases.size());
        int previousThreads = 0;
        for (int k = 0; k < phases.size(); k++) {
            Phase phase = phases.get(k);
            int threads = Math.max(1, Math.min(ceilTimes(phase.threadsFraction(), numThreads), numSkiers));
            int startAfter = k == 0 ? 0 : ceilTimes(phase.startAfterFraction(), previousThreads);
            planned.add(new PlannedPhase(
                    k,
                    phase,
                    threads,
                    threads,
                    startAfter,
                    assignments(
                            k, phase, threads, numSkiers, (i, size) -> requestsFor(phase.factor(), numRuns, size))));
            previousThreads = threads;
        }
        return new LoadPlan(name, numThreads, numSkiers, numRuns, planned);
    }

    /** round-half-up(factor x numRuns x skiers), at least 1. */
    static int requestsFor(double factor, int numRuns, int skiers) {
        BigDecimal exact = BigDecimal.valueOf(factor).multiply(BigDecimal.valueOf((long) numRuns * skiers));
        return Math.max(1, exact.setScale(0, RoundingMode.HALF_UP).intValueExact());
    }

    /** ceil(fraction x n) on the decimal value: 0.07 x 100 is 7, where the double product rounds up to 8. */
    static int ceilTimes(double fraction, int n) {
        return BigDecimal.valueOf(fraction)
                .multiply(BigDecimal.valueOf(n))
                .setScale(0, RoundingMode.CEILING)
                .intValueExact();
    }

    /** The threads of a phase over the skier ranges, thread {@code i} sending {@code requests.applyAsInt(i, size)}. */
    static List<ThreadAssignment> assignments(
            int phaseIndex, Phase phase, int threads, int numSkiers, IntBinaryOperator requests) {
        int base = numSkiers / threads;
        int extra = numSkiers % threads; // the first `extra` threads take one skier more
        List<ThreadAssignment> assignments = new ArrayList<>(threads);
        int from = 1;
        for (int i = 0; i < threads; i++) {
            int size = base + (i < extra ? 1 : 0);
            int to = from + size - 1;
            assignments.add(new ThreadAssignment(
                    phaseIndex,
                    phase.name(),
                    i,
                    from,
                    to,
                    requests.applyAsInt(i, size),
                    phase.startMinute(),
                    phase.endMinute()));
            from = to + 1;
        }
        return assignments;
    }
}
