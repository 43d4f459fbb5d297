package io.upic.liftride.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.engine.ScheduleLag;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CpuDemand;
import io.upic.liftride.client.threshold.Metric;
import io.upic.liftride.client.threshold.MetricSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The default console account, rendered from fixed inputs: what it says, and its bounds in lines and columns. */
class BriefSummaryTest {

    /** W = 0.1 ms, D = 100 us on 2 cores, no delay: the model puts -t 32's 180,000 requests at 9 s. */
    private static final MetricSource PERCENTILES = ConsoleExamples.PERCENTILES;

    private static RunReport run(int threads, long wallNanos, long failed, MetricSource metrics) {
        return ConsoleExamples.briefRun(threads, wallNanos, failed, metrics);
    }

    private static List<String> lines(Consumer<PrintStream> print) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        print.accept(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static void assertNarrow(List<String> lines) {
        for (String line : lines) {
            assertTrue(line.length() <= BriefSummary.WIDTH, line.length() + " columns: " + line);
        }
    }

    @Test
    void aRunIsItsPlanCountsLatencyPredictionAndChecksInAFewNarrowLines() {
        RunReport report = run(32, 9_000_000_000L, 0, PERCENTILES);
        List<String> lines = lines(out -> {
            BriefSummary.printPlan(out, report.config().workload(), report.plan());
            BriefSummary.printResult(out, report);
        });
        assertEquals(
                List.of(
                        "",
                        "Run -t 32, plan fall2021: 180,000 requests, -s 20,000 -l 40 -m 10, threads 8/32/8"
                                + " (startup/peak/cooldown)",
                        "  requests   180,000 successful, 0 failed, 0 retries; wall 9.000 s, 20,000.0 req/s",
                        "  latency    mean 2.000 ms, p50 1.500 ms, p99 9.000 ms, max 40.000 ms",
                        "  predicted  wall time: model 9.000 s (+0.0%), naive N / W 1.125 s (+700.0%); diff ="
                                + " measured / predicted - 1",
                        "  model      D = 100.0 us CPU per request (measured in run -t 16), Z = 0.000 ms, C = 2 cores",
                        "  checked    180,000 planned == 180,000 successful + 0 failed + 0 not sent: OK; server"
                                + " stored 180,000: OK"),
                lines);
    }

    @Test
    void aTenStageRampPrintsItsVerdictWorstStageAndWhereTheTableIsWithinTheRunsLines() {
        RunConfig c =
                Fixtures.config("--ramp", "200,200:1s,200:1s,200:1s,200:1s,200:1s,200:1s,200:1s,200:1s,200:1s,200:1s");
        List<PhaseResult> stages = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            long done = k == 5 ? 100 : k == 2 || k == 8 ? 150 : 200; // stage6 worst, stages 3 and 9 short too
            stages.add(Fixtures.phase()
                    .index(k)
                    .name("stage" + (k + 1))
                    .requests(new Requests(200, done, 0, 200 - done, 0, done))
                    .startNanos(k * 1_000_000_000L)
                    .endNanos((k + 1) * 1_000_000_000L)
                    .offeredPerSecond(200.0)
                    .scheduleLag(new ScheduleLag.Snapshot(done, done * 50_000, 300_000, 0, 0, 100_000))
                    .build());
        }
        RunResult r = Fixtures.run(stages.toArray(PhaseResult[]::new))
                .wallNanos(10_000_000_000L)
                .build();
        RunReport report = RunVerdict.judge(
                Fixtures.report(r)
                        .config(c)
                        .plan(c.workload().loadPlan())
                        .reconciliation(Reconciliation.of(r, OptionalLong.of(0), OptionalLong.of(1_650), null))
                        .build(),
                PERCENTILES,
                "test",
                null);
        List<String> lines = lines(out -> {
            BriefSummary.printPlan(out, report.config().workload(), report.plan());
            BriefSummary.printResult(out, report);
        });
        String all = String.join("\n", lines);
        assertTrue(lines.size() + 1 <= BriefSummary.MAX_RUN_LINES, "with client-part2's files line:\n" + all);
        assertTrue(
                lines.contains("  ramp       NOT OFFERED IN FULL: stage6 and 2 more of 10 stages (worst: achieved 0.500"
                        + " of offered, below 0.97)"),
                all);
        assertTrue(
                lines.contains(
                        "  stages     each stage's rates and send lag: --verbose, and report.md from client-part2"),
                all);
        assertNarrow(lines);
    }

