package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.engine.ScheduleLag;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.OpenModel;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.prediction.Prediction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tables of a run's account, formatted once for the console and the reports: the plan, the request account,
 * the phases, the open model's rates, Little's law against the measurement and a sweep's runs. Stateless and
 * thread-safe.
 */
public final class RunTables {

    private static final Locale L = Locale.US;

    private RunTables() {}

    /** The plan's phases: threads, skiers, requests, minutes, when each starts; the offered rate with --rate. */
    public static Table plan(LoadPlan plan, OpenModel open) {
        List<List<String>> rows = new ArrayList<>();
        PlannedPhase previous = null;
        for (PlannedPhase p : plan.phases()) {
            String starts = previous == null
                    ? "with the run"
                    : p.startAfter() == 0
                            ? "with " + previous.name()
                            : String.format(
                                    L,
                                    "after %d of %d %s threads finish (%s%%, rounded up)",
                                    p.startAfter(),
                                    previous.threads(),
                                    previous.name(),
                                    number(p.phase().startAfterFraction() * 100));
            List<String> row = Table.cells(
                    "%s|%d|%s|%,d|%d-%d|%s|%s",
                    p.name(),
                    p.threads(),
                    p.minSkiersPerThread() == p.maxSkiersPerThread()
                            ? Integer.toString(p.minSkiersPerThread())
                            : p.minSkiersPerThread() + "-" + p.maxSkiersPerThread(),
                    p.requests(),
                    p.phase().startMinute(),
                    p.phase().endMinute(),
                    starts,
                    open == null ? "" : number(open.offeredPerSecond(p.threads())));
            rows.add(open == null ? row.subList(0, 6) : row);
            previous = p;
        }
        String header = "phase|threads|skiers/thread|requests|minutes|starts";
        return open == null ? Table.of(header, "lrrrrl", rows) : Table.of(header + "|offered (req/s)", "lrrrrlr", rows);
    }

    /** A run's request account. */
    public static Table account(RunSummary q) {
        return Table.of(
                "planned|successful|failed|not sent|attempts|retries|wall (s)|throughput (req/s)",
                "rrrrrrrr",
                List.of(Table.cells(
                        "%,d|%,d|%,d|%,d|%,d|%,d|%.3f|%,.1f",
                        q.planned(),
                        q.successful(),
                        q.failed(),
                        q.notSent(),
                        q.attempts(),
                        q.retries(),
                        q.wallSeconds(),
                        q.throughput())));
    }

    /** Each phase's account, then the whole run's, with Little's law on measured numbers: in flight = X x W. */
    public static Table phases(RunSummary s) {
        List<List<String>> rows = new ArrayList<>();
        for (RunSummary.Phase p : s.phases()) {
            rows.add(
                    !p.ran() || p.threads() == 0
                            ? Table.cells(
                                    "%s|%d|%,d|-|-|%s||||",
                                    p.name(),
                                    p.threads(),
                                    p.requests(),
                                    p.ran() || p.threads() == 0 && !s.stopped()
                                            ? "no threads on this shard"
                                            : "not started")
                            : Table.cells(
                                    "%s|%d|%,d|%,d|%,d|%.3f|%,.1f|%s|%.1f|%.0f%%",
                                    p.name(),
                                    p.threads(),
                                    p.requests(),
                                    p.successful(),
                                    p.failed(),
                                    p.durationSeconds(),
                                    p.throughput(),
                                    mean(p.latencyMs()),
                                    p.inFlight(),
                                    100 * p.inFlight() / p.threads()));
        }
        RunSummary.Latency l = s.latencyMs();
        rows.add(Table.cells(
                "**whole run**|%d (-t)|%,d|%,d|%,d|%.3f|%,.1f|%s|%.1f|",
                s.threads(),
                s.planned(),
                s.successful(),
                s.failed(),
                s.wallSeconds(),
                s.throughput(),
                mean(l),
                l.mean() == null ? 0 : s.throughput() * l.mean() / 1e3));
        return Table.of(
                "phase|threads|requests|successful|failed|duration (s)|throughput (req/s)|mean latency (ms)"
                        + "|in flight (X x W)|in flight / threads",
                "lrrrrrrrrr",
                rows);
    }

