package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.report.RunSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The runs of one side of a comparison (the baseline or the candidate), all of one plan. Immutable and
 * thread-safe.
 *
 * @param name "baseline" or "candidate"
 * @param runs at least one run, all of the same {@link PlanKey}
 */
public record Side(String name, List<SummaryReader.Run> runs) {

    public Side {
        Objects.requireNonNull(name, "name");
        runs = List.copyOf(runs);
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a side without runs: " + name);
        }
    }

    /**
     * The side of {@code runs}.
     *
     * @throws CompareInputException when its runs are not all of one plan (a median over unlike runs means
     *     nothing), naming the first run that differs and how
     */
    public static Side of(String name, List<SummaryReader.Run> runs) throws CompareInputException {
        if (runs.isEmpty()) {
            throw new CompareInputException("no " + name + " run given");
        }
        SummaryReader.Run first = runs.get(0);
        for (SummaryReader.Run r : runs) {
            List<String> d = PlanKey.of(first.summary()).differences(PlanKey.of(r.summary()));
            if (!d.isEmpty()) {
                throw new CompareInputException("the " + name + " runs are not of one plan: " + first.source()
                        + " and " + r.source() + " differ in " + String.join(", ", d)
                        + " (a sweep? give one run folder such as out/t64)");
            }
        }
        return new Side(name, runs);
    }

    /** The plan every run of this side shares. */
    public PlanKey plan() {
        return PlanKey.of(runs.get(0).summary());
    }

    /** The spread over this side's runs of what {@code value} gives each (null: not measured by that run). */
    public Spread spread(Function<RunSummary, Double> value) {
        List<Double> values = new ArrayList<>(runs.size());
        for (SummaryReader.Run r : runs) {
            values.add(value.apply(r.summary()));
        }
        return Spread.of(values);
    }

    /** Whether any run of this side has latencies from the intended send. */
    public boolean hasIntended() {
        return runs.stream().anyMatch(r -> r.summary().latencyFromIntendedMs() != null);
    }

    /** {@code 1 run (out/t8/summary.json)} or {@code 3 runs (a, b, c)}. */
    public String describe() {
        List<String> sources = runs.stream().map(r -> r.source().toString()).toList();
        return runs.size() + (runs.size() == 1 ? " run (" : " runs (") + String.join(", ", sources) + ")";
    }
}