    @Test
    void aMissedPredictionShowsItsDifferenceAndTheFailuresByCause() {
        RunReport report = run(32, 12_000_000_000L, 10, new ResultMetricsLike());
        List<String> lines = lines(out -> BriefSummary.printResult(out, report));
        assertTrue(
                lines.stream().anyMatch(l -> l.startsWith("  predicted  wall time: model 9.000 s (+33.3%)")),
                String.join("\n", lines));
        assertTrue(lines.contains("  failures by cause: HTTP 503: 10"), String.join("\n", lines));
        assertTrue(lines.contains("  latency    mean 2.000 ms (percentiles and max: client-part2)"), lines.get(1));
        assertNarrow(lines);
    }

    @Test
    void theBaselineLineGivesWAndTheFirstRunsDWithWhereItComesFrom() {
        Baseline.Result unknownCpu =
                Fixtures.baseline().meanLatencyNanos(400_000).build();
        assertEquals(
                List.of("Baseline in 2.5 s: W = 0.400 ms latency (1 thread), no D (this process's CPU time is unknown:"
                        + " no model)"),
                lines(out -> BriefSummary.printBaseline(
                        out, unknownCpu, new CpuDemand(unknownCpu, null, null), 1_000, 2_500_000_000L)));
        assertEquals(List.of(), lines(out -> BriefSummary.printBaseline(out, null, null, 1_000, 0)));
        Baseline.Result cold = unknownCpu.toBuilder()
                .cpuNanos(3_000_000_000L)
                .cpuLessJitNanos(2_000_000_000L)
                .build(); // 200 us per request outside the JIT compiler
        assertEquals(
                List.of("Baseline in 2.5 s: W = 0.400 ms latency (1 thread), D = 200.0 us CPU per request (the"
                        + " baseline's, cold: rough)"),
                lines(out ->
                        BriefSummary.printBaseline(out, cold, new CpuDemand(cold, null, null), 1_000, 2_500_000_000L)));
        assertEquals(
                List.of("No prediction: the baseline had no successful request"),
                lines(out -> BriefSummary.printBaseline(
                        out, cold.toBuilder().successful(0).build(), null, 1_000, 2_500_000_000L)));
    }

    /** The standard sweep's shape: 4 thread counts, from the server line to the table, within the line budget. */
    @Test
    void theStandardSweepFitsItsLineBudgetAndEndsWithItsTable() {
        RunConfig first = Fixtures.config();
        List<RunReport> reports = new ArrayList<>();
        List<String> lines = new ArrayList<>(lines(out -> {
            BriefSummary.printServer(out, first, "http://127.0.0.1:1/liftride", true);
            BriefSummary.printBaseline(
                    out, Fixtures.baseline().meanLatencyNanos(400_000).build(), null, 180_000, 5_000_000_000L);
        }));
        int[] threads = {32, 64, 128, 256};
        for (int i = 0; i < threads.length; i++) {
            RunReport report = run(threads[i], 9_000_000_000L + i * 4_000_000_000L, i, PERCENTILES);
            reports.add(report);
            List<String> run = lines(out -> {
                BriefSummary.printPlan(out, report.config().workload(), report.plan());
                BriefSummary.printResult(out, report);
            });
            assertTrue(run.size() + 1 <= BriefSummary.MAX_RUN_LINES, "with client-part2's files line:\n" + run);
            lines.addAll(run);
        }
        List<String> table = lines(out -> BriefSummary.printSweep(out, reports));
        lines.addAll(table);
        // client-part2 adds a files line per run and 3 at the end: at most 100 lines in all
        assertTrue(lines.size() + threads.length + 3 <= 100, lines.size() + " lines:\n" + String.join("\n", lines));
        assertNarrow(lines);
        assertEquals(
                "  (naive and model: the predicted wall time, and the measurement's difference from it)",
                lines.get(lines.size() - 1));
        assertTrue(
                table.contains("       32     180,000       0   9.000 s  20,000 req/s   2.000 ms   9.000 ms   1.125 s"
                        + "   +700.0%   9.000 s     +0.0%"),
                String.join("\n", table));
        assertFalse(String.join("\n", lines).contains("in flight"), "the phases' details are --verbose's");
    }

    /** client-part1's metrics: the mean, no percentiles. */
    private static final class ResultMetricsLike implements MetricSource {
        @Override
        public OptionalDouble value(Metric metric) {
            return metric.kind() == Metric.Kind.MEAN ? OptionalDouble.of(2_000_000) : OptionalDouble.empty();
        }
    }
}
