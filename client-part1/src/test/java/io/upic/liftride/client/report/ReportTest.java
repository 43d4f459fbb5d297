package io.upic.liftride.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.engine.Baseline;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Progress;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.plan.LoadPlan;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ReportTest {

    private static RunResult result(long planned, long ok, long failed, long notSent, Map<Integer, Long> causes) {
        // All the traffic in the peak phase (index 1, as in the plan); startup and cooldown empty.
        long attempts = ok + failed + 3;
        PhaseResult startup = Fixtures.phase()
                .index(0)
                .name("startup")
                .threads(8)
                .startNanos(5_000_000_000L)
                .endNanos(6_000_000_000L)
                .build();
        PhaseResult peak = Fixtures.phase()
                .index(1)
                .requests(new Requests(planned, ok, failed, notSent, 3, attempts))
                .latencyNanosSum(attempts * 2_000_000L)
                .failuresByCause(causes)
                .startNanos(5_000_000_000L)
                .endNanos(17_000_000_000L)
                .build();
        PhaseResult cooldown = Fixtures.phase()
                .index(2)
                .name("cooldown")
                .threads(8)
                .startNanos(16_000_000_000L)
                .endNanos(17_000_000_000L)
                .build();
        return Fixtures.run(startup, peak, cooldown)
                .startNanos(5_000_000_000L)
                .wallNanos(12_000_000_000L)
                .build();
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

    @Test
    void summaryStatesTheCountsTheThroughputNumeratorAndTheChecks() {
        RunResult r = result(180_000, 179_990, 10, 0, Map.of(503, 7L, -1, 3L));
        LoadPlan plan = Fixtures.config().build().loadPlan();
        Prediction prediction = LittlesLaw.predict(plan, 1_000_000);
        // W = 1 ms, D = 100 us (1 s of Java threads' CPU over 10,000 requests; the process 1.5 s), C = 2: see
        // LittlesLawTest for the bounded schedule
        Baseline.Result baseline = Fixtures.baseline()
                .cpuNanos(1_500_000_000L)
                .javaThreadCpuNanos(1_000_000_000L)
                .build();
        assertEquals(100_000, baseline.boundCpuNanosPerRequest(), 1e-9);
        Prediction bounded =
                LittlesLaw.bounded(plan, 1_000_000, baseline.boundCpuNanosPerRequest(), 2, CpuScope.EMBEDDED_SERVER);
        RunReport report = Fixtures.report(r)
                .baseline(baseline)
                .prediction(prediction)
                .bounded(bounded)
                .reconciliation(Reconciliation.of(r, OptionalLong.of(10_000), OptionalLong.of(189_990), null))
                .processCpuNanos(21_600_000_000L)
                .build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SummaryPrinter.printResult(new PrintStream(bytes, true, StandardCharsets.UTF_8), report);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("successful requests       179,990"), out);
        assertTrue(out.contains("failed requests                10"), out);
        assertTrue(out.contains("wall time                  12.000 s"), out);
        assertTrue(out.contains("14,999.2 req/s  (successful requests / wall seconds)"), out);
        assertTrue(out.contains("failures by cause: timeout: 3, HTTP 503: 7"), out);
        assertTrue(
                out.contains(
                        "Little's law, W = 1.000 ms, D = 100.0 us CPU per request (Java threads of this JVM: client + embedded server), "
                                + "C = 2 cores (single-thread baseline after 10,000 warm-up requests)"),
                out);
        assertTrue(
                out.contains("C / D = 20,000 req/s; the CPU bounds throughput above N* = C x W / D = 20.0 threads"),
                out);
        // peak: measured 14,999 req/s at 2 ms; naive 32 / 1 ms; bounded min(32,000, 20,000) at max(1, 32 x 0.1 / 2) ms;
        // in flight: measured 14,999 req/s x 2 ms, both models N = 32
        assertTrue(
                out.contains(
                        "                                             measured    naive N / W     diff     bounded min(N/W, C/D)     diff"),
                out);
        assertTrue(
                out.contains(
                        "  peak phase throughput (32 threads)     14,999 req/s   32,000 req/s   -53.1%              20,000 req/s   -25.0%"),
                out);
        assertTrue(
                out.contains(
                        "  peak phase mean latency                    2.000 ms       1.000 ms  +100.0%                  1.600 ms   +25.0%"),
                out);
        assertTrue(
                out.contains(
                        "  peak phase requests in flight                  30.0           32.0    -6.3%                      32.0    -6.3%"),
                out);
        // whole run: naive 11.25 s, bounded 5 + 6 + 2.5 = 13.5 s (LittlesLawTest)
        assertTrue(
                out.contains(
                        "  whole run wall time                        12.000 s       11.250 s    +6.7%                  13.500 s   -11.1%"),
                out);
        assertTrue(
                out.contains(
                        "  whole run throughput                   14,999 req/s   16,000 req/s    -6.3%              13,333 req/s   +12.5%"),
                out);
        // 21.6 s of CPU over a 12 s wall time and 180,003 attempts
        assertTrue(
                out.contains("CPU: this JVM (client + embedded server) kept 1.80 of 2 cores busy, 120 us per attempt"),
                out);
        assertTrue(
                out.contains("Reconciliation: planned 180,000 == successful 179,990 + failed 10 + not sent 0: OK"),
                out);
        assertTrue(out.contains("server ridesStored 10,000 -> 189,990: delta 179,990 == successful 179,990: OK"), out);
        assertFalse(report.ok(), "a run with failures is not ok");
    }

    @Test
    void aRemoteServerLabelsTheBoundAsTheClientsCpuOnlyAndAMissingCpuReadingDropsIt() {
        RunResult r = result(180_000, 180_000, 0, 0, Map.of());
        LoadPlan plan = Fixtures.config().build().loadPlan();
        Baseline.Result baseline =
                Fixtures.baseline().cpuNanos(500_000_000L).build(); // no thread CPU: D is the process's
        assertEquals(50_000, baseline.boundCpuNanosPerRequest(), 1e-9);
        RunReport remote = Fixtures.report(r)
                .serverUrl("http://10.0.0.9:8080/liftride")
                .embeddedServer(false)
                .baseline(baseline)
                .prediction(LittlesLaw.predict(plan, 1_000_000))
                .bounded(LittlesLaw.bounded(
                        plan, 1_000_000, baseline.boundCpuNanosPerRequest(), 2, CpuScope.REMOTE_SERVER))
                .processCpuNanos(6_000_000_000L)
                .build();
        String out = print(remote);
        assertTrue(
                out.contains("D = 50.0 us CPU per request (Java threads of this JVM: client only, server remote)"),
                out);
        assertTrue(
                out.contains("(client CPU only: the remote server's CPU is not in D, so this bounds the client alone)"),
                out);
        // min(32,000, 2 / 50 us = 40,000)
        assertTrue(out.contains("diff  bounded, client CPU only     diff"), out);
        assertTrue(out.contains("   -53.1%              32,000 req/s   -53.1%"), out);

        RunReport noCpu = Fixtures.report(r)
                .baseline(Fixtures.baseline().warmupRequests(0).build())
                .prediction(LittlesLaw.predict(plan, 1_000_000))
                .build();
        out = print(noCpu);
        assertTrue(
                out.contains(
                        "Little's law, W = 1.000 ms (single-thread baseline); no CPU bound (the baseline's CPU time is unknown)"),
                out);
        assertTrue(
                out.contains("  whole run wall time                        12.000 s       11.250 s    +6.7%"
                        + System.lineSeparator()),
                out);
        assertFalse(out.contains("bounded"), out);
    }

    @Test
    void theSweepTableHasTheNaiveAndTheBoundedPrediction() {
        RunResult r = result(180_000, 180_000, 0, 0, Map.of());
        LoadPlan plan = Fixtures.config().build().loadPlan();
        RunReport report = Fixtures.report(r)
                .prediction(LittlesLaw.predict(plan, 1_000_000))
                .bounded(LittlesLaw.bounded(plan, 1_000_000, 100_000, 2, CpuScope.EMBEDDED_SERVER))
                .build();
        RunReport none = Fixtures.report(r).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SummaryPrinter.printSweep(new PrintStream(bytes, true, StandardCharsets.UTF_8), List.of(report, none));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("throughput      naive N/W     diff        bounded     diff"), out);
        // measured 15,000 req/s; naive 16,000 (-6.25%); bounded 13,333 (+12.5%)
        assertTrue(out.contains("12.000 s   15,000 req/s   16,000 req/s    -6.3%   13,333 req/s   +12.5%"), out);
        assertTrue(out.contains("12.000 s   15,000 req/s              -                       -"), out);
    }

    @Test
    void theBaselineLineShowsTheWarmUpWAndBothCpuFigures() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SummaryPrinter.printBaseline(
                new PrintStream(bytes, true, StandardCharsets.UTF_8),
                Fixtures.baseline()
                        .meanLatencyNanos(262_000)
                        .wallNanos(2_630_000_000L)
                        .cpuNanos(3_820_000_000L)
                        .javaThreadCpuNanos(1_200_000_000L)
                        .build());
        assertEquals(
                "Baseline: 10,000 requests from 1 thread in 2.630 s after 10,000 warm-up requests, 0 failed: mean latency "
                        + "W = 0.262 ms, process CPU 382.0 us per request of which Java threads D = 120.0 us (the rest: JIT compiler and GC "
                        + "threads)" + System.lineSeparator(),
                bytes.toString(StandardCharsets.UTF_8));
    }

    private static String print(RunReport report) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SummaryPrinter.printResult(new PrintStream(bytes, true, StandardCharsets.UTF_8), report);
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
