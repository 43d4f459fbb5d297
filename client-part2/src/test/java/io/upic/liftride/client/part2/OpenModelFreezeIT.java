package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.part2.report.RunOutput;
import io.upic.liftride.client.report.SummaryJson;
import io.upic.liftride.client.report.SummarySchema;
import io.upic.liftride.client.threshold.ThresholdCheck;
import io.upic.liftride.cluster.Poll;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The open model's reason to exist: a server frozen (SIGSTOP) for 1 s in the peak phase of a {@code --rate} run.
 * The server is {@code liftride-server.jar} in a process of its own, so only it freezes; everything is loopback.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OpenModelFreezeIT {

    private static final Duration FREEZE = Duration.ofSeconds(1);

    @TempDir
    Path work;

    private FreezableServer server;

    @AfterEach
    void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aOneSecondFreezeInThePeakShowsInTheLatencyFromTheIntendedSendAndHardlyInTheActualOne() throws Exception {
        server = FreezableServer.start();
        String url = server.baseUrl();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Main main = new Main(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                () -> {
                    throw new AssertionError("the test's own server is given with -i");
                },
                false,
                work);
        // 32 threads at 2,000 req/s: startup (8 threads) sends 2,000 rides at 500/s for 4 s, then the peak 6,000 at
        // 2,000/s for 3 s, cooldown 1,000 at 500/s
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> main.run(new String[] {
            "-t",
            "32",
            "-s",
            "1000",
            "-m",
            "10",
            "--rate",
            "2000",
            "--transport",
            "raw",
            "--baseline",
            "0",
            "-i",
            url,
            "--out",
            "out",
            "--threshold",
            "intended.p99<100ms", // the stall breaks it: exit 3, named with its value
            "--threshold",
            "p99<2s"
        }));

        // freeze 0.5 s into the peak: the startup's 2,000 rides and 1,000 of the peak's are stored
        Poll.until("the run's peak", Duration.ofSeconds(30), () -> {
            assertTrue(!run.isDone(), "the run ended early: " + out);
            return server.stored() >= 3_000;
        });
        server.freezeFor(FREEZE);
        int exit = run.get(45, TimeUnit.SECONDS);
        String output = out.toString(StandardCharsets.UTF_8);
        assertEquals(ThresholdCheck.EXIT_CODE, exit, output);

        RunOutput o = main.instrumentation().outputs().get(0);
        PhaseResult peak = o.report().result().phases().get(1);
        ScopeStats peakStats = o.metrics().phases().get(1);
        assertNotNull(peakStats.fromIntended(), output);
        double intendedP99 = peakStats.fromIntended().p99();
        double actualP99 = peakStats.all().p99();
        // ~2,000 requests were due during the freeze, a third of the peak's: their users waited up to a second
        assertTrue(intendedP99 > 300, "p99 from intended " + intendedP99 + " ms\n" + output);
        // only the 32 requests in flight when it froze (0.5% of the peak) waited the second from their actual send
        assertTrue(actualP99 < intendedP99 / 5, "actual p99 " + actualP99 + " vs " + intendedP99 + "\n" + output);
        assertTrue(peak.scheduleLag().maxNanos() > 500_000_000L, "the threads fell behind: " + peak.scheduleLag());
        assertEquals(6_000, peak.scheduleLag().sends(), "none skipped");

        String report = Files.readString(work.resolve("out").resolve(MarkdownReport.FILE));
        assertTrue(report.contains("### t32: Open model: --rate 2,000 req/s"), report);
        assertTrue(report.contains("| from intended |"), report);
        List<String> rows =
                Files.readAllLines(work.resolve("out").resolve("t32").resolve("requests.csv"));
        assertEquals(CsvRows.HEADER, rows.get(0));
        long delayed = rows.stream()
                .skip(1)
                .filter(r -> Double.parseDouble(r.split(",", -1)[7]) > 500) // send_delay_ms
                .count();
        assertTrue(delayed > 500, "rows sent over 0.5 s after their slot: " + delayed);
        String summary = Files.readString(work.resolve("out").resolve("t32").resolve(SummaryJson.FILE));
        assertEquals(List.of(), SummarySchema.errors(summary), summary);
        JsonNode json = SummarySchema.tree(summary);
        assertEquals(2000.0, json.get("offeredRate").asDouble(), summary);
        double runIntendedP99 = json.get("latencyFromIntendedMs").get("p99").asDouble();
        assertTrue(runIntendedP99 > 100, summary);
        assertTrue(json.get("latencyMs").get("p99").asDouble() < runIntendedP99, summary);
        JsonNode intendedThreshold = json.get("thresholds").get(0);
        assertEquals("intended.p99<100ms", intendedThreshold.get("expr").asText());
        assertEquals(runIntendedP99, intendedThreshold.get("value").asDouble(), runIntendedP99 * 0.01, summary);
        assertTrue(!intendedThreshold.get("passed").asBoolean()
                && json.get("thresholds").get(1).get("passed").asBoolean());
        assertTrue(output.contains("intended.p99<100ms") && output.contains("FAIL"), output);
        System.out.printf(
                "1 s freeze at 2,000 req/s: peak p99 from intended %.1f ms, actual %.1f ms, max send lag %.0f ms%n",
                intendedP99, actualP99, peak.scheduleLag().maxNanos() / 1e6);
    }
}
