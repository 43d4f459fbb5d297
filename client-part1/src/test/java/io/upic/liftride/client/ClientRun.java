package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.cli.ParsedArgs;
import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.prediction.CalibrationStore;
import io.upic.liftride.client.report.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One whole client invocation as {@code Main.run} does it (flags parsed by {@link RunOptions}, then
 * {@link Console} and its {@link Sweep}: pre-flight GET /statistics, the run, the reconciliation GET), with the run's
 * report captured for assertions. Never starts a server: the flags must carry {@code -i}.
 */
record ClientRun(int exit, List<RunReport> reports, String out, String err, long millis) {

    static ClientRun of(String... args) throws Exception {
        return of(AttemptListener.NONE, args);
    }

    /** The same, with {@code listener} watching every attempt of every run. */
    static ClientRun of(AttemptListener listener, String... args) throws Exception {
        ParsedArgs parsed = RunOptions.parse(args);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<RunReport> reports = new ArrayList<>();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        Console console =
                new Console(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        errStream,
                        false,
                        parsed.config().output().verbose()) {
                    @Override
                    public AttemptListener listener(RunConfig config, LoadPlan plan) {
                        return listener;
                    }

                    @Override
                    public void afterRun(RunReport report) {
                        super.afterRun(report);
                        reports.add(report);
                    }
                };
        LocalServer.Starter none = () -> {
            throw new AssertionError("the test passes -i: no embedded server");
        };
        long start = System.nanoTime();
        int exit = console.run(
                parsed.config(), parsed.threadCounts(), none, CalibrationStore.NONE, new CtrlC(errStream, "test"));
        long millis = (System.nanoTime() - start) / 1_000_000;
        return new ClientRun(
                exit,
                List.copyOf(reports),
                out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8),
                millis);
    }

    /** The single run's account. */
    RunResult result() {
        assertEquals(1, reports.size(), output());
        return reports.get(0).result();
    }

    String output() {
        return out + "\n--- stderr ---\n" + err;
    }

    /**
     * What every faulty run must show: each planned request is successful, failed or not sent; the
     * failures are exactly {@code causes}; the exit code is non-zero when any request failed (or was
     * not sent), zero otherwise; and the printed account says the same.
     */
    void assertAccountedFor(Map<Integer, Long> causes) {
        RunResult r = result();
        assertEquals(
                r.requests().planned(),
                r.requests().successful() + r.requests().failed() + r.requests().notSent(),
                output());
        assertEquals(causes, r.failuresByCause(), output());
        assertEquals(
                r.requests().failed(),
                causes.values().stream().mapToLong(Long::longValue).sum(),
                output());
        if (r.requests().failed() > 0 || r.requests().notSent() > 0) {
            assertNotEquals(0, exit, "a run with failures must not exit 0\n" + output());
        } else {
            assertEquals(0, exit, output());
        }
        assertTrue(
                out.contains(String.format(
                        java.util.Locale.US,
                        "%,d successful, %,d failed",
                        r.requests().successful(),
                        r.requests().failed())),
                output());
        assertTrue(
                out.contains(String.format(
                        java.util.Locale.US,
                        "checked    %,d planned == ",
                        r.requests().planned())),
                output());
    }
}
