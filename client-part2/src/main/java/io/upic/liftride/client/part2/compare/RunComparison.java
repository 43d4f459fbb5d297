package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunSummary.Latency;
import io.upic.liftride.client.threshold.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A baseline and a candidate compared, metric by metric, for the whole run, each phase and each operation; only
 * the whole run's rows can be a {@link Verdict#REGRESSION} (the others are noisier). Immutable and thread-safe.
 *
 * @param baseline        the baseline's runs
 * @param candidate       the candidate's runs
 * @param band            the noise band applied
 * @param planDifferences how the two plans differ (empty unless compared with {@code --allow-different-plans})
 * @param scopes          the whole run first, then each phase both sides have, then each operation both sides
 *                        sent, in the baseline's order
 */
public record RunComparison(
        Side baseline, Side candidate, NoiseBand band, List<String> planDifferences, List<Scope> scopes) {

    /** Exit code when a metric regressed past its band, as a failed {@code --threshold}. */
    public static final int REGRESSION_EXIT_CODE = 3;

    /** A run shorter than this (seconds) measures its start-up (JIT, connections), not the code: too short. */
    public static final double MIN_SECONDS = 5;

    /** Runs per side that show how far a metric moves between runs of the same code. */
    public static final int RUNS_FOR_A_BAND = 5;

    /**
     * One scope's rows.
     *
     * @param name    {@code run}, the phase's name, or the operation's {@code operationId}
     * @param heading what the table calls it: {@code Whole run}, {@code Phase peak},
     *                {@code Operation getSkierDayVertical}
     * @param gated   whether its rows can be a regression (the whole run only)
     * @param rows    one per metric, in table order
     */
    public record Scope(String name, String heading, boolean gated, List<MetricRow> rows) {

        public Scope {
            Objects.requireNonNull(name, "name");
            rows = List.copyOf(rows);
        }
    }

    public RunComparison {
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(candidate, "candidate");
        Objects.requireNonNull(band, "band");
        planDifferences = List.copyOf(planDifferences);
        scopes = List.copyOf(scopes);
    }

    /**
     * Compares {@code candidate} with {@code baseline} under {@code band}.
     *
     * @param allowDifferentPlans compare even when the plans differ (the differences are kept and shown)
     * @throws CompareInputException when the plans differ and that is not allowed, naming each field that differs
     */
    public static RunComparison of(Side baseline, Side candidate, NoiseBand band, boolean allowDifferentPlans)
            throws CompareInputException {
        List<String> diff = baseline.plan().differences(candidate.plan());
        if (!diff.isEmpty() && !allowDifferentPlans) {
            throw new CompareInputException("refusing to compare unlike plans: " + String.join(", ", diff)
                    + " (baseline vs candidate; --allow-different-plans compares them anyway)");
        }
        List<Metric> metrics = new ArrayList<>(ComparedMetrics.ACTUAL);
        if (baseline.hasIntended() || candidate.hasIntended()) {
            metrics.addAll(ComparedMetrics.INTENDED);
        }
        List<Scope> scopes = new ArrayList<>();
        Judge judge = new Judge(baseline, candidate, band);
        scopes.add(judge.scope("run", "Whole run", true, metrics, r -> Optional.of(numbers(r))));
        RunSummary b = baseline.runs().get(0).summary(),
                c = candidate.runs().get(0).summary();
        for (RunSummary.Phase p : b.phases()) {
            if (phase(c, p.name()).isPresent()) {
                scopes.add(judge.scope(p.name(), "Phase " + p.name(), false, metrics, r -> phase(r, p.name())));
            }
        }
        for (RunSummary.OperationRow o :
                Objects.requireNonNullElse(b.operations(), List.<RunSummary.OperationRow>of())) {
            String op = o.operation();
            if (operation(c, op).isPresent()) {
                scopes.add(judge.scope(op, "Operation " + op, false, ComparedMetrics.ACTUAL, r -> operation(r, op)));
            }
        }
        return new RunComparison(baseline, candidate, band, diff, scopes);
    }

    /** A scope's numbers as a summary gives them, for {@link ComparedMetrics#value}. */
    private record Numbers(double throughput, long failed, Latency latency, Latency intended) {

        Double value(Metric m) {
            return ComparedMetrics.value(m, throughput, failed, latency, intended);
        }
    }

    private static Numbers numbers(RunSummary s) {
        return new Numbers(s.throughput(), s.failed(), s.latencyMs(), s.latencyFromIntendedMs());
    }

    private static Optional<Numbers> phase(RunSummary s, String name) {
        return s.phases().stream()
                .filter(p -> p.name().equals(name))
                .findFirst()
                .map(p -> new Numbers(p.throughput(), p.failed(), p.latencyMs(), p.latencyFromIntendedMs()));
    }

    /** Operation {@code id}'s numbers in {@code s} (its latencies from the actual send only), if it sent it. */
    private static Optional<Numbers> operation(RunSummary s, String id) {
        return Objects.requireNonNullElse(s.operations(), List.<RunSummary.OperationRow>of()).stream()
                .filter(o -> o.operation().equals(id))
                .findFirst()
                .map(o -> new Numbers(o.throughput(), o.failed(), o.latencyMs(), null));
    }

    /** Where a scope's numbers are in a run. */
    @FunctionalInterface
    private interface ScopeOf {
        Optional<Numbers> in(RunSummary run);
    }

    /** Both sides and the band, which judge each scope's rows. */
    private record Judge(Side b, Side c, NoiseBand band) {

        Scope scope(String name, String heading, boolean gated, List<Metric> metrics, ScopeOf of) {
            List<MetricRow> rows = new ArrayList<>(metrics.size());
            for (Metric m : metrics) {
                Spread base = b.spread(r -> of.in(r).map(s -> s.value(m)).orElse(null));
                Spread cand = c.spread(r -> of.in(r).map(s -> s.value(m)).orElse(null));
                rows.add(MetricRow.judge(m, base, cand, band.of(m), gated));
            }
            return new Scope(name, heading, gated, rows);
        }
    }

    /** The rows that regressed (the whole run's only), in table order. */
    public List<MetricRow> regressions() {
        return scopes.stream()
                .flatMap(s -> s.rows().stream())
                .filter(MetricRow::regression)
                .toList();
    }

    /** 0 when no metric regressed past its band, {@link #REGRESSION_EXIT_CODE} when any did. */
    public int exitCode() {
        return regressions().isEmpty() ? 0 : REGRESSION_EXIT_CODE;
    }

    /** What makes the verdict weak (a side of one run, runs under {@link #MIN_SECONDS}), as sentences. */
    public List<String> caveats() {
        List<String> c = new ArrayList<>();
        List<String> single = new ArrayList<>();
        for (Side s : List.of(baseline, candidate)) {
            if (s.runs().size() == 1) {
                single.add(s.name());
            }
            for (SummaryReader.Run r : s.runs()) {
                if (r.summary().wallSeconds() < MIN_SECONDS) {
                    c.add(String.format(
                            Locale.US,
                            "the %s run %s lasted %.2f s: too short to compare (under %.0f s a run measures its"
                                    + " start-up, the JIT and the connections, more than the code; give it more"
                                    + " requests with -s or -m)",
                            s.name(),
                            r.source(),
                            r.summary().wallSeconds(),
                            MIN_SECONDS));
                }
            }
        }
        if (!single.isEmpty()) {
            c.add(
                    0,
                    String.format(
                            Locale.US,
                            "one run on %s: no noise band can be measured, so a change may be the runs' own spread;"
                                    + " run each side %d times and give them comma-separated (a,b,c,d,e) to see their"
                                    + " range",
                            single.size() == 2 ? "each side" : "the " + single.get(0) + " side",
                            RUNS_FOR_A_BAND));
        }
        return c;
    }

    /** The verdict in one line, followed by the {@link #caveats} so a regression is never read without them. */
    public String verdictLine() {
        List<String> caveats = caveats();
        String but = caveats.isEmpty() ? "" : "; CAUTION: " + String.join("; ", caveats);
        List<MetricRow> r = regressions();
        if (r.isEmpty()) {
            return "no regression past the band" + but;
        }
        List<String> parts = new ArrayList<>();
        for (MetricRow row : r) {
            parts.add(row.metric() + " " + row.changeText() + " ("
                    + row.format(row.baseline().median()) + " -> "
                    + row.format(row.candidate().median()) + " " + ComparedMetrics.unit(row.metric()) + ", band "
                    + NoiseBand.text(row.band()) + ")");
        }
        return "REGRESSION: " + String.join(", ", parts) + but;
    }
}
