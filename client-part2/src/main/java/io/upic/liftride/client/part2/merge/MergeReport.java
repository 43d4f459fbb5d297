package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.metrics.LatencyStats;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** Writes the merge's {@code report.md}: per merged run, each shard's numbers beside the total, phases, charts. */
public final class MergeReport {

    public static final String FILE = "report.md";

    private static final Locale L = Locale.US;
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);

    private MergeReport() {}

    /** A merged run with its charts (paths inside {@code outDir}). */
    public record Section(MergedRun run, List<ChartFile> charts) {}

    /** Writes {@value #FILE} into {@code outDir}; returns it. */
    public static Path write(Path outDir, String command, List<Section> sections) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("# Merged load test\n\n");
        b.append("Merged with `").append(command).append("`.\n\n");
        b.append("Each shard was a separate client-part2 process given the same plan and its own `--shard K/N`; ")
                .append("together they send the plan once. Totals are sums; latency percentiles come from the shards' ")
                .append("HdrHistograms added together (the same buckets, so nothing is lost); mean, min and max are ")
                .append("exact. Times are on the wall clock, from the first shard's start: shards on different ")
                .append("machines line up only as well as their clocks agree (NTP: milliseconds).\n");
        for (Section s : sections) {
            section(b, outDir, s);
        }
        Path file = outDir.resolve(FILE);
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
        return file;
    }

    private static void section(StringBuilder b, Path outDir, Section section) {
        MergedRun m = section.run();
        RunResult r = m.result();
        ShardRecord id = m.identity();
        b.append(String.format(
                L,
                "%n## %s: %s, %d of %d shards%n%n",
                m.name(),
                id.planIdentity(),
                m.shards().size(),
                id.shardCount()));
        if (!m.missing().isEmpty()) {
            b.append(String.format(
                    L,
                    "**PARTIAL: shards %s of %d are missing**; the totals below cover only the shards given, "
                            + "%,d requests planned of the plan's.%n%n",
                    m.missing(),
                    id.shardCount(),
                    r.requests().planned()));
        }
        if (m.transports().size() > 1) {
            b.append("Note: the shards used different transports: ")
                    .append(String.join(", ", m.transports()))
                    .append(".\n\n");
        }
        if (r.stopped()) {
            b.append("**Stopped early**: ")
                    .append(String.join("; ", r.problems()))
                    .append(".\n\n");
        }
        shardTable(b, m);
        phaseTable(b, m);
        latencyTables(b, m);
        server(b, m);
        if (!section.charts().isEmpty()) {
            b.append("\n### Charts\n\n");
            for (ChartFile f : section.charts()) {
                String rel = outDir.relativize(f.file()).toString().replace('\\', '/');
                b.append("![").append(f.title()).append("](").append(rel).append(")\n\n");
            }
        }
    }

    private static void shardTable(StringBuilder b, MergedRun m) {
        RunResult r = m.result();
        b.append("| shard | started (UTC) | +s | wall (s) | planned | successful | failed | not sent | retries "
                + "| throughput (req/s) | mean | p50 | p99 | max (ms) |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < m.shards().size(); i++) {
            ShardRecord s = m.shards().get(i).record();
            ScopeStats st = m.shardStats().get(i);
            row(b, s.shardLabel(), s.startEpochMillis(), r.startEpochMillis(), s.requests(), st);
        }
        row(
                b,
                "**total**",
                r.startEpochMillis(),
                r.startEpochMillis(),
                r.requests(),
                m.metrics().run());
        b.append("\nThe total's wall time runs from the first shard's start to the last shard's end, and its ")
                .append("throughput is its successes over that time; a shard's throughput is its own over its own ")
                .append("wall time, so the shards' throughputs add up to more than the total when they did not ")
                .append("start and end together.\n\n");
    }

    private static void phaseTable(StringBuilder b, MergedRun m) {
        b.append("### Phases, all shards\n\n");
        b.append("| phase | threads | planned | successful | failed | from (s) | to (s) | throughput (req/s) "
                + "| mean | p50 | p90 | p99 | p99.9 | max (ms) |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (PhaseResult p : m.result().phases()) {
            LatencyStats l = m.metrics().phases().get(p.index()).all();
            b.append(String.format(
                    L,
                    "| %s | %d | %,d | %,d | %,d | %s | %s | %,.0f | %s | %s | %s | %s | %s | %s |%n",
                    p.name(),
                    p.threads(),
                    p.requests().planned(),
                    p.requests().successful(),
                    p.requests().failed(),
                    p.started() ? String.format(L, "%.2f", p.startNanos() / 1e9) : "-",
                    p.started() ? String.format(L, "%.2f", p.endNanos() / 1e9) : "-",
                    p.throughputPerSecond(),
                    ms(l.meanMillis(), l.count()),
                    ms(l.p50Millis(), l.count()),
                    ms(l.p90Millis(), l.count()),
                    ms(l.p99Millis(), l.count()),
                    ms(l.p999Millis(), l.count()),
                    ms(l.maxMillis(), l.count())));
        }
        b.append("\nA phase here runs from its earliest start on any shard to its latest end on any shard. Each ")
                .append("shard starts its next phase when its own threads reach the trigger, so phases of different ")
                .append("shards are not aligned and overlap more than in one process.\n\n");
    }

    private static void latencyTables(StringBuilder b, MergedRun m) {
        LatencyStats all = m.metrics().run().all();
        LatencyStats first = m.metrics().run().first();
        b.append("### Latency, all shards (ms)\n\n");
        b.append("| attempts | count | mean | min | p50 | p90 | p95 | p99 | p99.9 | max |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        latencyRow(b, "all", all);
        latencyRow(b, "first only", first);
    }

    private static void server(StringBuilder b, MergedRun m) {
        RunResult r = m.result();
        b.append("\n### Server\n\n");
        long[] counts = m.serverCounts();
        if (counts == null) {
            b.append("Not every shard read the server's `ridesStored` before and after its run.\n");
        } else {
            long delta = counts[1] - counts[0];
            b.append(String.format(
                    L,
                    "`ridesStored` %,d (lowest reading before a shard started) -> %,d (highest after one ended): "
                            + "delta %,d %s successful %,d: %s%n",
                    counts[0],
                    counts[1],
                    delta,
                    delta == r.requests().successful() ? "==" : "!=",
                    r.requests().successful(),
                    delta == r.requests().successful()
                            ? "OK"
                            : "DIFFERENT: a shard read its \"before\" after another had stored rides, or another"
                                    + " client wrote to the server meanwhile"));
        }
    }

    /** A row of the shard table: a shard's or the total's account and statistics, started at {@code start}. */
    private static void row(StringBuilder b, String label, long start, long origin, Requests req, ScopeStats st) {
        LatencyStats l = st.all();
        b.append(String.format(
                L,
                "| %s | %s | %.3f | %.2f | %,d | %,d | %,d | %,d | %,d | %,.0f | %s | %s | %s | %s |%n",
                label,
                TIME.format(Instant.ofEpochMilli(start)),
                (start - origin) / 1e3,
                st.durationNanos() / 1e9,
                req.planned(),
                req.successful(),
                req.failed(),
                req.notSent(),
                req.retries(),
                st.throughputPerSecond(),
                ms(l.meanMillis(), l.count()),
                ms(l.p50Millis(), l.count()),
                ms(l.p99Millis(), l.count()),
                ms(l.maxMillis(), l.count())));
    }

    private static void latencyRow(StringBuilder b, String label, LatencyStats l) {
        b.append(String.format(
                L,
                "| %s | %,d | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                label,
                l.count(),
                ms(l.meanMillis(), l.count()),
                ms(l.minMillis(), l.count()),
                ms(l.p50Millis(), l.count()),
                ms(l.p90Millis(), l.count()),
                ms(l.p95Millis(), l.count()),
                ms(l.p99Millis(), l.count()),
                ms(l.p999Millis(), l.count()),
                ms(l.maxMillis(), l.count())));
    }

    private static String ms(double v, long count) {
        return count == 0 ? "-" : String.format(L, "%.3f", v);
    }
}
