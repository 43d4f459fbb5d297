package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.cluster.ClusterOptions;
import io.upic.liftride.cluster.LocalCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * client-part1 through real HTTP against the local cluster: nginx round robin in front of two servers
 * (separate JVMs of liftride-server.jar) sharing one redis-server with its AOF. Each test writes to its
 * own resort, so one cluster serves the class. The fault tests kill a process with SIGKILL mid-run and
 * require the exact account: the store's ride count grew by the client's successes, no more (a ride
 * whose answer was lost is retried with the same Idempotency-Key and must be replayed, not stored
 * twice) and no less (nothing acknowledged is lost).
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScaleOutIT {
    /** Retries outlast a 2 s outage: 250 + 500 + 1000 + 2000 + 2000 ms at least before a request's 6th attempt. */
    private static final String[] OUTLASTING_BACKOFF = {"--backoff-ms", "500", "--backoff-max-ms", "4000"};

    private static final long OUTAGE_MILLIS = 2_000;
    private static LocalCluster cluster;

    @BeforeAll
    static void startCluster() {
        String jar = System.getProperty("liftride.server.jar", "../servlet/target/liftride-server.jar");
        cluster = LocalCluster.start(
                ClusterOptions.DEFAULTS.withServers(2).withPort(0).withServerJar(Path.of(jar)));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aPlanThroughNginxToTwoServersReconcilesExactlyAndBothServersAnswerTheSameGets() throws Exception {
        int resort = 21;
        long before = ridesStored(0);
        AttemptStatuses statuses = new AttemptStatuses(0);
        // 9,000 POSTs through the generated SDK
        ClientRun run = ClientRun.of(
                statuses,
                "-t",
                "32",
                "-s",
                "2000",
                "-m",
                "5",
                "--baseline",
                "0",
                "--resort",
                "" + resort,
                "-i",
                cluster.frontUrl());

        RunResult r = run.result();
        assertEquals(0, run.exit(), run.output());
        assertEquals(9_000, r.requests().successful(), run.output());
        assertEquals(
                r.requests().successful(), run.reports().get(0).reconciliation().serverDelta(), run.output());
        assertEquals(before + r.requests().successful(), ridesStored(1), "the other server counts the same rides");
        for (int server = 0; server < 2; server++) {
            assertTrue(postsServed(server) > 0, "round robin reached server " + server);
        }

        List<String> paths = GetAnswers.paths(resort, 2000, 40);
        GetAnswers first = GetAnswers.of(cluster.serverUrls().get(0), paths);
        first.assertSameAs(GetAnswers.of(cluster.serverUrls().get(1), paths), "server 1 vs server 0");
        first.assertSameAs(GetAnswers.of(cluster.frontUrl(), paths), "the front vs server 0");
        assertTrue(first.ok() >= paths.size() * 9 / 10, "most sampled skiers rode: " + first.byPath());
        assertEquals(0, first.retried503(), "no fault, no 503");
        System.out.printf(
                "2 servers behind nginx: %,d successful, delta %,d, %,.0f req/s, statuses %s%n",
                r.requests().successful(),
                run.reports().get(0).reconciliation().serverDelta(),
                r.requests().successful() * 1000.0 / run.millis(),
                statuses);
    }

    @Test
    void redisKilledMidRunAndRestartedFromItsAofLosesNothingAndCountsNothingTwice() throws Exception {
        ClientRun run = runThroughFault(
                22,
                () -> {
                    cluster.killRedis();
                    Thread.sleep(OUTAGE_MILLIS); // time itself: the outage's length is the scenario
                    cluster.restartRedis();
                },
                "Redis");
        assertTrue(run.out().contains("transport raw"), run.output());
    }

    @Test
    void oneOfTwoServersKilledMidRunLosesNothingAndCountsNothingTwice() throws Exception {
        try {
            runThroughFault(23, () -> cluster.killServer(1), "server 1");
        } finally {
            cluster.restartServer(1);
            // time itself: nginx skips a server for 2 s after its last failure, and says nothing when it is back
            Thread.sleep(2_500);
        }
    }

    @Test
    void restartingAServerAndRedisChangesNoGetAnswer() throws Exception {
        int resort = 24;
        ClientRun run = ClientRun.of(
                "-t",
                "16",
                "-s",
                "2000",
                "-m",
                "5",
                "--baseline",
                "0",
                "--resort",
                "" + resort,
                "-i",
                cluster.frontUrl(),
                "--transport",
                "raw");
        assertEquals(0, run.exit(), run.output());
        List<String> paths = GetAnswers.paths(resort, 2000, 40);
        GetAnswers before = GetAnswers.of(cluster.serverUrls().get(1), paths);
        assertTrue(before.ok() >= paths.size() * 9 / 10, before.byPath().toString());

        cluster.killServer(0);
        cluster.killRedis();
        cluster.restartRedis();
        cluster.restartServer(0);

        GetAnswers restarted = GetAnswers.of(cluster.serverUrls().get(0), paths);
        GetAnswers stayedUp = GetAnswers.of(cluster.serverUrls().get(1), paths);
        before.assertSameAs(restarted, "the restarted server");
        before.assertSameAs(stayedUp, "the server that stayed up");
        before.assertSameAs(GetAnswers.of(cluster.frontUrl(), paths), "the front");
        System.out.printf(
                "after restarting server 0 and Redis: %d GETs answer as before; 503s retried (stale connections to"
                        + " the old Redis): restarted server %d, the server that stayed up %d%n",
                paths.size(), restarted.retried503(), stayedUp.retried503());
    }

    /** A fault to inject while the client runs. */
    @FunctionalInterface
    private interface Fault {
        void inject() throws Exception;
    }

    /**
     * Runs 22,500 POSTs (raw transport, a backoff that outlasts the outage) at resort {@code resort} through
     * nginx, injects {@code fault} about 3 s in (or when 40% of the attempts are made, if that comes
     * first), and checks the exact account.
     */
    private static ClientRun runThroughFault(int resort, Fault fault, String what) throws Exception {
        long before = ridesStored(0);
        long planned = 22_500; // -s 5000 -m 5: 4.5 rides per skier, give or take the phases' rounding
        AttemptStatuses statuses = new AttemptStatuses((int) (planned * 2 / 5));
        AtomicLong faultAt = new AtomicLong();
        AtomicLong faultDone = new AtomicLong();
        Thread injector = new Thread(
                () -> {
                    try {
                        if (statuses.await(3)) {
                            faultAt.set(System.nanoTime());
                            fault.inject();
                            faultDone.set(System.nanoTime());
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                "test-fault");
        injector.start();
        String[] args = {
            "-t",
            "32",
            "-s",
            "5000",
            "-m",
            "5",
            "--baseline",
            "0",
            "--resort",
            "" + resort,
            "--transport",
            "raw",
            "-i",
            cluster.frontUrl(),
            OUTLASTING_BACKOFF[0],
            OUTLASTING_BACKOFF[1],
            OUTLASTING_BACKOFF[2],
            OUTLASTING_BACKOFF[3]
        };
        ClientRun run = ClientRun.of(statuses, args);
        long endedAt = System.nanoTime();
        injector.join(60_000);

        RunResult r = run.result();
        assertTrue(faultAt.get() != 0 && faultAt.get() < endedAt, what + " was killed during the run\n" + run.output());
        assertEquals(0, statuses.count(500), "no 500 answered: " + statuses);
        assertEquals(
                r.requests().planned(),
                r.requests().successful(),
                "every ride got its 201 in the end\n" + run.output());
        assertTrue(
                r.requests().planned() >= planned,
                "the plan's size: " + r.requests().planned());
        long delta = ridesStored(0) - before;
        assertEquals(
                r.requests().successful(), delta, "the store grew by the client's successes exactly\n" + run.output());
        assertEquals(
                r.requests().successful(), run.reports().get(0).reconciliation().serverDelta(), run.output());
        assertEquals(0, run.exit(), run.output());
        System.out.printf(
                "%s SIGKILLed %.1f s into the run: %,d successful, store delta %,d, %,d retries, statuses %s, %d ms%n",
                what,
                (faultAt.get() - statuses.first()) / 1e9,
                r.requests().successful(),
                delta,
                r.requests().retries(),
                statuses,
                run.millis());
        return run;
    }

    private static long ridesStored(int server) throws Exception {
        return statistics(server).get("ridesStored").getAsLong();
    }

    private static long postsServed(int server) throws Exception {
        long count = 0;
        for (var endpoint : statistics(server).getAsJsonArray("endpointStats")) {
            JsonObject e = endpoint.getAsJsonObject();
            if (e.get("operation").getAsString().equals("POST")) {
                count += e.get("count").getAsLong();
            }
        }
        return count;
    }

    private static JsonObject statistics(int server) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(cluster.serverUrls().get(server) + "/statistics"))
                                .timeout(Duration.ofSeconds(20))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }
}
