package io.upic.liftride.client.part2.compare;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One run as {@code compare} reads it from a summary: where it came from, its plan, its numbers for the whole
 * run and per phase. Immutable and thread-safe.
 *
 * @param source  the summary file it was read from
 * @param client  the program that wrote it ({@code client-part2}, {@code client-part2 merge}, {@code client-part1})
 * @param plan    its plan
 * @param run     the whole run's numbers
 * @param phases  each phase's numbers, in plan order
 * @param stopped whether the run was cut short
 * @param wallSeconds its wall time; NaN when its summary has none
 */
public record ComparedRun(
        Path source,
        String client,
        PlanKey plan,
        ScopeNumbers run,
        List<ScopeNumbers> phases,
        boolean stopped,
        double wallSeconds) {

    public ComparedRun {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(run, "run");
        phases = List.copyOf(phases);
    }

    /** The phase named {@code name}, if the run has one. */
    public Optional<ScopeNumbers> phase(String name) {
        return phases.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** Whether the summary has latencies from the intended send (an open-model run). */
    public boolean hasIntended() {
        return run.intended() != null;
    }
}
