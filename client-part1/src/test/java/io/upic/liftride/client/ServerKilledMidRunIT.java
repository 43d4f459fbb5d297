package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.cluster.Poll;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lift-ride server, in its own JVM, is killed (SIGKILL) in the middle of a full-size run: the
 * client must finish by itself within the time its settings allow, account for every request,
 * exit non-zero, and leave no thread of its own behind.
 */
// A hang is a failure, not a stuck build.
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerKilledMidRunIT {
    /** Shorter than the 15 s default, so the test waits less; the rule it proves is the same. */
    private static final long GIVE_UP_MILLIS = 3_000;

    private static final String LISTENING = "LiftRide server listening on ";

    /**
     * Threads a finished run may leave: OkHttp's and okio's process-wide daemons, shared by every
     * client in the JVM and not the run's to stop. "OkHttp TaskRunner" threads clean connection
     * pools and "Okio Watchdog" enforces read and write timeouts; both hold nothing once the run's
     * pool is emptied and end by themselves after 60 s idle.
     */
    private static final Set<String> PROCESS_WIDE = Set.of("Okio Watchdog", "OkHttp TaskRunner");

    @Test
    void killingTheServerMidRunEndsTheClientWithinItsBoundWithEveryRequestAccountedAndNoThreadLeft() throws Exception {
        try (ChildJvm server = ChildJvm.start(
                "io.upic.liftride.server.embedded.EmbeddedServer",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--management-port",
                "0")) {
            String url = server.awaitLine(l -> l.startsWith(LISTENING), 60, TimeUnit.SECONDS)
                    .substring(LISTENING.length())
                    .trim();
            Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());

            LongAdder attempts = new LongAdder();
            CountDownLatch busy = new CountDownLatch(1);
            AttemptListener counting =
                    work -> (AttemptRecorder) (epochMillis, startNanos, latencyNanos, code, attemptNumber) -> {
                        attempts.increment();
                        if (attempts.sum() >= 5_000) {
                            busy.countDown();
                        }
                    };
            AtomicLong killedAt = new AtomicLong();
            Thread killer = new Thread(
                    () -> {
                        try {
                            if (!busy.await(60, TimeUnit.SECONDS)) {
                                return;
                            }
                        } catch (InterruptedException e) {
                            return;
                        }
                        server.process().destroyForcibly(); // SIGKILL: no shutdown hook, the kernel drops every socket
                        killedAt.set(System.nanoTime());
                    },
                    "test-server-killer");
            killer.start();

            // 180,000 requests at 32 peak threads: without the server, every remaining request would spend
            // its 6 attempts and up to 310 ms of backoff, about 20 minutes in all
            ClientRun run = ClientRun.of(
                    counting,
                    "-t",
                    "32",
                    "-s",
                    "20000",
                    "--baseline",
                    "0",
                    "--give-up-after-ms",
                    Long.toString(GIVE_UP_MILLIS),
                    "-i",
                    url);
            long endedAt = System.nanoTime();
            killer.join(10_000);
            assertTrue(killedAt.get() != 0, "the server was killed during the run\n" + run.output());

            long afterKillMillis = (endedAt - killedAt.get()) / 1_000_000;
            // Bound from the settings: the client gives up when no attempt got an answer for
            // --give-up-after-ms; then each worker ends after the attempt it is in (refused or reset at once on
            // loopback, at worst the 5 s connect timeout), and the reconciliation GET is refused (at worst
            // another connect timeout); 2 s for the summary and a busy machine.
            long bound = GIVE_UP_MILLIS + 5_000 + 5_000 + 2_000;
            assertTrue(
                    afterKillMillis <= bound,
                    "the client ended " + afterKillMillis + " ms after the kill, bound " + bound + " ms\n"
                            + run.output());

            RunResult r = run.result();
            assertTrue(
                    r.requests().successful() >= 4_000
                            && r.requests().successful() < r.requests().planned(),
                    run.output());
            Map<Integer, Long> causes = r.failuresByCause();
            assertTrue(
                    causes.keySet().stream()
                            .allMatch(c -> c == AttemptCodes.CONNECTION_ERROR || c == AttemptCodes.TIMEOUT),
                    "a dead server gives connection errors (timeouts at most): " + causes);
            run.assertAccountedFor(causes);
            assertTrue(r.requests().failed() > 0, "requests in flight at the kill and after it failed");
            assertEquals(1, run.exit());
            assertTrue(run.out().contains("failures by cause: connection error: "), run.output());

            assertNoThreadLeftBehind(before);
            System.out.printf(
                    "server killed: client ended %d ms after the kill (bound %d ms); %,d successful, %,d failed %s, "
                            + "%,d not sent%n",
                    afterKillMillis,
                    bound,
                    r.requests().successful(),
                    r.requests().failed(),
                    causes,
                    r.requests().notSent());
        }
    }

    /** Every thread started since {@code before} has ended, allowing a few seconds for idle pools to wind down. */
    static void assertNoThreadLeftBehind(Set<Thread> before) {
        try {
            Poll.until(
                    "every thread of the run to end",
                    Duration.ofSeconds(5),
                    () -> threadsLeft(before).isEmpty());
        } catch (IllegalStateException e) {
            fail("threads still alive 5 s after the run:\n"
                    + threadsLeft(before).stream()
                            .map(t -> t.getName() + " (" + t.getState() + (t.isDaemon() ? ", daemon" : "") + ")\n    "
                                    + Arrays.stream(t.getStackTrace())
                                            .limit(8)
                                            .map(String::valueOf)
                                            .collect(Collectors.joining("\n    ")))
                            .collect(Collectors.joining("\n")));
        }
    }

    private static List<Thread> threadsLeft(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t) && t != Thread.currentThread())
                .filter(t -> !PROCESS_WIDE.contains(t.getName()))
                .toList();
    }
}
