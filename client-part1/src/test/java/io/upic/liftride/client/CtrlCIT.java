package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.cluster.Poll;
import io.upic.liftride.server.embedded.EmbeddedServer;
import io.upic.liftride.testkit.Shell;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real Ctrl-C: the client runs as its own JVM ({@code java -cp <test class path>
 * io.upic.liftride.client.Main}) against an embedded server in this JVM and gets SIGINT mid-run. It
 * must print the partial account (done, failed, not sent) that reconciles with the server, and exit
 * 130. (ClientPart1IT stops a run through Console.stop(), and client-part2's IT calls its
 * Main.onShutdown() for the CSV; this is the signal, the JVM's shutdown hook and part1's Main.)
 */
// A hang is a failure, not a stuck build.
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CtrlCIT {

    /** The partial-account line BriefSummary prints for a stopped run. */
    private static final Pattern PARTIAL = Pattern.compile(
            "STOPPED before the end: partial account \\(done ([0-9,]+) = ([0-9,]+) successful \\+ ([0-9,]+) failed; not sent ([0-9,]+)\\)");

    private static long number(String s) {
        return Long.parseLong(s.replace(",", ""));
    }

    @Test
    void sigintMidRunPrintsThePartialAccountReconciledWithTheServerAndExits130() throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            long storedBefore = ServerProbe.statistics(server.baseUrl(), 2_000, 2_000)
                    .ridesStored()
                    .orElseThrow();
            // 900,000 requests: minutes of work, so the signal surely lands mid-run
            try (ChildJvm client = ChildJvm.start(
                    Main.class.getName(),
                    "-t",
                    "16",
                    "-s",
                    "100000",
                    "--baseline",
                    "0",
                    "-i",
                    server.baseUrl(),
                    "--verbose")) {
                client.awaitLine(l -> l.startsWith("Run -t 16, plan fall2021: 900,000 requests"), 60, TimeUnit.SECONDS);
                Poll.until("2,000 rides stored", Duration.ofSeconds(60), () -> {
                    assertTrue(
                            client.process().isAlive(),
                            "the client is sending\n" + client.stdout() + "\n" + client.stderr());
                    return ServerProbe.statistics(server.baseUrl(), 2_000, 2_000)
                                    .ridesStored()
                                    .orElseThrow()
                            >= storedBefore + 2_000;
                });

                // SIGINT ignored (inherited from a parent without job control) would leave the child running on
                assertFalse(
                        Shell.ignores(client.pid(), 2),
                        "the child ignores SIGINT: start it with Shell.withDefaultInterrupts");
                Shell.signal(client.pid(), "INT"); // ProcessHandle cannot send SIGINT; kill(1) can
                long signalledAt = System.nanoTime();

                // bound: the workers' attempts in flight (loopback: milliseconds, at worst the 10 s read timeout),
                // the reconciliation GET (at most its 5 s read timeout) and the summary
                int exit = client.waitFor(30, TimeUnit.SECONDS);
                long millis = (System.nanoTime() - signalledAt) / 1_000_000;
                String out = client.stdout();
                String err = client.stderr();
                assertEquals(130, exit, "128 + SIGINT\n" + out + "\n" + err);
                assertTrue(millis < 20_000, "exited " + millis + " ms after the signal");
                assertTrue(
                        err.contains(
                                "interrupted: stopping after the attempts in flight, then printing the partial account"),
                        err);

                Matcher m = PARTIAL.matcher(out);
                assertTrue(m.find(), out);
                long done = number(m.group(1));
                long successful = number(m.group(2));
                long failed = number(m.group(3));
                long notSent = number(m.group(4));
                assertEquals(done, successful + failed);
                assertEquals(900_000, done + notSent);
                assertTrue(successful >= 2_000 && notSent > 0, out);
                assertTrue(
                        out.contains(String.format(
                                java.util.Locale.US,
                                "900,000 planned == %,d successful + %,d failed + %,d not sent: OK",
                                successful,
                                failed,
                                notSent)),
                        out);
                assertTrue(
                        out.contains(String.format(java.util.Locale.US, "; server stored %,d: OK", successful)), out);
                // and the server agrees, from outside the client
                long storedNow = ServerProbe.statistics(server.baseUrl(), 2_000, 2_000)
                        .ridesStored()
                        .orElseThrow();
                assertEquals(successful, storedNow - storedBefore);
                System.out.printf(
                        "SIGINT: exit %d after %d ms; done %,d (%,d failed), not sent %,d%n",
                        exit, millis, done, failed, notSent);
            }
        }
    }
}
