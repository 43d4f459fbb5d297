package io.upic.liftride.client.plan;

import java.util.List;

/**
 * A phase resolved for concrete inputs: its thread count, its start trigger and every thread's
 * {@link ThreadAssignment}. Immutable and thread-safe.
 *
 * @param wholeThreads threads of this phase in the whole plan, every shard's together, which a thread's send
 *                    schedule is spread over; {@code threads} unless {@link Shard} dealt the phase
 * @param startAfter  how many threads of the previous phase must finish before this phase starts; 0 for the first
 * @param assignments one entry per thread, ranges ascending, disjoint and covering 1..numSkiers
 */
public record PlannedPhase(
        int index, Phase phase, int threads, int wholeThreads, int startAfter, List<ThreadAssignment> assignments) {

    public PlannedPhase {
        assignments = List.copyOf(assignments);
    }

    /** The phase's name. */
    public String name() {
        return phase.name();
    }

    /** Requests all threads of this phase send together. */
    public long requests() {
        return assignments.stream().mapToLong(ThreadAssignment::requests).sum();
    }

    /** Smallest skier range of a thread in this phase. */
    public int minSkiersPerThread() {
        return assignments.stream().mapToInt(ThreadAssignment::skiers).min().orElse(0);
    }

    /** Largest skier range of a thread in this phase (at most one more than the smallest). */
    public int maxSkiersPerThread() {
        return assignments.stream().mapToInt(ThreadAssignment::skiers).max().orElse(0);
    }
}
