package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/** {@code --ramp} against the embedded server on loopback: every stage offered at the rate it asks for. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RampIT {

    @TempDir
    Path work;

    @Test
    void eachStageAchievesItsOfferedRateWithinThreePercent() throws Exception {
        Path file = work.resolve("summary.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // 500 + 800 + 500 requests in 12 s: a few hundred per second, which a busy 2-core machine sustains; 64
        // threads, so that answers slowed by a busy CPU never leave the schedule without a free thread
        int exit = new Main(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        EmbeddedTarget::start,
                        false)
                .run(new String[] {
                    "-t",
                    "64",
                    "-s",
                    "200",
                    "--ramp",
                    "50,200:4s,200:4s,50:4s",
                    "--transport",
                    "raw",
                    "--baseline",
                    "0",
                    "--summary-json",
                    file.toString()
                });
        String output = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, output);

        String summary = Files.readString(file);
        assertEquals(List.of(), SummarySchema.errors(summary), summary);
        JsonNode json = SummarySchema.tree(summary);
        assertEquals("ramp", json.get("plan").asText());
        assertEquals(1_800, json.get("successful").asLong(), summary);
        JsonNode stages = json.get("ramp").get("stages");
        assertEquals(3, stages.size(), summary);
        double[] offered = {125, 200, 125};
        for (int s = 0; s < 3; s++) {
            JsonNode stage = stages.get(s);
            assertEquals(offered[s], stage.get("offeredPerSecond").asDouble(), 1e-9, summary);
            double ratio = stage.get("achievedOverOffered").asDouble();
            assertTrue(Math.abs(ratio - 1) <= 0.03, "stage " + (s + 1) + " achieved/offered " + ratio + "\n" + output);
        }
        assertTrue(
                output.lines()
                        .anyMatch(l -> l.matches("  ramp       (all 3 stages offered in full|NOT OFFERED IN FULL:"
                                + " stage\\d.* of 3 stages).*")),
                output);
        System.out.printf(
                "--ramp 50,200:4s,200:4s,50:4s -t 64: achieved/offered %.4f %.4f %.4f%n",
                stages.get(0).get("achievedOverOffered").asDouble(),
                stages.get(1).get("achievedOverOffered").asDouble(),
                stages.get(2).get("achievedOverOffered").asDouble());
    }
}
