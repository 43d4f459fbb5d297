package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.prediction.CalibrationStore;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.server.embedded.EmbeddedServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class SweepTest {

    @Test
    void aSweepReturnsEveryRunsReportAndPrintsNothing() {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            RunConfig config = Fixtures.config("-t", "2", "-s", "20", "-m", "1", "--baseline", "0");
            Sweep sweep = new Sweep(config, List.of(2, 4), CalibrationStore.NONE, RunHooks.NONE);
            String[] printed = new String[1];
            Sweep.Result r = silently(() -> sweep.run(server.baseUrl(), false, null), printed);
            assertEquals("", printed[0]);
            assertNull(r.failure());
            assertEquals(0, r.exitCode());
            assertEquals(2, r.planned());
            assertEquals(
                    List.of(2, 4),
                    r.reports().stream().map(p -> p.plan().numThreads()).toList());
            assertTrue(r.reports().stream().allMatch(RunReport::ok));
            assertTrue(r.reports().stream().allMatch(p -> p.summary() != null), "judged: the JSON summary is built");
        }
    }

    @Test
    void anUnreachableServerIsAFailureNamingItWithNoRun() {
        Sweep sweep = new Sweep(Fixtures.config(), List.of(32), CalibrationStore.NONE, RunHooks.NONE);
        String[] printed = new String[1];
        Sweep.Result r = silently(() -> sweep.run("http://127.0.0.1:1/liftride", false, null), printed);
        assertEquals("", printed[0]);
        assertTrue(r.failure().startsWith("cannot reach server at http://127.0.0.1:1/liftride: "), r.failure());
        assertEquals(1, r.exitCode());
        assertEquals(List.of(), r.reports());
    }

    @Test
    void aSweepStoppedBeforeItsFirstRunRunsNothingAndSaysSo() {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            Sweep sweep = new Sweep(
                    Fixtures.config("--baseline", "0"), List.of(32, 64), CalibrationStore.NONE, RunHooks.NONE);
            sweep.stop("test");
            Sweep.Result r = sweep.run(server.baseUrl(), false, null);
            assertTrue(r.stopped());
            assertEquals(List.of(), r.reports());
            assertEquals(2, r.planned());
            assertEquals(1, r.exitCode());
            assertFalse(r.failure() != null, "a stop is not a failure");
        }
    }

    /** {@code action}'s result; what it wrote to System.out and System.err goes to {@code printed[0]}. */
    private static <T> T silently(Supplier<T> action, String[] printed) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(both, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        try {
            return action.get();
        } finally {
            System.setOut(out);
            System.setErr(err);
            printed[0] = both.toString(StandardCharsets.UTF_8);
        }
    }
}
