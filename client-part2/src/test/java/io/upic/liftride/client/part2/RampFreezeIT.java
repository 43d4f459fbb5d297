package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.part2.report.RunOutput;
import io.upic.liftride.client.report.SummaryJson;
import io.upic.liftride.client.report.SummarySchema;
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
 * Coordinated omission stays visible in a {@code --ramp}: the server (its own process, so only it freezes) is
 * frozen (SIGSTOP) for 1 s in the ramp's second stage; everything is loopback.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RampFreezeIT {

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
    void aOneSecondFreezeInAStageShowsInItsLatencyFromTheIntendedSendAndFlagsTheStage() throws Exception {
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
        // stage1 100 -> 300 req/s over 2 s (400 rides), stage2 300 req/s for 4 s (1,200), stage3 300 -> 100 in 2 s
        // (400); 6 threads, so the requests in flight when the server freezes are under 1% of stage2's
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> main.run(new String[] {
            "-t",
            "6",
            "-s",
            "1000",
            "--ramp",
            "100,300:2s,300:4s,100:2s",
            "--transport",
            "raw",
            "--baseline",
            "0",
            "-i",
            url,
            "--out",
            "out"
        }));

        // freeze 1 s into stage2: stage1's 400 rides and 300 of stage2's are stored
        Poll.until("the ramp's second stage", Duration.ofSeconds(30), () -> {
            assertFalse(run.isDone(), "the run ended early: " + out);
            return server.stored() >= 700;
        });
        server.freezeFor(FREEZE);
        int exit = run.get(60, TimeUnit.SECONDS);
        String output = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, output);

        RunOutput o = main.instrumentation().outputs().get(0);
        ScopeStats stage2 = o.metrics().phases().get(1);
        assertNotNull(stage2.fromIntended(), output);
        double intendedP99 = stage2.fromIntended().p99();
        double actualP99 = stage2.all().p99();
        // ~300 requests were due during the freeze, a quarter of the stage's: their users waited up to a second
        assertTrue(intendedP99 > 300, "p99 from intended " + intendedP99 + " ms\n" + output);
        assertTrue(actualP99 < intendedP99 / 5, "actual p99 " + actualP99 + " vs " + intendedP99 + "\n" + output);
        assertEquals(1_200, o.report().result().phases().get(1).scheduleLag().sends(), "none skipped");
        // the console names the worst stage only: stage2, unless a busy machine let another fall further behind
        assertTrue(output.contains("  ramp       NOT OFFERED IN FULL: stage"), output);

        Path dir = work.resolve("out");
        String report = Files.readString(dir.resolve(MarkdownReport.FILE));
        assertTrue(report.contains("Open model: --ramp 100,300:2s,300:4s,100:2s"), report);
        assertTrue(report.contains("stage2 NOT OFFERED IN FULL"), report);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("offered per s (--ramp)") && html.contains("stage2 NOT OFFERED IN FULL"), html);
        String summary = Files.readString(dir.resolve("t6").resolve(SummaryJson.FILE));
        assertEquals(List.of(), SummarySchema.errors(summary), summary);
        JsonNode stages = SummarySchema.tree(summary).get("ramp").get("stages");
        assertFalse(stages.get(1).get("offeredInFull").asBoolean(), summary);
        assertTrue(stages.get(1).get("sendLagMaxMs").asDouble() > 500, summary);
        assertTrue(
                SummarySchema.tree(summary)
                                .get("phases")
                                .get(1)
                                .get("latencyFromIntendedMs")
                                .get("p99")
                                .asDouble()
                        > 300,
                summary);
        System.out.printf(
                "1 s freeze in --ramp stage2 (300 req/s): p99 from intended %.1f ms, actual %.1f ms%n",
                intendedP99, actualP99);
    }
}
