package io.upic.liftride.client.plan;

import java.util.List;

/**
 * A {@link PhasePlan} resolved for one run's inputs: every phase's threads, triggers and per-thread
 * work. Pure data, immutable and thread-safe; the engine executes it as is.
 *
 * @param planName   the phase plan's name ("fall2021", "spring2022")
 * @param numThreads the -t value the plan was computed for
 * @param numSkiers  the -s value
 * @param numRuns    the -m value (mean lift rides per skier per day)
 * @param phases     the phases in start order
 */
public record LoadPlan(String planName, int numThreads, int numSkiers, int numRuns, List<PlannedPhase> phases) {

    public LoadPlan {
        phases = List.copyOf(phases);
    }

    /** Requests the whole plan sends: the sum over every thread of every phase. */
    public long totalRequests() {
        return phases.stream().mapToLong(PlannedPhase::requests).sum();
    }

    /** Threads of all phases together (each thread runs one {@link ThreadAssignment}). */
    public int totalThreads() {
        return phases.stream().mapToInt(PlannedPhase::threads).sum();
    }

    /** The phase with the most threads (the first of them on a tie): the "peak" Little's law is about. */
    public PlannedPhase peakPhase() {
        return phases.stream()
                .reduce((best, p) -> p.threads() > best.threads() ? p : best)
                .orElseThrow();
    }
}
