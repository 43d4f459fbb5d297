package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.report.SummarySchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * client-part1's real output against the embedded server: --summary-json validates against the committed
 * schema, and thresholds print PASS/FAIL with their values and set the exit code.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SummaryJsonIT {

    @TempDir
    Path work;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return new Main(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        EmbeddedTarget::start,
                        false)
                .run(args);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8) + "\n--- stderr ---\n" + err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aRealRunsSummaryValidatesAndPassingThresholdsExitZero() throws Exception {
        Path file = work.resolve("ci/summary.json");
        int exit = run(
                "-t",
                "8",
                "-s",
                "200",
                "-m",
                "2",
                "--baseline",
                "0",
                "--summary-json",
                file.toString(),
                "--threshold",
                "failed==0",
                "--threshold",
                "mean<10s",
                "--threshold",
                "throughput>1");
        assertEquals(0, exit, output());
        String json = Files.readString(file, StandardCharsets.UTF_8);
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode t = SummarySchema.tree(json);
        assertEquals("client-part1", t.get("client").asString());
        assertEquals(8, t.get("threads").asInt());
        assertEquals(t.get("planned").asLong(), t.get("successful").asLong());
        assertTrue(t.get("server").get("reconciled").asBoolean(), json);
        assertTrue(t.get("latencyMs").get("mean").asDouble() > 0, json);
        assertTrue(t.get("latencyMs").get("p99").isNull(), "client-part1 measures no percentiles");
        assertEquals(3, t.get("thresholds").size());
        assertTrue(t.get("thresholdsPassed").asBoolean());
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("Thresholds: 3 of 3 passed"), printed);
        assertTrue(printed.contains("  PASS  failed==0  (measured 0 requests)"), printed);
        assertTrue(printed.contains("Summary: " + file), printed);
        assertFalse(err.toString(StandardCharsets.UTF_8).contains("ETA"), "a short run logs no progress");
    }

    @Test
    void aThresholdThatCannotHoldExitsThreeAndNamesItself() throws Exception {
        Path file = work.resolve("s.json");
        int exit = run(
                "-t",
                "4",
                "-s",
                "100",
                "-m",
                "2",
                "--baseline",
                "0",
                "--quiet",
                "--summary-json",
                file.toString(),
                "--threshold",
                "throughput>1000000000",
                "--threshold",
                "failed==0");
        assertEquals(3, exit, output());
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("Thresholds: 1 of 2 passed (exit code 3"), printed);
        assertTrue(printed.contains("  FAIL  throughput>1000000000  (measured "), printed);
        String json = Files.readString(file, StandardCharsets.UTF_8);
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode t = SummarySchema.tree(json);
        assertFalse(t.get("thresholdsPassed").asBoolean());
        assertFalse(t.get("thresholds").get(0).get("passed").asBoolean());
        assertEquals(
                t.get("throughput").asDouble(),
                t.get("thresholds").get(0).get("value").asDouble(),
                1e-9,
                "the threshold's value is the summary's throughput");
    }

    @Test
    void aSweepWritesOneDocumentWithEveryRun() throws Exception {
        Path file = work.resolve("sweep.json");
        int exit = run("-t", "2,4", "-s", "100", "-m", "2", "--baseline", "0", "--summary-json", file.toString());
        assertEquals(0, exit, output());
        String json = Files.readString(file, StandardCharsets.UTF_8);
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode runs = SummarySchema.tree(json).get("runs");
        assertEquals(2, runs.size());
        assertEquals(2, runs.get(0).get("threads").asInt());
        assertEquals(4, runs.get(1).get("threads").asInt());
    }
}
