package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.embedded.EmbeddedServer;
import io.upic.liftride.server.limits.Limit;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 17's slow-body attack on the shipped server settings: 300 connections each sending a ride
 * body one byte every 8 s (and reconnecting when closed) while a normal client-part1 run ({@code -t
 * 32 -s 4000}) goes on. The run must finish with 0 failures within 2x the wall time of the same run
 * without the attackers, measured just before in the same JVM against the same server, and the server
 * must close every slow connection within its body deadline (Tomcat checks async deadlines once a
 * second, hence the 2 s of slack). A smaller run warms the JVM first, so the quiet run is not the
 * cold one.
 *
 * <p>The wall times compared are the runs' own ({@link io.upic.liftride.client.engine.RunResult#wallNanos}),
 * not the whole invocations': an invocation also holds the pre-flight and the baseline, which the attack
 * slows without touching what the runs measure.
 */
// A hang is a failure, not a stuck build.
@Tag("alone") // measures against the machine's capacity: no other test class beside it
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SlowBodyAttackIT {
    private static final int ATTACKERS = 300;
    private static final long BYTE_EVERY_MILLIS = 8_000;
    private static final long DEADLINE_MILLIS = Limit.BODY_DEADLINE_MILLIS.defaultValue();

    private static String[] run(String baseUrl) {
        return new String[] {"-t", "32", "-s", "4000", "-i", baseUrl, "--seed", "17"};
    }

    @Test
    void threeHundredTricklingClientsNeitherFailNorSlowDownANormalRunAndAreAllClosedWithinTheDeadline()
            throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            // warm-up (JIT, connection pools), so that the quiet run is not the cold one
            ClientRun warmUp =
                    ClientRun.of("-t", "32", "-s", "1000", "-i", server.baseUrl(), "--seed", "1", "--baseline", "0");
            assertEquals(0, warmUp.exit(), warmUp.output());
            ClientRun quiet = ClientRun.of(run(server.baseUrl()));
            assertEquals(0, quiet.exit(), quiet.output());
            ClientRun attacked;
            int leftOpen;
            SlowBodyAttack attack = SlowBodyAttack.start(server.port(), ATTACKERS, BYTE_EVERY_MILLIS);
            try {
                attacked = ClientRun.of(run(server.baseUrl()));
                int openAtEnd = attack.openNow();
                assertTrue(openAtEnd >= ATTACKERS - 5, "the attack kept its connections open: " + openAtEnd);
            } finally {
                leftOpen = attack.stop(DEADLINE_MILLIS + 3_000);
            }
            assertEquals(0, attacked.exit(), attacked.output());
            assertEquals(0, attacked.result().requests().failed(), attacked.output());
            long quietMillis = quiet.result().wallNanos() / 1_000_000;
            long attackedMillis = attacked.result().wallNanos() / 1_000_000;
            String times = String.format(
                    Locale.ROOT,
                    "run wall quiet %d ms, attacked %d ms (%.2fx); whole invocations %d and %d ms;"
                            + " attack opened %d connections; load %s",
                    quietMillis,
                    attackedMillis,
                    (double) attackedMillis / quietMillis,
                    quiet.millis(),
                    attacked.millis(),
                    attack.opened(),
                    java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
                            .strip());
            System.out.println("SlowBodyAttackIT: " + times);
            assertTrue(attackedMillis <= 2 * quietMillis, times);
            assertNull(attack.failure(), "the attack itself failed");
            assertEquals(0, leftOpen, "connections the server left open past its deadline; " + times);
            List<Long> lifetimes = attack.closedAfterMillis();
            assertTrue(lifetimes.size() >= ATTACKERS, lifetimes.size() + " closed; " + times);
            long longest = lifetimes.stream().mapToLong(Long::longValue).max().orElseThrow();
            assertTrue(longest <= DEADLINE_MILLIS + 2_000, "a slow connection lived " + longest + " ms; " + times);
            for (String status : attack.statusLines()) {
                assertTrue(status.startsWith("HTTP/1.1 408"), "what the server answered a slow body: " + status);
            }
        }
    }
}
