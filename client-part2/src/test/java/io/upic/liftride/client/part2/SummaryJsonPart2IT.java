package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.EmbeddedTarget;
import io.upic.liftride.client.report.RunSummary.Latency;
import io.upic.liftride.client.report.SummarySchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * client-part2's real output against the embedded server: summary.json in every run folder and --summary-json
 * validate against client-part1's committed schema, carry the histogram's percentiles, and percentile
 * thresholds set the exit code.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SummaryJsonPart2IT {

    @TempDir
    Path work;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Main main() {
        return new Main(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                EmbeddedTarget::start,
                false,
                work);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8) + "\n--- stderr ---\n" + err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void eachRunFolderGetsAValidSummaryWithTheHistogramsPercentiles() throws Exception {
        Main main = main();
        int exit = main.run(new String[] {
            "-t",
            "4,8",
            "-s",
            "200",
            "-m",
            "2",
            "--baseline",
            "0",
            "--out",
            "out",
            "--summary-json",
            "all.json",
            "--threshold",
            "p99<10s",
            "--threshold",
            "p99.9<=20s",
            "--threshold",
            "max<30s",
            "--threshold",
            "failed==0"
        });
        assertEquals(0, exit, output());
        for (String run : List.of("t4", "t8")) {
            Path file = work.resolve("out").resolve(run).resolve("summary.json");
            String json = Files.readString(file, StandardCharsets.UTF_8);
            assertEquals(List.of(), SummarySchema.errors(json), json);
            JsonNode t = SummarySchema.tree(json);
            assertEquals("client-part2", t.get("client").asString());
            JsonNode l = t.get("latencyMs");
            for (String k : List.of("mean", "p50", "p90", "p99", "p999", "max")) {
                assertTrue(l.get(k).asDouble() > 0, k + " in " + json);
            }
            assertTrue(l.get("p50").asDouble() <= l.get("p99").asDouble());
            assertTrue(l.get("p99").asDouble() <= l.get("p999").asDouble());
            assertTrue(t.get("thresholdsPassed").asBoolean(), json);
            assertEquals(4, t.get("thresholds").size());
        }
        Latency stats = main.instrumentation().outputs().get(1).metrics().run().all();
        JsonNode t8 = SummarySchema.tree(Files.readString(work.resolve("out/t8/summary.json"), StandardCharsets.UTF_8));
        assertEquals(stats.p99(), t8.get("latencyMs").get("p99").asDouble(), 1e-9, "the report's p99");
        assertEquals(stats.max(), t8.get("latencyMs").get("max").asDouble(), 1e-9);
        assertEquals(stats.p99(), t8.get("thresholds").get(0).get("value").asDouble(), 1e-9);
        JsonNode phases = t8.get("phases");
        var phaseStats = main.instrumentation().outputs().get(1).metrics().phases();
        assertEquals(phaseStats.size(), phases.size());
        for (int k = 0; k < phases.size(); k++) {
            JsonNode l = phases.get(k).get("latencyMs");
            assertEquals(phaseStats.get(k).all().p99(), l.get("p99").asDouble(), 1e-9, "phase " + k + "'s p99");
            assertEquals(phaseStats.get(k).all().max(), l.get("max").asDouble(), 1e-9);
            assertTrue(phases.get(k).get("latencyFromIntendedMs").isNull(), "closed model");
        }

        String all = Files.readString(work.resolve("all.json"), StandardCharsets.UTF_8);
        assertEquals(List.of(), SummarySchema.errors(all), all);
        assertEquals(2, SummarySchema.tree(all).get("runs").size());
    }

    @Test
    void aPercentileThresholdThatCannotHoldExitsThree() throws Exception {
        int exit = main().run(new String[] {
            "-t", "4", "-s", "100", "-m", "2", "--baseline", "0", "--out", "out", "--threshold", "p50<1ns"
        });
        assertEquals(3, exit, output());
        assertTrue(output().contains("  FAIL  p50<1ns  (measured "), output());
        JsonNode t = SummarySchema.tree(Files.readString(work.resolve("out/t4/summary.json"), StandardCharsets.UTF_8));
        assertFalse(t.get("thresholdsPassed").asBoolean());
    }

    @Test
    void anIntendedThresholdWithoutRateIsABadFlag() {
        int exit = main().run(new String[] {"-t", "4", "-s", "100", "--threshold", "intended.p99<5ms"});
        assertEquals(2, exit, output());
        assertTrue(
                err.toString(StandardCharsets.UTF_8)
                        .startsWith("--threshold intended.p99<5ms cannot be checked: intended.p99 needs --rate"),
                output());
    }
}
