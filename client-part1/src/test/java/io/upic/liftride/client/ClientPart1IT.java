package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.prediction.CalibrationStore;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.server.embedded.EmbeddedServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Real runs against the real servlets on embedded Tomcat 9. */
// A hang is a failure, not a stuck build: the engine's promise is that runs end by themselves.
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClientPart1IT {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private PrintStream stream(ByteArrayOutputStream b) {
        return new PrintStream(b, true, StandardCharsets.UTF_8);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aSweepWarmsUpEveryInvocationAndReusesAndRefreshesAStoredEntry(@TempDir Path cache) {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            long storedAtStart = ServerProbe.statistics(server.baseUrl(), 2_000, 2_000)
                    .ridesStored()
                    .orElseThrow();
            // 2 x 54,000 requests: half of them are enough for a warm-up (WarmUp.MIN_ATTEMPTS)
            RunConfig config = Fixtures.config("-t", "16", "-s", "6000", "-i", server.baseUrl(), "--baseline", "200");
            CalibrationStore store = new CalibrationStore(cache);
            List<RunReport> reports = sweep(config, store);
            assertEquals(2, reports.size());
            for (RunReport report : reports) {
                RunResult r = report.result();
                assertEquals(54_000, r.requests().planned());
                assertEquals(r.requests().planned(), r.requests().successful());
                assertEquals(r.requests().successful(), report.reconciliation().serverDelta());
                assertNotNull(report.model(), "this process's CPU gives D");
            }
            assertEquals(200, reports.get(0).baseline().warmupRequests());
            Matcher warmUp = Pattern.compile(
                            "Warm-up in [0-9.]+ s: [0-9]+ slices of -t [0-9]+, ([0-9,]+) requests, D = ")
                    .matcher(out());
            assertTrue(warmUp.find(), out());
            long warmUpRequests = Long.parseLong(warmUp.group(1).replace(",", ""));
            assertTrue(warmUpRequests > 0 && warmUpRequests < 54_000 + 200, "about half the runs' requests at most");
            // the server holds the warm-up's rides, the baseline's (warm-up and measured) and both runs'
            long storedNow = ServerProbe.statistics(server.baseUrl(), 2_000, 2_000)
                    .ridesStored()
                    .orElseThrow();
            assertEquals(warmUpRequests + 400 + 108_000, storedNow - storedAtStart);
            assertEquals("measured in the warm-up", source(reports.get(0)));
            RunReport first = reports.get(0);
            assertTrue(source(reports.get(1)).startsWith("measured in run -t 16"), source(reports.get(1)));
            assertEquals(
                    (first.processCpuNanos() - first.jitCpuNanos())
                            / (double) first.result().requests().attempts(),
                    reports.get(1).model().network().cpuNanosPerRequest(),
                    1e-6);

            String key = CalibrationStore.key(
                    server.baseUrl(), config.target().transport().cliName());
            Instant then = Instant.now().minusSeconds(60);
            store.save(key, new CalibrationStore.Entry(150_000, 1e9, then));
            out.reset();
            List<RunReport> again = sweep(config, store);
            assertTrue(out().contains("Warm-up in"), "a stored entry keeps D, not the JIT's work: warm up again");
            assertEquals("measured in the warm-up", source(again.get(0)));
            assertTrue(source(again.get(1)).startsWith("stored "), source(again.get(1)));
            assertEquals(150_000, again.get(1).model().network().cpuNanosPerRequest(), 1e-6);
            CalibrationStore.Entry refreshed = store.find(key).orElseThrow();
            assertTrue(refreshed.measuredAt().isAfter(then), "refreshed by the invocation that reused it");
            assertEquals(again.get(1).cpuNanosPerAttempt(), refreshed.demandNanos(), 1e-6, "the last run's D");
        }
    }

    /** Runs {@code config} at -t 16 then 8. */
    private List<RunReport> sweep(RunConfig config, CalibrationStore store) {
        List<RunReport> reports = new ArrayList<>();
        Console console = new Console(stream(out), stream(err), false, false) {
            @Override
            public void afterRun(RunReport report) {
                super.afterRun(report);
                reports.add(report);
            }
        };
        LocalServer.Starter none = () -> {
            throw new AssertionError("must use -i, not start a server");
        };
        int exit = console.run(config, List.of(16, 8), none, store, new CtrlC(stream(err), "test"));
        assertEquals(0, exit, out() + err.toString(StandardCharsets.UTF_8));
        return reports;
    }

    private static String source(RunReport report) {
        return report.model().network().source();
    }

    @Test
    void theCliEntryStartsTheEmbeddedServerRunsAndReturnsZeroWithTheFullAccountWhenVerbose() {
        // 1,000 baseline requests take about 0.1 s: 100 took 9 ms, under the 10-ms ticks the JIT's CPU is read in,
        // and left D (CPU less the JIT's) at 0 now and then
        int exit = new Main(stream(out), stream(err), EmbeddedTarget::start, false).run(new String[] {
            "-t", "8", "-s", "400", "-m", "5", "--baseline", "1000", "--plan", "spring2022", "--seed", "7", "--verbose"
        });
        String o = out();
        assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
        assertTrue(o.contains("(embedded, started by this client)"), o);
        assertTrue(o.contains("plan spring2022: 1,800 requests"), o);
        // each part stops at 1.2 s once 200 are sent: a slow machine sends fewer
        assertTrue(
                o.matches("(?s).*Baseline: [0-9,]+ requests from 1 thread in [0-9.]+ s after [0-9,]+ warm-up requests,"
                        + " 0 failed: mean latency W = .*"),
                o);
        assertTrue(o.contains("1,800 successful, 0 failed"), o);
        assertTrue(o.contains("  planned  successful  failed  not sent  attempts  retries  wall (s)"), o);
        assertTrue(o.contains("Prediction, W = "), o);
        assertTrue(o.contains("predicted before the run: model (MVA) "), o);
        assertTrue(
                o.contains("CPU per request under load (client + embedded server; from: the baseline's, cold: rough)"),
                o);
        assertTrue(o.matches("(?s).*diff +model \\(MVA\\) +diff\\n.*"), "the Little's law table's header\n" + o);
        assertTrue(o.contains("  whole run wall time    "), o);
        assertTrue(o.contains("1,800 planned == 1,800 successful + 0 failed + 0 not sent: OK"), o);
        assertTrue(o.contains("server stored 1,800: OK"), o);
        assertTrue(o.contains("\nLiftRide drain: "), "the embedded server's lines with --verbose\n" + o);
        assertFalse(o.contains("Next: "), o);
        assertEquals("", err.toString(StandardCharsets.UTF_8), "no progress line without a console or --progress");
    }

    @Test
    void aSweepRunsEachThreadCountBackToBackOnOneServer() {
        int exit = new Main(stream(out), stream(err), EmbeddedTarget::start, false)
                .run(new String[] {"-t", "4,8", "-s", "200", "--baseline", "0"});
        assertEquals(0, exit, out());
        assertEquals(2, out().split("server stored 1,800: OK", -1).length - 1, out());
        assertTrue(out().contains("predicted  no prediction (--baseline 0"), out());
        assertTrue(out().contains("  threads  successful  failed      wall"), "the sweep's table\n" + out());
        assertFalse(out().contains("LiftRide"), "the embedded server's lines are --verbose's\n" + out());
        List<String> lines = out().lines().toList();
        assertEquals(Main.NEXT, lines.get(lines.size() - 1), "what to open next, last");
    }

    @Test
    void stoppingARunPrintsThePartialAccountAndExitsOne() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Console stopWhenSending = new Console(stream(out), stream(err), false, false) {
            @Override
            public AttemptListener listener(RunConfig config, LoadPlan plan) {
                return work -> (epochMillis, nanos, latency, code, attempt) -> {
                    if (attempts.incrementAndGet() == 2_000) {
                        stop(); // from a worker thread, mid-run
                    }
                };
            }
        };
        int exit = stopWhenSending.run(
                Fixtures.config("-t", "16", "-s", "100000", "--baseline", "0"),
                List.of(16),
                EmbeddedTarget::start,
                CalibrationStore.NONE,
                new CtrlC(stream(err), "test"));
        assertEquals(1, exit);
        String o = out();
        assertTrue(o.contains("STOPPED before the end: partial account"), o);
        assertTrue(o.contains("not sent"), o);
        // even a stopped run reconciles: what the server stored is what the client counted
        assertTrue(o.matches("(?s).*== ([0-9,]+) successful [^\n]*; server stored \\1: OK.*"), o);
        assertFalse(o.contains("MISMATCH"), o);
    }
}
