package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.client.EmbeddedTarget;
import io.upic.liftride.client.LocalServer;
import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.client.part2.chart.RunCharts;
import io.upic.liftride.client.part2.merge.ShardMerge;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.part2.report.HtmlReport;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.report.SummaryJson;
import io.upic.liftride.client.report.SummarySchema;
import io.upic.liftride.client.threshold.ThresholdCheck;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two shards of client-part2, each its own JVM, started together against one server (embedded Tomcat in this JVM,
 * both pointed at its port): together they send exactly the plan (the server's stored-ride count grows by exactly
 * the plan), and their merge reproduces the totals, with charts.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShardsIT {

    private static final int THREADS = 8, SKIERS = 400, RUNS = 2;

    @TempDir
    Path work;

    @Test
    void twoShardsStartedTogetherSendExactlyThePlanAndTheirMergeReproducesTheTotalsWithCharts() throws Exception {
        long plan = PhasePlan.fall2021().forRun(THREADS, SKIERS, RUNS).totalRequests();
        try (LocalServer server = EmbeddedTarget.start()) {
            long before = stored(server);
            Path w1 = Files.createDirectories(work.resolve("shard1"));
            Path w2 = Files.createDirectories(work.resolve("shard2"));
            try (ChildClient c1 = ChildClient.start(w1, List.of(), args(server, "1/2", w1));
                    ChildClient c2 = ChildClient.start(w2, List.of(), args(server, "2/2", w2))) {
                assertTrue(c1.waitFor(150, TimeUnit.SECONDS), "shard 1 finished\n" + c1.printed());
                assertTrue(c2.waitFor(150, TimeUnit.SECONDS), "shard 2 finished\n" + c2.printed());
                assertEquals(0, c1.process().exitValue(), c1.printed());
                assertEquals(0, c2.process().exitValue(), c2.printed());
                assertTrue(c1.printed().contains("Shard 1/2: this process sends"), c1.printed());
                assertTrue(c1.printed().contains("other shards store rides on the same server"), c1.printed());
            }
            long after = stored(server);
            assertEquals(plan, after - before, "the server stored exactly the plan");

            JsonObject s1 = json(w1.resolve("out/t8").resolve(SummaryJson.FILE));
            JsonObject s2 = json(w2.resolve("out/t8").resolve(SummaryJson.FILE));
            assertEquals(plan, s1.get("planned").getAsLong() + s2.get("planned").getAsLong());
            assertEquals(
                    plan,
                    s1.get("successful").getAsLong() + s2.get("successful").getAsLong());
            assertTrue(s1.get("planned").getAsLong() > 0 && s2.get("planned").getAsLong() > 0);
            long attempts = s1.get("attempts").getAsLong() + s2.get("attempts").getAsLong();

            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            Main main = new Main(
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8),
                    EmbeddedTarget::start,
                    false,
                    work);
            int exit = main.run(new String[] {"merge", "shard1/out", "shard2/out", "--out", "merged"});
            String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
            assertEquals(0, exit, printed);

            Path merged = work.resolve("merged");
            Path summaryFile = merged.resolve("t8").resolve(SummaryJson.FILE);
            assertEquals(
                    List.of(), SummarySchema.errors(Files.readString(summaryFile)), "summary.json follows the schema");
            JsonObject total = json(summaryFile);
            assertEquals(ShardMerge.CLIENT, total.get("client").getAsString());
            assertTrue(total.getAsJsonObject("server").get("reconciled").getAsBoolean(), "merged server count");
            assertEquals(plan, total.get("planned").getAsLong());
            assertEquals(plan, total.get("successful").getAsLong());
            assertEquals(0, total.get("failed").getAsLong());
            assertEquals(2, total.getAsJsonArray("shards").size());
            long phaseRequests = 0;
            for (var p : total.getAsJsonArray("phases")) {
                phaseRequests += p.getAsJsonObject().get("successful").getAsLong();
            }
            assertEquals(plan, phaseRequests, "the phases add up to the plan");
            assertEquals(attempts, count(merged.resolve("t8").resolve(HdrLog.FILE)), "merged histogram: every attempt");
            for (String chart : List.of(
                    RunCharts.LATENCY_OVER_TIME, RunCharts.THROUGHPUT_OVER_TIME, RunCharts.LATENCY_PERCENTILES)) {
                Path png = merged.resolve("t8").resolve(chart);
                assertTrue(Files.size(png) > 1000, chart);
            }
            String report = Files.readString(merged.resolve("report.md"));
            assertTrue(report.contains("| 1/2 |") && report.contains("| 2/2 |") && report.contains("| **total** |"));
            assertTrue(report.contains("](t8/" + RunCharts.LATENCY_OVER_TIME + ")"), report);
            assertTrue(
                    report.contains("All shards ran together from ") || report.contains("never ran together"),
                    "the shards' overlap is stated: " + report);
            assertTrue(report.contains(": Phases and Little's law"), "the merge has the Little's-law section");
            String html = Files.readString(merged.resolve(HtmlReport.FILE));
            assertTrue(html.contains("data-scope=\"t8\"") && html.contains("id=\"run1-latency\""), "report.html");

            // one shard alone is refused: its totals would pass for the plan's
            ByteArrayOutputStream err2 = new ByteArrayOutputStream();
            int refused = new Main(
                            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                            new PrintStream(err2, true, StandardCharsets.UTF_8),
                            EmbeddedTarget::start,
                            false,
                            work)
                    .run(new String[] {"merge", "shard1/out", "--out", "partial"});
            assertEquals(2, refused);
            String line = err2.toString(StandardCharsets.UTF_8);
            assertTrue(line.startsWith("cannot merge t8: shards 2/2 missing (1 of 2 given)"), line);
            assertEquals(1, line.strip().lines().count(), line);

            // thresholds on the merged numbers: exit 0 when they hold, 3 (a run's code) when one fails
            String held = mergeWithThresholds(work, "held", "failed==0", "throughput>1");
            assertTrue(held.startsWith("exit 0"), held);
            assertTrue(held.contains("Thresholds of t8: 2 of 2 passed"), held);
            assertTrue(held.contains("PASS  failed==0  (measured 0 requests)"), held);
            String failed = mergeWithThresholds(work, "failed", "failed==0", "p99<1us");
            assertTrue(failed.startsWith("exit " + ThresholdCheck.EXIT_CODE), failed);
            assertTrue(failed.contains("FAIL  p99<1us  (measured "), failed);
            String md = Files.readString(work.resolve("failed/report.md"));
            assertTrue(md.contains("Threshold PASS  failed==0") && md.contains("Threshold FAIL  p99<1us"), md);
            JsonObject withThresholds = json(work.resolve("failed/t8").resolve(SummaryJson.FILE));
            assertFalse(withThresholds.get("thresholdsPassed").getAsBoolean());
            assertEquals(2, withThresholds.getAsJsonArray("thresholds").size());
        }
    }

    /** "exit N" and what {@code merge shard1/out shard2/out --out OUT --threshold T...} printed. */
    private static String mergeWithThresholds(Path work, String out, String... thresholds) {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(printed, true, StandardCharsets.UTF_8);
        List<String> args = new ArrayList<>(List.of("merge", "shard1/out", "shard2/out", "--out", out));
        for (String t : thresholds) {
            args.addAll(List.of("--threshold", t));
        }
        int exit = new Main(ps, ps, EmbeddedTarget::start, false, work).run(args.toArray(String[]::new));
        return "exit " + exit + "\n" + printed.toString(StandardCharsets.UTF_8);
    }

    private static String[] args(LocalServer server, String shard, Path dir) {
        return new String[] {
            "-t",
            "" + THREADS,
            "-s",
            "" + SKIERS,
            "-m",
            "" + RUNS,
            "--baseline",
            "0",
            "--transport",
            "raw",
            "-i",
            server.baseUrl(),
            "--shard",
            shard,
            "--out",
            dir.resolve("out").toString()
        };
    }

    private static long stored(LocalServer server) {
        return ServerProbe.statistics(server.baseUrl(), 5_000, 5_000)
                .ridesStored()
                .orElseThrow();
    }

    private static JsonObject json(Path file) throws Exception {
        return JsonParser.parseString(Files.readString(file)).getAsJsonObject();
    }

    private static long count(Path hlog) throws Exception {
        EncodableHistogram h = new HistogramLogReader(hlog.toFile()).nextIntervalHistogram();
        return ((org.HdrHistogram.Histogram) h).getTotalCount();
    }
}
