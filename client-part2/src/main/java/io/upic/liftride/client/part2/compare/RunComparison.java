package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.part2.compare.MetricRow.Spread;
import io.upic.liftride.client.part2.compare.MetricRow.Verdict;
import io.upic.liftride.client.part2.report.ReportModel;
import io.upic.liftride.client.part2.report.ReportModel.Fact;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.Table;
import io.upic.liftride.client.threshold.Metric;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

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

    private static final List<String> COLUMNS = List.of("baseline", "candidate", "change", "band", "verdict");
    private static final List<Boolean> RIGHT = List.of(false, true, true, true, true, false);

    /**
     * The runs of one side (the baseline or the candidate), all of one plan.
     *
     * @param name "baseline" or "candidate"
     * @param runs at least one run
     */
    public record Side(String name, List<RunRecord> runs) {

        /**
         * The side of {@code runs}.
         *
         * @throws CompareInputException when there are none, or they are not all of one plan (a median over unlike
         *     runs means nothing), naming the first run that differs and how
         */
        public static Side of(String name, List<RunRecord> runs) throws CompareInputException {
            if (runs.isEmpty()) {
                throw new CompareInputException("no " + name + " run given");
            }
            RunRecord first = runs.get(0);
            for (RunRecord r : runs) {
                List<String> d = differences(first.summary(), r.summary());
                if (!d.isEmpty()) {
                    throw new CompareInputException("the " + name + " runs are not of one plan: " + first.source()
                            + " and " + r.source() + " differ in " + String.join(", ", d)
                            + " (a sweep? give one run folder such as out/t64)");
                }
            }
            return new Side(name, List.copyOf(runs));
        }

        RunSummary first() {
            return runs.get(0).summary();
        }

        /** The spread over this side's runs of what {@code value} gives each (null: not measured by that run). */
        Spread spread(Function<RunSummary, Double> value) {
            return Spread.of(runs.stream().map(r -> value.apply(r.summary())).toList());
        }

        /** {@code 1 run (out/t8/summary.json)} or {@code 3 runs (a, b, c)}. */
        String describe() {
            List<String> sources = runs.stream().map(r -> r.source().toString()).toList();
            return runs.size() + (runs.size() == 1 ? " run (" : " runs (") + String.join(", ", sources) + ")";
        }
    }

    /**
     * One scope's rows.
     *
     * @param name    {@code run}, the phase's name, or the operation's {@code operationId}
     * @param heading what the table calls it: {@code Whole run}, {@code Phase peak},
     *                {@code Operation getSkierDayVertical}
     * @param rows    one per metric, in table order
     */
    public record Scope(String name, String heading, List<MetricRow> rows) {}

    /** A scope's numbers as a summary gives them, for {@link MetricRow#value}. */
    private record Numbers(double throughput, long failed, RunSummary.Latency latency, RunSummary.Latency intended) {}

    /**
     * Compares {@code candidate} with {@code baseline} under {@code band}.
     *
     * @param allowDifferentPlans compare even when the plans differ (the differences are kept and shown)
     * @throws CompareInputException when the plans differ and that is not allowed, naming each field that differs
     */
    public static RunComparison of(Side baseline, Side candidate, NoiseBand band, boolean allowDifferentPlans)
            throws CompareInputException {
        List<String> diff = differences(baseline.first(), candidate.first());
        if (!diff.isEmpty() && !allowDifferentPlans) {
            throw new CompareInputException("refusing to compare unlike plans: " + String.join(", ", diff)
                    + " (baseline vs candidate; --allow-different-plans compares them anyway)");
        }
        List<Metric> metrics = new ArrayList<>(MetricRow.ACTUAL);
        if (hasIntended(baseline) || hasIntended(candidate)) {
            metrics.addAll(MetricRow.INTENDED);
        }
        RunComparison c = new RunComparison(baseline, candidate, band, List.copyOf(diff), new ArrayList<>());
        c.add(
                "run",
                "Whole run",
                true,
                metrics,
                r -> Optional.of(new Numbers(r.throughput(), r.failed(), r.latencyMs(), r.latencyFromIntendedMs())));
        for (RunSummary.Phase p : baseline.first().phases()) {
            Function<RunSummary, Optional<Numbers>> phase = r -> r.phases().stream()
                    .filter(q -> q.name().equals(p.name()))
                    .findFirst()
                    .map(q -> new Numbers(q.throughput(), q.failed(), q.latencyMs(), q.latencyFromIntendedMs()));
            if (phase.apply(candidate.first()).isPresent()) {
                c.add(p.name(), "Phase " + p.name(), false, metrics, phase);
            }
        }
        for (RunSummary.OperationRow o : operations(baseline.first())) {
            Function<RunSummary, Optional<Numbers>> op = r -> operations(r).stream()
                    .filter(q -> q.operation().equals(o.operation()))
                    .findFirst()
                    .map(q -> new Numbers(q.throughput(), q.failed(), q.latencyMs(), null));
            if (op.apply(candidate.first()).isPresent()) {
                c.add(o.operation(), "Operation " + o.operation(), false, MetricRow.ACTUAL, op);
            }
        }
        return new RunComparison(baseline, candidate, band, diff, List.copyOf(c.scopes));
    }

    private void add(
            String name,
            String heading,
            boolean gated,
            List<Metric> metrics,
            Function<RunSummary, Optional<Numbers>> of) {
        List<MetricRow> rows = new ArrayList<>(metrics.size());
        for (Metric m : metrics) {
            Function<RunSummary, Double> value = r -> of.apply(r)
                    .map(n -> MetricRow.value(m, n.throughput(), n.failed(), n.latency(), n.intended()))
                    .orElse(null);
            rows.add(MetricRow.judge(m, baseline.spread(value), candidate.spread(value), band.of(m), gated));
        }
        scopes.add(new Scope(name, heading, List.copyOf(rows)));
    }

    private static boolean hasIntended(Side s) {
        return s.runs().stream().anyMatch(r -> r.summary().latencyFromIntendedMs() != null);
    }

    private static List<RunSummary.OperationRow> operations(RunSummary s) {
        return Objects.requireNonNullElse(s.operations(), List.of());
    }

    /**
     * What makes two runs runs of the same plan, as {@code flag -> value}: the flags, and warm-up (a run after a
     * baseline ran on a warm JVM).
     */
    static Map<String, String> plan(RunSummary s) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("--plan", s.plan());
        p.put("-t", "" + s.threads());
        p.put("-s", "" + s.skiers());
        p.put("-l", "" + s.lifts());
        p.put("-m", "" + s.meanRuns());
        p.put("--transport", s.transport());
        p.put("--rate", s.offeredRate() == null ? "none (closed model)" : rate(s.offeredRate()));
        p.put("--mix", Objects.requireNonNullElse(mix(s), "none"));
        p.put("--ramp", s.ramp() == null ? "none" : s.ramp().spec());
        p.put(
                "--shard",
                s.shard() == null ? "none" : s.shard().index() + "/" + s.shard().count());
        p.put("warm-up", s.prediction() != null ? "a baseline (warm JVM)" : "none (--baseline 0: cold JVM)");
        return p;
    }

    /** Each flag in which {@code b}'s plan differs from {@code a}'s, as {@code -t 8 vs 16}; empty when alike. */
    public static List<String> differences(RunSummary a, RunSummary b) {
        Map<String, String> pb = plan(b);
        List<String> d = new ArrayList<>();
        plan(a).forEach((flag, v) -> {
            if (!Objects.equals(v, pb.get(flag))) {
                d.add(flag + " " + v + " vs " + pb.get(flag));
            }
        });
        return d;
    }

    /** The mix of {@code s} as {@code operationId=weight,...}, in the contract's order; null without --mix. */
    public static String mix(RunSummary s) {
        return s.operations() == null
                ? null
                : String.join(
                        ",",
                        s.operations().stream()
                                .map(o -> o.operation() + "=" + o.weight())
                                .toList());
    }

    private static String rate(double r) {
        return r == Math.rint(r) ? String.format(Locale.US, "%d", (long) r) : Double.toString(r);
    }

    /** The plan as flags, e.g. {@code -t 8 -s 2000 -l 40 -m 10 --plan assignment --transport sdk}. */
    static String describe(RunSummary s) {
        Map<String, String> p = plan(s);
        return String.format(
                        Locale.US,
                        "-t %d -s %d -l %d -m %d --plan %s --transport %s",
                        s.threads(),
                        s.skiers(),
                        s.lifts(),
                        s.meanRuns(),
                        s.plan(),
                        s.transport())
                + (s.operations() == null ? "" : " --mix " + p.get("--mix"))
                + (s.ramp() != null
                        ? " --ramp " + p.get("--ramp")
                        : s.offeredRate() == null ? " (closed model)" : " --rate " + p.get("--rate"))
                + (s.shard() == null ? "" : " --shard " + p.get("--shard"))
                + (s.prediction() != null ? "" : " --baseline 0");
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
            for (RunRecord r : s.runs()) {
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
                    + row.format(row.candidate().median()) + " " + MetricRow.unit(row.metric()) + ", band "
                    + NoiseBand.text(row.band()) + ")");
        }
        return "REGRESSION: " + String.join(", ", parts) + but;
    }

    /** This comparison as the report model the console and markdown renderers write. */
    public ReportModel.Comparison model() {
        List<Table> tables = new ArrayList<>();
        for (Scope s : scopes) {
            List<String> header = new ArrayList<>(List.of(s.heading()));
            header.addAll(COLUMNS);
            List<List<String>> rows = new ArrayList<>();
            for (MetricRow r : s.rows()) { // the change and the verdict in bold where the metric got worse
                boolean worse = r.verdict() == Verdict.REGRESSION || r.verdict() == Verdict.WORSE;
                rows.add(List.of(
                        r.label(),
                        r.text(r.baseline()),
                        r.text(r.candidate()),
                        bold(r.changeText(), worse),
                        NoiseBand.text(r.band()),
                        bold(r.verdict().text, worse)));
            }
            tables.add(new Table(header, RIGHT, rows));
        }
        return new ReportModel.Comparison(
                "Load test: candidate vs baseline", verdictLine(), exitCode(), facts(), tables);
    }

    private static String bold(String cell, boolean bold) {
        return bold ? "**" + cell + "**" : cell;
    }

    /** The runs of each side, the plan, the band, where each number comes from, the cautions and early stops. */
    private List<Fact> facts() {
        List<Fact> f = new ArrayList<>();
        f.add(new Fact("Baseline", baseline.describe()));
        f.add(new Fact("Candidate", candidate.describe()));
        if (planDifferences.isEmpty()) {
            f.add(new Fact("Plan", describe(baseline.first())));
        } else {
            f.add(new Fact(
                    "Plans", "baseline " + describe(baseline.first()) + "; candidate " + describe(candidate.first())));
            f.add(new Fact(
                    "CAUTION",
                    "UNLIKE PLANS compared (--allow-different-plans): " + String.join(", ", planDifferences)));
        }
        f.add(new Fact(
                "Band",
                band.describe() + " (a change past it the wrong way in the whole run is a regression: exit 3;"
                        + " phases are shown to find where)"));
        if (baseline.runs().size() > 1 || candidate.runs().size() > 1) {
            f.add(new Fact(
                    "Several runs", "the median of each side's runs is compared, their range (min–max) in brackets"));
        }
        f.add(new Fact(
                "Latency",
                "p50 to p99.9 of each run from its whole-run HdrHistogram (all attempts, microseconds, 3 significant"
                        + " digits, capped at the exact max); mean and max exact; with several runs the median of"
                        + " the runs' values"));
        caveats().forEach(caveat -> f.add(new Fact("CAUTION", caveat)));
        for (Side s : List.of(baseline, candidate)) {
            for (RunRecord r : s.runs()) {
                if (r.summary().stopped()) {
                    f.add(new Fact("Note", "the " + s.name() + " run " + r.source() + " was stopped early"));
                }
            }
        }
        return f;
    }
}
