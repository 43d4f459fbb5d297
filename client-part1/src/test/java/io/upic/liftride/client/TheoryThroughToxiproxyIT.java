package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.prediction.CalibrationStore;
import io.upic.liftride.client.prediction.LittlesLaw;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.cluster.HostPort;
import io.upic.liftride.cluster.Toxiproxy;
import io.upic.liftride.server.embedded.EmbeddedServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The theory that predicts, on a slow network: a small plan through a real Toxiproxy with a 30 ms round trip
 * between the client and the embedded server, predicted before the run from the baseline's W and D, measured
 * within 15% of the model. Delay-dominated, so robust to a busy machine. Needs Go the
 * first time (Toxiproxy is go-installed once).
 */
@Tag("alone") // measures against the machine's capacity: no other test class beside it
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TheoryThroughToxiproxyIT {

    @Test
    void throughA30MsRoundTripTheMeasuredThroughputIsWithin15PercentOfTheModel() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0);
                Toxiproxy toxiproxy = Toxiproxy.start()) {
            URI direct = URI.create(server.baseUrl());
            HostPort far = toxiproxy.proxy("liftride", new HostPort("127.0.0.1", direct.getPort()));
            toxiproxy.latency("liftride", Duration.ofMillis(30), Duration.ZERO);
            // 720 requests: startup 4 threads x 40, peak 16 x 30, cooldown 2 x 40; a few seconds at 30+ ms each
            RunConfig config = Fixtures.config(
                    "-t", "16", "-s", "400", "-m", "2", "-i", "http://" + far + direct.getPath(), "--baseline", "20");
            List<RunReport> reports = new ArrayList<>();
            PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
            Console console = new Console(print, print, false, false) {
                @Override
                public void afterRun(RunReport report) {
                    super.afterRun(report);
                    reports.add(report);
                }
            };
            LocalServer.Starter none = () -> {
                throw new AssertionError("must use -i, not start a server");
            };
            int exit = console.run(config, List.of(16), none, CalibrationStore.NONE, new CtrlC(print, "test"));
            String o = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, exit, o);
            RunReport report = reports.get(0);
            Prediction model = report.model();
            assertNotNull(model, o);
            assertTrue(model.meanLatencyNanos() >= 30e6, "W through a 30 ms round trip: " + model.meanLatencyNanos());
            double measured = report.result().throughputPerSecond();
            double off = LittlesLaw.differencePercent(measured, model.throughputPerSecond());
            assertTrue(
                    Math.abs(off) <= 15,
                    "measured " + measured + " req/s, model " + model.throughputPerSecond() + " req/s (" + off + "%):\n"
                            + o);
            double wallOff = LittlesLaw.differencePercent(report.result().wallNanos(), model.wallNanos());
            assertTrue(Math.abs(wallOff) <= 15, "wall time " + wallOff + "% from the model:\n" + o);
            assertTrue(o.contains("  predicted  wall time: model "), o);
            System.out.printf(
                    "TheoryThroughToxiproxyIT: measured %.1f req/s in %.3f s, model %.1f req/s in %.3f s (%+.1f%%)%n",
                    measured,
                    report.result().wallNanos() / 1e9,
                    model.throughputPerSecond(),
                    model.wallNanos() / 1e9,
                    off);
        }
    }
}
