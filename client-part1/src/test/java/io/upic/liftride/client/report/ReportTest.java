package io.upic.liftride.client.report;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.Baseline;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Progress;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.plan.LoadPlan;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportTest {

    private static RunResult result(long planned, long ok, long failed, long notSent, Map<Integer, Long> causes) {
        // All the traffic in the peak phase (index 1, as in the plan); startup and cooldown empty.
        PhaseResult startup = new PhaseResult(0, "startup", 8, 0, 0, 0, 0, 0, 0, 0, Map.of(), true, 1_000, 5_000_000_000L, 2_000, 6_000_000_000L);
        PhaseResult peak = new PhaseResult(1, "peak", 32, planned, ok, failed, notSent, 3, ok + failed + 3, (ok + failed + 3) * 2_000_000L,
                causes, true, 1_000, 5_000_000_000L, 13_000, 17_000_000_000L);
        PhaseResult cooldown = new PhaseResult(2, "cooldown", 8, 0, 0, 0, 0, 0, 0, 0, Map.of(), true, 12_000, 16_000_000_000L, 13_000, 17_000_000_000L);
        return new RunResult("fall2021", 32, List.of(startup, peak, cooldown), planned, ok, failed, notSent, 3, ok + failed + 3,
                (ok + failed + 3) * 2_000_000L, causes, 1_000, 5_000_000_000L, 12_000_000_000L, false, List.of());
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
        Reconciliation unknown = Reconciliation.of(r, OptionalLong.empty(), OptionalLong.of(5), "before the run: GET /statistics answered HTTP 404");
        assertFalse(unknown.serverChecked());
        assertTrue(unknown.ok(), "an unchecked server side is not a failure");
    }

    @Test
    void summaryStatesTheCountsTheThroughputNumeratorAndTheChecks() {
        RunResult r = result(180_000, 179_990, 10, 0, Map.of(503, 7L, -1, 3L));
        LoadPlan plan = RunConfig.defaults(32, 20_000).loadPlan();
        Prediction prediction = LittlesLaw.predict(plan, 1_000_000);
        RunReport report = new RunReport(RunConfig.defaults(32, 20_000), plan, "http://127.0.0.1:1/liftride", true,
                new Baseline.Result(10_000, 10_000, 0, 10_000, 1_000_000, 10_000_000_000L, false), prediction, r,
                Reconciliation.of(r, OptionalLong.of(10_000), OptionalLong.of(189_990), null), 21_600_000_000L, 2);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SummaryPrinter.printResult(new PrintStream(bytes, true, StandardCharsets.UTF_8), report);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("successful requests       179,990"), out);
        assertTrue(out.contains("failed requests                10"), out);
        assertTrue(out.contains("wall time                  12.000 s"), out);
        assertTrue(out.contains("14,999.2 req/s  (successful requests / wall seconds)"), out);
        assertTrue(out.contains("failures by cause: timeout: 3, HTTP 503: 7"), out);
        assertTrue(out.contains("peak phase (32 threads): predicted 32 / W = 32,000 req/s, measured 14,999 req/s (-53.1%)"), out);
        assertTrue(out.contains("predicted wall 11.250 s"), out);
        // 21.6 s of CPU over a 12 s wall time and 180,003 attempts
        assertTrue(out.contains("CPU: this JVM (client + embedded server) kept 1.80 of 2 cores busy, 120 us per attempt"), out);
        assertTrue(out.contains("Reconciliation: planned 180,000 == successful 179,990 + failed 10 + not sent 0: OK"), out);
        assertTrue(out.contains("server ridesStored 10,000 -> 189,990: delta 179,990 == successful 179,990: OK"), out);
        assertFalse(report.ok(), "a run with failures is not ok");
    }

    @Test
    void progressLineShowsPhaseDoneRateAndFailures() {
        assertEquals("[peak 2/3] 90,000/180,000 (50.0%)  15,000 req/s  2 failed  6.0 s",
                ProgressPrinter.format(new Progress("peak", 2, 3, 90_000, 180_000, 2, 15_000, 6_000_000_000L, false)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressPrinter p = new ProgressPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        p.onProgress(new Progress("peak", 2, 3, 90_000, 180_000, 2, 15_000, 6_000_000_000L, false));
        p.onProgress(new Progress("cooldown", 3, 3, 180_000, 180_000, 2, 0, 12_000_000_000L, true));
        String s = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(s.startsWith("\r[peak 2/3]"), s);
        assertTrue(s.endsWith(System.lineSeparator()), "the final snapshot ends the line");
    }
}
