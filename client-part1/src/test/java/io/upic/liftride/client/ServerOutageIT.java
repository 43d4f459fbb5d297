package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.RetryPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server stops listening for 2 s in the middle of a run (connections refused, open ones closed)
 * and comes back on the same port. The run must come through it by itself.
 *
 * <p>What the defaults survive: a request that runs into an outage waits 155..310 ms in all between
 * its 6 attempts ({@link RetryPolicy#minTotalBackoffNanos()}), so an outage shorter than 155 ms costs
 * nothing, and a 2 s one fails the requests that run into it (each thread loses one every 0.16-0.31 s
 * while it lasts) and the run carries on; it gives up only after 15 s of silence. The backoff flags
 * let a run ride out a known outage length without failing anything.
 */
// A hang is a failure, not a stuck build.
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerOutageIT {

    private static final long OUTAGE_MILLIS = 2_000;
    /** fall2021 at -t 8 -s 400 -m 5: 1,800 requests, the outage starts at the 600th POST. */
    private static final long PLANNED = 1_800;

    private static final int OUTAGE_AT_POST = 600;

    private ScriptedSocketServer server;
    private Thread outage;

    @AfterEach
    void close() throws Exception {
        if (outage != null) {
            outage.join(10_000);
        }
        if (server != null) {
            server.close();
        }
    }

    /** A server that answers 201 to everything and goes away for 2 s once, at the 600th POST. */
    private ScriptedSocketServer serverWithOneOutage(
            AtomicLong storedBeforeOutage, AtomicLong outageEndedAt, CountDownLatch back) throws Exception {
        AtomicReference<ScriptedSocketServer> self = new AtomicReference<>();
        server = ScriptedSocketServer.start((n, path, body) -> {
            if (n == OUTAGE_AT_POST) {
                ScriptedSocketServer s = self.get();
                outage = new Thread(
                        () -> {
                            s.stopListening();
                            storedBeforeOutage.set(s.stored.get());
                            try {
                                Thread.sleep(OUTAGE_MILLIS); // time itself: the outage's length is the scenario
                                s.resumeListening();
                                outageEndedAt.set(System.nanoTime());
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            } finally {
                                back.countDown();
                            }
                        },
                        "test-outage");
                outage.start();
                return ScriptedSocketServer.Action.CLOSE; // this POST is caught by the outage too
            }
            return ScriptedSocketServer.Action.CREATED;
        });
        self.set(server);
        return server;
    }

    private static String[] args(String baseUrl, String... more) {
        String[] base = {"-t", "8", "-s", "400", "-m", "5", "--baseline", "0", "--seed", "7", "-i", baseUrl};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void withTheDefaultBackoffATwoSecondOutageFailsTheRequestsThatRunIntoItAndTheRunRecoversAfterIt() throws Exception {
        AtomicLong storedBefore = new AtomicLong();
        AtomicLong backAt = new AtomicLong();
        CountDownLatch back = new CountDownLatch(1);
        serverWithOneOutage(storedBefore, backAt, back);
        // bound: the run without faults (well under 10 s here) + the 2 s outage + one request's backoff
        ClientRun run = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> ClientRun.of(args(server.baseUrl())));
        assertTrue(back.await(5, TimeUnit.SECONDS));

        RunResult r = run.result();
        run.assertAccountedFor(
                Map.of(AttemptCodes.CONNECTION_ERROR, r.requests().failed()));
        assertTrue(
                r.requests().failed() > 0,
                "a 2 s outage is longer than the 155-310 ms a request waits: some fail\n" + run.output());
        assertEquals(0, r.requests().notSent(), "2 s of silence is far from the 15 s give-up: every request was tried");
        assertEquals(PLANNED, r.requests().successful() + r.requests().failed());
        assertEquals(
                server.stored.get(), r.requests().successful(), "every 201 the server wrote is a success, no other");
        assertTrue(server.stored.get() > storedBefore.get(), "the run went on after the server came back");
        assertTrue(r.requests().successful() > OUTAGE_AT_POST, run.output());
        assertEquals(1, run.exit());
        assertEquals(
                r.requests().successful(), run.reports().get(0).reconciliation().serverDelta());
        System.out.printf(
                "default backoff, 2 s outage: %d failed (connection error), %d successful, %d retries, %d ms%n",
                r.requests().failed(), r.requests().successful(), r.requests().retries(), run.millis());
    }

    @Test
    void aBackoffSpanningTheOutageRidesItOutWithoutLosingARequest() throws Exception {
        AtomicLong storedBefore = new AtomicLong();
        AtomicLong backAt = new AtomicLong();
        CountDownLatch back = new CountDownLatch(1);
        serverWithOneOutage(storedBefore, backAt, back);
        // 250 ms doubling, capped at 2 s: a request waits at least 125 + 250 + 500 + 1000 + 1000 = 2,875 ms
        // before its 6th attempt, so one that first fails as the outage starts is still trying when it ends
        RetryPolicy spanning = RetryPolicy.DEFAULT.withBackoff(250, 2_000);
        assertTrue(spanning.minTotalBackoffNanos() > TimeUnit.MILLISECONDS.toNanos(OUTAGE_MILLIS + 500));
        ClientRun run = assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> ClientRun.of(args(server.baseUrl(), "--backoff-ms", "250", "--backoff-max-ms", "2000")));
        assertTrue(back.await(5, TimeUnit.SECONDS));

        RunResult r = run.result();
        run.assertAccountedFor(Map.of());
        assertEquals(PLANNED, r.requests().successful(), run.output());
        assertTrue(r.requests().retries() > 0, "the requests caught by the outage were retried");
        assertEquals(server.stored.get(), r.requests().successful());
        assertEquals(0, run.exit(), run.output());
        assertTrue(run.reports().get(0).reconciliation().ok());
        System.out.printf(
                "backoff 250..2000 ms, 2 s outage: 0 failed, %d retries, %d ms%n",
                r.requests().retries(), run.millis());
    }
}
