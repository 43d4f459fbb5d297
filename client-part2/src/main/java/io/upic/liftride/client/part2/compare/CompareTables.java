package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.part2.report.ReportModel;
import io.upic.liftride.client.part2.report.ReportModel.Fact;
import io.upic.liftride.client.report.Table;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RunComparison} as the report model ({@link ReportModel.Comparison}): what was compared as labelled
 * facts and one table per scope with each metric's change, band and verdict; the report's renderers write it to the
 * console and markdown. Stateless and thread-safe.
 */
final class CompareTables {

    private static final List<String> COLUMNS = List.of("baseline", "candidate", "change", "band", "verdict");
    private static final List<Boolean> RIGHT = List.of(false, true, true, true, true, false);

    private CompareTables() {}

    /** The model of {@code c}. */
    static ReportModel.Comparison of(RunComparison c) {
        return new ReportModel.Comparison(
                "Load test: candidate vs baseline",
                c.verdictLine(),
                c.exitCode(),
                facts(c),
                c.scopes().stream().map(CompareTables::table).toList());
    }

    /** A scope's rows; the change and the verdict in bold where the metric got worse past its band. */
    private static Table table(RunComparison.Scope s) {
        List<String> header = new ArrayList<>(List.of(s.heading()));
        header.addAll(COLUMNS);
        List<List<String>> rows = new ArrayList<>();
        for (MetricRow r : s.rows()) {
            boolean worse = r.verdict() == Verdict.REGRESSION || r.verdict() == Verdict.WORSE;
            rows.add(List.of(
                    r.label(),
                    r.text(r.baseline()),
                    r.text(r.candidate()),
                    bold(r.changeText(), worse),
                    NoiseBand.text(r.band()),
                    bold(r.verdict().text(), worse)));
        }
        return new Table(header, RIGHT, rows);
    }

    private static String bold(String cell, boolean bold) {
        return bold ? "**" + cell + "**" : cell;
    }

    /** The runs of each side, the plan, the band, where each number comes from, the cautions and early stops. */
    private static List<Fact> facts(RunComparison c) {
        List<Fact> f = new ArrayList<>();
        f.add(new Fact("Baseline", c.baseline().describe()));
        f.add(new Fact("Candidate", c.candidate().describe()));
        if (c.planDifferences().isEmpty()) {
            f.add(new Fact("Plan", c.baseline().plan().describe()));
        } else {
            f.add(new Fact(
                    "Plans",
                    "baseline " + c.baseline().plan().describe() + "; candidate "
                            + c.candidate().plan().describe()));
            f.add(new Fact(
                    "CAUTION",
                    "UNLIKE PLANS compared (--allow-different-plans): " + String.join(", ", c.planDifferences())));
        }
        f.add(new Fact(
                "Band",
                c.band().describe() + " (a change past it the wrong way in the whole run is a regression: exit 3;"
                        + " phases are shown to find where)"));
        if (c.baseline().runs().size() > 1 || c.candidate().runs().size() > 1) {
            f.add(new Fact(
                    "Several runs", "the median of each side's runs is compared, their range (min–max) in brackets"));
        }
        f.add(new Fact(
                "Latency",
                "p50 to p99.9 of each run from its whole-run HdrHistogram (all attempts, microseconds, 3 significant"
                        + " digits, capped at the exact max); mean and max exact; with several runs the median of"
                        + " the runs' values"));
        c.caveats().forEach(caveat -> f.add(new Fact("CAUTION", caveat)));
        for (Side s : List.of(c.baseline(), c.candidate())) {
            for (SummaryReader.Run r : s.runs()) {
                if (r.summary().stopped()) {
                    f.add(new Fact("Note", "the " + s.name() + " run " + r.source() + " was stopped early"));
                }
            }
        }
        return f;
    }
}
