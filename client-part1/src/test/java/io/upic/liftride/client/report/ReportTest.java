package io.upic.liftride.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.engine.Progress;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CpuScope;
import io.upic.liftride.client.prediction.LittlesLaw;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.threshold.ResultMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ReportTest {

    private static RunResult result(long planned, long ok, long failed, long notSent, Map<Integer, Long> causes) {
        return ConsoleExamples.peakRun(planned, ok, failed, notSent, causes);
    }

    @Test
    void theAccountMustBalance() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> result(10, 5, 1, 1, Map.of()));
        assertEquals("planned != successful + failed + notSent: 10 != 5 + 1 + 1", e.getMessage());
    }

    @Test
    void reconciliationComparesTheServersDeltaWithTheSuccesses() {
        RunResult r = result(180_000, 180_000, 0, 0, Map.of());
        Reconciliation ok = Reconciliation.of(r, OptionalLong.of(10_000), OptionalLong.of(190_000), null);
        assertTrue(ok.serverChecked());
        assertEquals(180_000, ok.serverDelta());
        assertTrue(ok.ok());
        Reconciliation lost = Reconciliation.of(r, OptionalLong.of(10_000), OptionalLong.of(189_999), null);
        assertFalse(lost.ok());
        Reconciliation unknown = Reconciliation.of(
                r, OptionalLong.empty(), OptionalLong.of(5), "before the run: GET /statistics answered HTTP 404");
        assertFalse(unknown.serverChecked());
        assertTrue(unknown.ok(), "an unchecked server side is not a failure");
    }

    private static RunReport missedReport() {
        return ConsoleExamples.missedRun();
    }

    @Test
    void summaryStatesTheCountsTheThroughputNumeratorTheChecksAndWhichInputMoved() {
        RunReport report = missedReport();
        String out = print(report);
        assertTrue(out.contains("  planned  successful  failed  not sent  attempts  retries  wall (s)"), out);
        assertTrue(out.contains("  180,000     179,990      10         0   180,003        3    12.000"), out);
        assertTrue(out.contains("179,990 successful, 10 failed, 3 retries; wall 12.000 s, 14,999.2 req/s"), out);
        assertTrue(out.contains("failures by cause: timeout: 3, HTTP 503: 7"), out);
        assertTrue(
                out.contains(
                        "Prediction, W = 0.100 ms (single-thread baseline after 10,000 warm-up requests); D = 100.0"
                                + " us CPU per request under load (client + embedded server; from: measured in run -t 16), C = 2 cores,"
                                + " delay Z = 0.000 ms (W - D)"),
                out);
        assertTrue(
                out.contains("at most C / D = 20,000 req/s, reached from about N* = C (D + Z) / D = 2.0 threads"), out);
        // peak: measured 14,999 req/s at 2 ms; naive 32 / 0.1 ms; the model 20,000 req/s at 32 x 0.05 ms
        assertTrue(
                out.contains(
                        "  quantity                                measured    naive N / W      diff   model (MVA)    diff"),
                out);
        assertTrue(
                out.contains(
                        "  peak phase throughput (32 threads)  14,999 req/s  320,000 req/s    -95.3%  20,000 req/s  -25.0%"),
                out);
        assertTrue(
                out.contains(
                        "  peak phase mean latency                 2.000 ms       0.100 ms  +1900.0%      1.600 ms  +25.0%"),
                out);
        assertTrue(
                out.contains(
                        "  peak phase requests in flight               30.0           32.0     -6.3%          32.0   -6.3%"),
                out);
        assertTrue(
                out.contains(
                        "  whole run wall time                     12.000 s        1.125 s   +966.7%       9.000 s  +33.3%"),
                out);
        assertTrue(
                out.contains(
                        "  whole run throughput                14,999 req/s  160,000 req/s    -90.6%  20,000 req/s  -25.0%"),
                out);
        // 21.6 s of CPU over a 12 s wall time and 180,003 attempts
        assertTrue(
                out.contains("CPU: this JVM (client + embedded server) kept 1.80 of 2 cores busy, 120 us per attempt."),
                out);
        assertTrue(
                out.contains(
                        "180,000 planned == 179,990 successful + 10 failed + 0 not sent: OK; server stored 179,990:"
                                + " OK"),
                out);
        assertTrue(out.contains("server ridesStored 10,000 -> 189,990: delta 179,990"), out);
        assertFalse(report.ok(), "a run with failures is not ok");
    }

    @Test
    void aRemoteServerLabelsDAsTheClientsCpuOnlyAndNoCalibrationDropsTheModel() {
        RunResult r = result(180_000, 180_000, 0, 0, Map.of());
        LoadPlan plan = Fixtures.config().workload().loadPlan();
        Baseline.Result baseline = Fixtures.baseline().build();
        RunReport remote = Fixtures.report(r)
                .serverUrl("http://10.0.0.9:8080/liftride")
                .embeddedServer(false)
                .baseline(baseline)
                .prediction(LittlesLaw.predict(plan, baseline))
                .model(LittlesLaw.mva(
                        plan,
                        baseline.meanLatencyNanos(),
                        new Prediction.Network(
                                2, 100_000, 900_000, CpuScope.REMOTE_SERVER, "stored 2026-11-27T10:00Z")))
                .processCpuNanos(6_000_000_000L)
                .build();
        String out = print(remote);
        assertTrue(out.contains("D = 100.0 us CPU per request under load (client only, server remote;"), out);
        assertTrue(out.contains("delay Z = 0.900 ms (W - D)"), out);
        assertTrue(out.contains("(D is the client's CPU only: the remote server's CPU is in the delay Z)"), out);
        assertTrue(out.contains("diff  model (MVA), client CPU    diff"), out);

        RunReport noModel = Fixtures.report(r)
                .baseline(Fixtures.baseline().warmupRequests(0).build())
                .prediction(LittlesLaw.predict(plan, 1_000_000))
                .build();
        out = print(noModel);
        assertTrue(
                out.contains(
                        "Little's law, W = 1.000 ms (single-thread baseline); no model (no CPU per request measured)"),
                out);
        assertTrue(
                out.contains("  whole run wall time                     12.000 s      11.250 s    +6.7%"
                        + System.lineSeparator()),
                out);
        assertFalse(out.contains("model (MVA)"), out);
    }

    @Test
    void theSweepTableHasTheNaiveAndTheModelsPrediction() {
        RunResult r = result(180_000, 180_000, 0, 0, Map.of());
        LoadPlan plan = Fixtures.config().workload().loadPlan();
        Prediction.Network network = new Prediction.Network(2, 100_000, 0, CpuScope.EMBEDDED_SERVER, "test");
        RunReport report = Fixtures.report(r)
                .prediction(LittlesLaw.predict(plan, 1_000_000))
                .model(LittlesLaw.mva(plan, 1_000_000, network))
                .build();
        RunReport none = Fixtures.report(r).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        VerboseSummary.printSweep(
                new PrintStream(bytes, true, StandardCharsets.UTF_8), List.of(judged(report), judged(none)));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("throughput (req/s)     naive N/W   diff   model (MVA)    diff"), out);
        // measured 15,000 req/s; naive 16,000 (-6.25%); the model 180,000 x D / C = 9 s: 20,000 (-25.0%)
        assertTrue(
                out.contains(
                        "12.000          11.250           9.000              15,000  16,000 req/s  -6.3%  20,000 req/s"
                                + "  -25.0%"),
                out);
        assertTrue(
                out.contains(
                        "12.000               -               -              15,000             -      -             -"),
                out);
    }

    @Test
    void theBaselineLineShowsTheWarmUpWAndTheProcessCpu() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        VerboseSummary.printBaseline(
                new PrintStream(bytes, true, StandardCharsets.UTF_8),
                Fixtures.baseline()
                        .meanLatencyNanos(262_000)
                        .wallNanos(2_630_000_000L)
                        .cpuNanos(3_820_000_000L)
                        .build());
        assertEquals(
                "Baseline: 10,000 requests from 1 thread in 2.630 s after 10,000 warm-up requests, 0 failed: mean latency "
                        + "W = 0.262 ms, process CPU 382.0 us per request" + System.lineSeparator(),
                bytes.toString(StandardCharsets.UTF_8));
    }

    /** {@code report} with its summary built, as a run ends. */
    private static RunReport judged(RunReport report) {
        return RunVerdict.judge(report, new ResultMetrics(report.result()), "client-part1", null);
    }

    private static String print(RunReport unjudged) {
        RunReport report = judged(unjudged);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        BriefSummary.printResult(out, report);
        VerboseSummary.printResult(out, report);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void progressLineShowsPhaseDoneRateAndFailures() {
        assertEquals(
                "[peak 2/3] 90,000/180,000 (50.0%)  15,000 req/s  2 failed  6.0 s",
                ProgressPrinter.format(
                        new Progress("peak", 2, 3, 90_000, 180_000, 2, 15_000, 6_000_000_000L, false, Double.NaN)));
        assertEquals(
                "[peak 2/3] 90,000/180,000 (50.0%)  2,987 of 3,000 req/s offered  2 failed  6.0 s",
                ProgressPrinter.format(
                        new Progress("peak", 2, 3, 90_000, 180_000, 2, 2_987, 6_000_000_000L, false, 3_000)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressPrinter p = new ProgressPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        p.onProgress(new Progress("peak", 2, 3, 90_000, 180_000, 2, 15_000, 6_000_000_000L, false, Double.NaN));
        p.onProgress(new Progress("cooldown", 3, 3, 180_000, 180_000, 2, 0, 12_000_000_000L, true, Double.NaN));
        String s = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(s.startsWith("\r[peak 2/3]"), s);
        assertTrue(s.endsWith(System.lineSeparator()), "the final snapshot ends the line");
    }
}
