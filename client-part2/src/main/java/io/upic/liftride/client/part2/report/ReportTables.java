package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.metrics.LatencyStats;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunTables;
import io.upic.liftride.client.report.Table;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's own tables as cells of text, formatted once from a {@link ReportModel} (the run's account, its
 * predictions and a sweep's throughput come from {@link RunTables}): the Markdown renderer writes them as pipe
 * tables, the HTML renderer as {@code <table>}s, the console as aligned text.
 * Stateless and thread-safe.
 */
public final class ReportTables {

    private static final Locale L = Locale.US;
    static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);

    private ReportTables() {}

    /** The sweep's throughput and wall time: one row per run, its predictions beside the measurement. */
    public static Table sweepThroughput(ReportModel.Sweep sweep) {
        return RunTables.sweep(sweep.rows().stream()
                .map(r -> new RunTables.SweepRow(
                        r.threads(), r.planned(), r.failed(), r.wallNanos(), r.throughput(), r.theory()))
                .toList());
    }

    /** The sweep's latency and measured concurrency: one row per run. */
    public static Table sweepLatency(ReportModel.Sweep sweep) {
        List<List<String>> rows = new ArrayList<>();
        for (ReportModel.SweepRow row : sweep.rows()) {
            ScopeStats s = row.run();
            rows.add(Table.cells(
                    "%d|%.3f|%.3f|%.3f|%.3f|%.3f|%.1f",
                    row.threads(),
                    s.all().meanMillis(),
                    s.all().p50Millis(),
                    s.all().p99Millis(),
                    s.all().p999Millis(),
                    s.all().maxMillis(),
                    s.measuredConcurrency()));
        }
        return Table.of(
                "threads|mean (ms)|median (ms)|p99 (ms)|p99.9 (ms)|max (ms)|in flight (X x W)", "rrrrrrr", rows);
    }

    /** A merge's shards: each one's window and numbers, then the total. */
    public static Table shards(ReportModel.Shards sh) {
        List<List<String>> rows = new ArrayList<>();
        long origin = sh.total().startEpochMillis();
        for (ReportModel.ShardWindow w : sh.windows()) {
            rows.add(shardRow(w, origin));
        }
        rows.add(shardRow(sh.total(), origin));
        return Table.of(
                "shard|started (UTC)|ended (UTC)|+s|wall (s)|planned|successful|failed|not sent|retries"
                        + "|throughput (req/s)|mean|p50|p99|max (ms)",
                "lllrrrrrrrrrrrr",
                rows);
    }

    private static List<String> shardRow(ReportModel.ShardWindow w, long origin) {
        RunSummary.Latency l = w.latencyMs();
        var q = w.requests();
        return Table.cells(
                "%s|%s|%s|%.3f|%.3f|%,d|%,d|%,d|%,d|%,d|%,.1f|%s|%s|%s|%s",
                w.label(),
                TIME.format(Instant.ofEpochMilli(w.startEpochMillis())),
                TIME.format(Instant.ofEpochMilli(w.endEpochMillis())),
                (w.startEpochMillis() - origin) / 1e3,
                (w.endEpochMillis() - w.startEpochMillis()) / 1e3,
                q.planned(),
                q.successful(),
                q.failed(),
                q.notSent(),
                q.retries(),
                w.throughput(),
                ms(l.mean()),
                ms(l.p50()),
                ms(l.p99()),
                ms(l.max()));
    }

    private static String ms(Double v) {
        return v == null ? "-" : String.format(L, "%.3f", v);
    }

    /** Latency per scope (the whole run, then each phase): all attempts, first attempts, from intended. */
    public static Table latency(ReportModel.Run run) {
        List<List<String>> rows = new ArrayList<>();
        latencyRows(rows, run.metrics().run());
        for (ScopeStats s : run.metrics().phases()) {
            latencyRows(rows, s);
        }
        return Table.of(
                "scope|attempts|count|" + String.join("|", LatencyStats.COLUMNS),
                "llr" + "r".repeat(LatencyStats.COLUMNS.size()),
                rows);
    }

    private static void latencyRows(List<List<String>> rows, ScopeStats s) {
        if (!s.started()) {
            rows.add(Table.cells("%s|-|not started||||||||", s.name()));
            return;
        }
        String scope = s.isRun() ? "**whole run**" : s.name();
        rows.add(latencyRow(scope, "all", s.all()));
        rows.add(latencyRow(scope, "first", s.first()));
        if (s.fromIntended() != null) {
            rows.add(latencyRow(scope, "from intended", s.fromIntended()));
        }
    }

    private static List<String> latencyRow(String scope, String attempts, LatencyStats l) {
        List<String> row = new ArrayList<>(List.of(scope, attempts, String.format(L, "%,d", l.count())));
        for (double v : l.columnsMillis()) {
            row.add(l.count() == 0 ? "" : String.format(L, "%.3f", v));
        }
        return row;
    }

    /** Phases and Little's law with measured numbers: in flight = throughput x mean latency, beside the threads. */
    public static Table phases(ReportModel.Run o) {
        RunResult r = o.result();
        List<List<String>> rows = new ArrayList<>();
        for (int k = 0; k < r.phases().size(); k++) {
            PhaseResult p = r.phases().get(k);
            ScopeStats s = o.metrics().phases().get(k);
            if (!p.started() || p.threads() == 0) {
                rows.add(Table.cells(
                        "%s|%d|%,d|-|%s||||",
                        p.name(),
                        p.threads(),
                        p.requests().planned(),
                        p.started() ? "no threads on this shard" : "not started"));
                continue;
            }
            rows.add(Table.cells(
                    "%s|%d|%,d|%,d|%.3f|%,.1f|%.3f|%.1f|%.0f%%",
                    p.name(),
                    p.threads(),
                    p.requests().planned(),
                    p.requests().successful(),
                    p.durationNanos() / 1e9,
                    s.throughputPerSecond(),
                    s.all().meanMillis(),
                    s.measuredConcurrency(),
                    100 * s.measuredConcurrency() / p.threads()));
        }
        ScopeStats run = o.metrics().run();
        rows.add(Table.cells(
                "**whole run**|%d (-t)|%,d|%,d|%.3f|%,.1f|%.3f|%.1f|",
                r.numThreads(),
                r.requests().planned(),
                r.requests().successful(),
                r.wallNanos() / 1e9,
                run.throughputPerSecond(),
                run.all().meanMillis(),
                run.measuredConcurrency()));
        return Table.of(
                "phase|threads|requests|successful|duration (s)|throughput (req/s)|mean latency (ms)"
                        + "|in flight (X x W)|in flight / threads",
                "lrrrrrrrr",
                rows);
    }

    /** With --mix, one row per operation (from the run's summary); null without. */
    public static Table operations(ReportModel.Run o) {
        if (o.summary() == null || o.summary().operations() == null) {
            return null;
        }
        List<List<String>> rows = new ArrayList<>();
        for (RunSummary.OperationRow op : o.summary().operations()) {
            RunSummary.Latency l = op.latencyMs();
            rows.add(Table.cells(
                    "%s|%d|%,d|%,d|%,d|%,d|%,.1f|%s|%s|%s|%s",
                    op.operation(),
                    op.weight(),
                    op.requests(),
                    op.successful(),
                    op.notFound(),
                    op.failed(),
                    op.throughput(),
                    millis(l.mean()),
                    millis(l.p50()),
                    millis(l.p99()),
                    millis(l.max())));
        }
        return Table.of(
                "operation|weight|requests|successful|expected 404|failed|throughput (req/s)|mean (ms)"
                        + "|p50 (ms)|p99 (ms)|max (ms)",
                "lrrrrrrrrrr",
                rows);
    }

    private static String millis(Double ms) {
        return ms == null ? "-" : String.format(Locale.US, "%.3f", ms);
    }
}
