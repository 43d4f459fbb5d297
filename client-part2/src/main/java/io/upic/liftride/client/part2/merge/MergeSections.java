package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.compare.RunRecord;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.metrics.Timeline;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.part2.report.PercentileCurves;
import io.upic.liftride.client.part2.report.ReportModel;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@link ReportModel} of a merge: a section per merged run, with each shard's window on the wall clock and
 * their overlap, rendered by the same renderers as a single run's. Stateless and thread-safe.
 */
public final class MergeSections {

    private static final Locale L = Locale.US;

    private MergeSections() {}

    /** The model of a merge: {@code runs} with their charts (written into {@code outDir}/name). */
    public static ReportModel of(
            Path outDir, String command, String generatedAt, List<MergedRun> runs, List<List<ChartFile>> charts) {
        List<ReportModel.Run> sections = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            sections.add(section(
                    runs.get(i), charts.get(i), outDir.resolve(runs.get(i).name())));
        }
        var header = new ReportModel.Header(
                "Merged load test",
                command,
                generatedAt,
                List.of(),
                List.of("Each shard was a separate client-part2 process given the same plan and its own `--shard K/N`;"
                        + " together they send the plan once. Totals are sums; latency percentiles come from the"
                        + " shards' HdrHistograms added together (the same buckets, so nothing is lost); mean, min and"
                        + " max are exact. Times are on the wall clock, from the first shard's start: shards on"
                        + " different machines line up only as well as their clocks agree (NTP: milliseconds). Rates"
                        + " are honest only over the time the shards ran together: see each run's overlap."),
                false);
        return new ReportModel(header, null, sections);
    }

    /** The section of one merged run. */
    static ReportModel.Run section(MergedRun m, List<ChartFile> charts, Path dir) {
        RunResult r = m.result();
        RunSummary summary = m.summary();
        List<String> warnings = new ArrayList<>();
        if (!m.missing().isEmpty()) {
            warnings.add(String.format(
                    L,
                    "PARTIAL: shards %s of %d are missing; the totals below cover only the shards given, %,d"
                            + " requests planned of the plan's.",
                    m.missing(),
                    m.count(),
                    r.requests().planned()));
        }
        if (summary.transport().contains("+")) {
            warnings.add("Note: the shards used different transports: "
                    + summary.transport().replace("+", ", ") + ".");
        }
        RunSummary.Aborted abort = summary.abort();
        if (abort != null) {
            warnings.add(abort.line() + "; the totals are a partial account.");
        }
        if (!r.problems().isEmpty()) {
            warnings.add("Stopped early: " + String.join("; ", r.problems()) + ".");
        }
        List<ReportModel.FileRef> files =
                dir == null ? List.of() : List.of(new ReportModel.FileRef(dir.resolve(HdrLog.FILE), HdrLog.FILE, ""));
        return new ReportModel.Run(
                m.name(),
                String.format(
                        L,
                        "%s: %s, %d of %d shards",
                        m.name(),
                        ShardMerge.planIdentity(summary),
                        m.shards().size(),
                        m.count()),
                summary,
                files,
                warnings,
                checks(m),
                m.thresholds().results().stream()
                        .map(t -> "Threshold " + t.line())
                        .toList(),
                List.of(),
                null,
                RunTables.openModel(r),
                Timeline.of(m.seconds(), r),
                PercentileCurves.of(m.metrics()),
                charts,
                shards(m),
                null);
    }

    private static List<ReportModel.Check> checks(MergedRun m) {
        RunResult r = m.result();
        var q = r.requests();
        List<ReportModel.Check> checks = new ArrayList<>();
        checks.add(new ReportModel.Check(
                String.format(L, "planned %,d = successful + failed + not sent", q.planned()),
                q.planned() == q.successful() + q.failed() + q.notSent()));
        RunSummary.Server server = m.summary().server();
        if (!server.checked()) {
            checks.add(new ReportModel.Check(
                    "server count not checked (not every shard read the server's `ridesStored` before and after)",
                    null));
        } else {
            checks.add(new ReportModel.Check(
                    String.format(
                            L,
                            "server stored %,d rides (lowest `ridesStored` before a shard started %,d, highest after"
                                    + " one ended %,d) (successful writes %,d)",
                            server.delta(),
                            server.ridesStoredBefore(),
                            server.ridesStoredAfter(),
                            r.successfulWrites()),
                    server.reconciled()));
        }
        checks.add(new ReportModel.Check(
                String.format(
                        L, "histogram values %,d = attempts %,d", m.metrics().recordedAttempts(), q.attempts()),
                m.metrics().recordedAttempts() == q.attempts()));
        return checks;
    }

    /** Each shard's window, the total's, and the overlap with the rate over it. */
    static ReportModel.Shards shards(MergedRun m) {
        List<ReportModel.ShardWindow> windows = new ArrayList<>();
        long from = Long.MIN_VALUE, to = Long.MAX_VALUE;
        for (int i = 0; i < m.shards().size(); i++) {
            RunRecord s = m.shards().get(i);
            windows.add(new ReportModel.ShardWindow(
                    s.label(),
                    s.startEpochMillis(),
                    s.endEpochMillis(),
                    s.requests(),
                    s.summary().throughput(),
                    s.summary().latencyMs()));
            from = Math.max(from, s.startEpochMillis());
            to = Math.min(to, s.endEpochMillis());
        }
        RunResult r = m.result();
        long start = r.startEpochMillis();
        var total = new ReportModel.ShardWindow(
                "**total**",
                start,
                start + r.wallNanos() / 1_000_000,
                r.requests(),
                m.summary().throughput(),
                m.summary().latencyMs());
        long[] rate = overlapCount(m.seconds(), from - start, to - start);
        return new ReportModel.Shards(
                windows, from, to, rate[0], rate[1] == 0 ? Double.NaN : rate[0] * 1e3 / rate[1], total);
    }

    /**
     * The successful requests in the buckets that lie wholly inside [fromMillis, toMillis) of the merged clock, and
     * those buckets' length in ms: the overlap's rate at the buckets' resolution.
     */
    static long[] overlapCount(TimeBuckets buckets, long fromMillis, long toMillis) {
        long width = buckets.bucketNanos() / 1_000_000;
        long ok = 0, millis = 0;
        for (int i = 0; i < buckets.count(); i++) {
            long a = i * width;
            if (a >= fromMillis && a + width <= toMillis) {
                ok += buckets.successful(i);
                millis += width;
            }
        }
        return new long[] {ok, millis};
    }
}