    private static String mean(RunSummary.Latency l) {
        return l == null || l.mean() == null ? "-" : String.format(L, "%.3f", l.mean());
    }

    /** The open model's offered against achieved rate and send lag per started phase; null in the closed model. */
    public static Table openModel(RunResult r) {
        if (r.phases().isEmpty() || r.phases().get(0).offeredPerSecond() == null) {
            return null;
        }
        List<List<String>> rows = new ArrayList<>();
        for (PhaseResult p : r.phases()) {
            if (p.started()) {
                ScheduleLag.Snapshot lag = p.scheduleLag();
                rows.add(Table.cells(
                        "%s|%d|%,.1f|%,.1f|%.3f|%.3f|%.3f|%.3f|%,d",
                        p.name(),
                        p.threads(),
                        p.offeredPerSecond(),
                        p.achievedPerSecond(),
                        p.achievedPerSecond() / p.offeredPerSecond(),
                        lag.meanNanos() / 1e6,
                        lag.p99Nanos() / 1e6,
                        lag.maxNanos() / 1e6,
                        lag.lateSends()));
            }
        }
        return Table.of(
                "phase|threads|offered (req/s)|achieved (req/s)|achieved / offered|send lag mean (ms)"
                        + "|send lag p99 (ms)|send lag max (ms)|sends > 1 ms late",
                "lrrrrrrrr",
                rows);
    }

    /** Little's law's predictions against the measurement; the model's columns only when there is a model. */
    public static Table theory(TheoryTable t) {
        List<List<String>> rows = new ArrayList<>();
        for (TheoryTable.Row row : t.rows()) {
            rows.add(List.of(
                    row.quantity(),
                    row.measuredText(),
                    row.naiveText(),
                    row.naiveDiff(),
                    row.modelText(),
                    row.modelDiff()));
        }
        String header = "quantity|measured|naive N / W|diff|" + t.modelLabel() + "|diff";
        return Table.of(header, "lrrrrr", rows).columns(t.model() == null ? 4 : 6);
    }

    /** One run of a sweep: its record, and its Little's-law table or null. */
    public record SweepRow(RunSummary summary, TheoryTable theory) {

        /** The row of {@code report}'s run. */
        public static SweepRow of(RunReport report) {
            return new SweepRow(report.summary(), TheoryTable.of(report));
        }
    }

    /** The sweep's throughput and wall time: one row per run, its predictions beside the measurement. */
    public static Table sweep(List<SweepRow> sweep) {
        List<List<String>> rows = new ArrayList<>();
        for (SweepRow row : sweep) {
            RunSummary s = row.summary();
            TheoryTable t = row.theory();
            TheoryTable.Row x = t == null ? null : t.wholeRunThroughput();
            Prediction bp = t == null ? null : t.model();
            rows.add(Table.cells(
                    "%d|%,d|%,d|%.3f|%s|%s|%,.0f|%s|%s|%s|%s",
                    s.threads(),
                    s.planned(),
                    s.failed(),
                    s.wallSeconds(),
                    t == null ? "-" : String.format(L, "%.3f", t.naive().wallNanos() / 1e9),
                    bp == null ? "-" : String.format(L, "%.3f", bp.wallNanos() / 1e9),
                    s.throughput(),
                    x == null ? "-" : x.naiveText(),
                    x == null ? "-" : x.naiveDiff(),
                    x == null ? "-" : x.modelText(),
                    x == null ? "-" : x.modelDiff()));
        }
        return Table.of(
                "threads|requests|failed|wall (s)|naive wall (s)|model wall (s)|throughput (req/s)|naive N/W|diff"
                        + "|model (MVA)|diff",
                "rrrrrrrrrrr",
                rows);
    }

    /** 3000 -> "3,000", 2.5 -> "2.5". */
    public static String number(double v) {
        return v == Math.rint(v)
                ? String.format(L, "%,d", (long) v)
                : String.format(L, "%,.3f", v).replaceAll("0+$", "");
    }
}
