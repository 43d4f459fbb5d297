package io.upic.liftride.client.part2.report;

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
 * The report's own tables as cells of text, formatted once from a run's {@link RunSummary} (its account, phases,
 * predictions and a sweep's throughput come from {@link RunTables}): the Markdown renderer writes them as pipe
 * tables, the HTML renderer as {@code <table>}s, the console as aligned text. Stateless and thread-safe.
 */
public final class ReportTables {

    private static final Locale L = Locale.US;
    static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);

    private ReportTables() {}

    /** The sweep's latency and measured concurrency: one row per run. */
    public static Table sweepLatency(ReportModel.Sweep sweep) {
        List<List<String>> rows = new ArrayList<>();
        for (RunTables.SweepRow row : sweep.rows()) {
            RunSummary s = row.summary();
            RunSummary.Latency l = s.latencyMs();
            rows.add(Table.cells(
                    "%d|%s|%s|%s|%s|%s|%.1f",
                    s.threads(),
                    ms(l.mean()),
                    ms(l.p50()),
                    ms(l.p99()),
                    ms(l.p999()),
                    ms(l.max()),
                    l.mean() == null ? 0 : s.throughput() * l.mean() / 1e3));
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
    public static Table latency(RunSummary s) {
        List<List<String>> rows = new ArrayList<>();
        latencyRows(rows, "**whole run**", s.latencyMs(), s.latencyFirstMs(), s.latencyFromIntendedMs());
        for (RunSummary.Phase p : s.phases()) {
            if (p.ran()) {
                latencyRows(rows, p.name(), p.latencyMs(), p.latencyFirstMs(), p.latencyFromIntendedMs());
            } else {
                rows.add(Table.cells("%s|-|not started||||||||", p.name()));
            }
        }
        List<String> columns = RunSummary.Latency.COLUMNS;
        return Table.of("scope|attempts|count|" + String.join("|", columns), "llr" + "r".repeat(columns.size()), rows);
    }

    private static void latencyRows(
            List<List<String>> rows,
            String scope,
            RunSummary.Latency all,
            RunSummary.Latency first,
            RunSummary.Latency intended) {
        rows.add(latencyRow(scope, "all", all));
        if (first != null) {
            rows.add(latencyRow(scope, "first", first));
        }
        if (intended != null) {
            rows.add(latencyRow(scope, "from intended", intended));
        }
    }

    private static List<String> latencyRow(String scope, String attempts, RunSummary.Latency l) {
        List<String> row =
                new ArrayList<>(List.of(scope, attempts, l == null ? "" : String.format(L, "%,d", l.attempts())));
        for (Double v : l == null ? List.<Double>of() : l.columns()) {
            row.add(v == null ? "" : String.format(L, "%.3f", v));
        }
        return row;
    }

    /** With --mix, one row per operation (from the run's summary); null without. */
    public static Table operations(ReportModel.Run o) {
        if (o.summary().operations() == null) {
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
                    ms(l.mean()),
                    ms(l.p50()),
                    ms(l.p99()),
                    ms(l.max())));
        }
        return Table.of(
                "operation|weight|requests|successful|expected 404|failed|throughput (req/s)|mean (ms)"
                        + "|p50 (ms)|p99 (ms)|max (ms)",
                "lrrrrrrrrrr",
                rows);
    }
}
