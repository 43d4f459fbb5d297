package io.upic.liftride.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.flags.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClusterOptionsTest {
    @Test
    void withoutFlagsStartsTwoServersOwnRedisAndTheFrontOn8080() throws UsageException {
        ClusterOptions options = ClusterOptions.parse();
        assertEquals(2, options.servers());
        assertNull(options.redis());
        assertEquals(8080, options.port());
        assertEquals(Path.of("servlet/target/liftride-server.jar"), options.serverJar());
        assertEquals(ClusterOptions.DEFAULTS, options);
    }

    @Test
    void readsEveryFlag() throws UsageException {
        ClusterOptions options = ClusterOptions.parse(
                "--servers", "4", "--redis", "10.0.0.5:6380", "--port", "0", "--server-jar", "/opt/s.jar");
        assertEquals(
                new ClusterOptions(4, new HostPort("10.0.0.5", 6380), 0, Path.of("/opt/s.jar"), null, null, false),
                options);
        assertEquals("10.0.0.5:6380", options.redis().toString());
        assertEquals(
                "[::1]:6379",
                ClusterOptions.parse("--redis", "[::1]:6379").redis().toString());
        assertEquals(
                new HostPort("::1", 6379),
                ClusterOptions.parse("--redis", "[::1]:6379").redis());
        assertTrue(ClusterOptions.parse("--help").help());
        assertTrue(ClusterOptions.parse("-h").help());
    }

    @Test
    void refusesBadValuesInOneLineNamingFlagAndValue() {
        assertMessage("--servers must be an integer in 1..32, got 0", "--servers", "0");
        assertMessage("--servers must be an integer in 1..32, got 33", "--servers", "33");
        assertMessage("--servers must be an integer in 1..32, got two", "--servers", "two");
        assertMessage("--port must be an integer in 0..65535, got 65536", "--port", "65536");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \"localhost\"", "--redis", "localhost");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \":6379\"", "--redis", ":6379");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \"h:0\"", "--redis", "h:0");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \"h:65536\"", "--redis", "h:65536");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \"u@h:1\"", "--redis", "u@h:1");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \"h:1/x\"", "--redis", "h:1/x");
        assertMessage("--server-jar needs a value (a file path)", "--server-jar");
        assertMessage("--servers needs a value (an integer in 1..32)", "--servers");
        assertMessage("unknown flag --serv", "--serv", "2");
        assertMessage("unexpected argument extra", "extra");
    }

    @Test
    void capsEachServerWithATenMillisecondPeriodUnlessToldOtherwise() throws UsageException {
        assertNull(ClusterOptions.parse().serverCpus());
        assertEquals(
                new CpuQuota(0.25, Duration.ofMillis(10)),
                ClusterOptions.parse("--server-cpus", "0.25").serverCpus());
        CpuQuota quota = ClusterOptions.parse("--server-cpus", "0.5", "--server-cpu-period-ms", "20")
                .serverCpus();
        assertEquals(10_000, quota.quotaMicros());
        assertEquals(20_000, quota.periodMicros());
    }

    @Test
    void putsAWanOfTheGivenRoundTripAndJitterInFront() throws UsageException {
        assertNull(ClusterOptions.parse().wan());
        assertEquals(
                WanLink.ofMillis(40), ClusterOptions.parse("--wan-rtt", "40ms").wan());
        assertEquals(
                new WanLink(Duration.ofMillis(100), Duration.ofMillis(5)),
                ClusterOptions.parse("--wan-rtt", "0.1s", "--wan-jitter", "5ms").wan());
        assertEquals(
                "40 ms RTT (20 + 20 ms) +/- 4 ms", new WanLink(Duration.ofMillis(40), Duration.ofMillis(4)).toString());
    }

    @Test
    void refusesBadCapsAndNetworksInOneLine() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertMessage("--server-cpus must be > 0 and <= " + cores + " (the cores), got 0.0", "--server-cpus", "0");
        assertMessage("--server-cpus must be > 0 and <= " + cores + " (the cores), got -1.0", "--server-cpus", "-1");
        assertMessage(
                "--server-cpus must be > 0 and <= " + cores + " (the cores), got " + (cores + 1.0),
                "--server-cpus",
                Integer.toString(cores + 1));
        assertMessage("--server-cpus must be a number of CPUs like 0.25, got quarter", "--server-cpus", "quarter");
        assertMessage(
                "--server-cpu-period-ms must be an integer in 1..1000, got 0",
                "--server-cpus",
                "1",
                "--server-cpu-period-ms",
                "0");
        assertMessage("--server-cpu-period-ms needs --server-cpus", "--server-cpu-period-ms", "10");
        assertMessage("--wan-rtt must be a duration like 40ms or 0.5s, got \"40\"", "--wan-rtt", "40");
        assertMessage("--wan-rtt must be a duration like 40ms or 0.5s, got \"-5ms\"", "--wan-rtt", "-5ms");
        assertMessage("--wan-rtt must be in 1ms..60s, got PT0S", "--wan-rtt", "0ms");
        assertMessage(
                "--wan-jitter must be a duration like 40ms or 0.5s, got \"lots\"",
                "--wan-rtt",
                "40ms",
                "--wan-jitter",
                "lots");
        assertMessage(
                "--wan-jitter must be in 0ms..the round trip (40ms), got PT0.05S",
                "--wan-rtt",
                "40ms",
                "--wan-jitter",
                "50ms");
        assertMessage("--wan-jitter needs --wan-rtt", "--wan-jitter", "5ms");
    }

    @Test
    void programmaticOptionsAreCheckedToo() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ClusterOptions.DEFAULTS.withServers(0));
        assertEquals("servers must be in 1..32, got 0", e.getMessage());
        assertEquals(3, ClusterOptions.DEFAULTS.withServers(3).servers());
    }

    @Test
    void usageNamesEveryFlag() {
        for (String flag : new String[] {
            "--servers",
            "--redis",
            "--port",
            "--server-jar",
            "--server-cpus",
            "--server-cpu-period-ms",
            "--wan-rtt",
            "--wan-jitter",
            "--help",
            "liftride-cluster.jar"
        }) {
            assertTrue(ClusterOptions.USAGE.contains(flag), flag + " in\n" + ClusterOptions.USAGE);
        }
    }

    private static void assertMessage(String expected, String... args) {
        UsageException e = assertThrows(UsageException.class, () -> ClusterOptions.parse(args));
        assertEquals(expected, e.getMessage());
    }
}
