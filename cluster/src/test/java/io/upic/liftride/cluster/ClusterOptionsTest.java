package io.upic.liftride.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.testkit.HostPort;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ClusterOptionsTest {
    @Test
    void withoutFlagsStartsTwoServersOwnRedisAndTheFrontOn8080() {
        ClusterOptions options = ClusterOptions.parse();
        assertEquals(2, options.servers());
        assertNull(options.redis());
        assertEquals(8080, options.port());
        assertEquals(Path.of("servlet/target/liftride-server.jar"), options.serverJar());
        assertEquals(ClusterOptions.DEFAULTS, options);
    }

    @Test
    void readsEveryFlag() {
        ClusterOptions options = ClusterOptions.parse(
                "--servers", "4", "--redis", "10.0.0.5:6380", "--port", "0", "--server-jar", "/opt/s.jar");
        assertEquals(new ClusterOptions(4, new HostPort("10.0.0.5", 6380), 0, Path.of("/opt/s.jar"), false), options);
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
        assertMessage("--servers must be an integer in 1..32, got \"0\"", "--servers", "0");
        assertMessage("--servers must be an integer in 1..32, got \"33\"", "--servers", "33");
        assertMessage("--servers must be an integer in 1..32, got \"two\"", "--servers", "two");
        assertMessage("--port must be an integer in 0..65535, got \"65536\"", "--port", "65536");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \"localhost\"", "--redis", "localhost");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \":6379\"", "--redis", ":6379");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \"h:0\"", "--redis", "h:0");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \"h:65536\"", "--redis", "h:65536");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \"u@h:1\"", "--redis", "u@h:1");
        assertMessage("--redis must be HOST:PORT with a port in 1..65535, got \"h:1/x\"", "--redis", "h:1/x");
        assertMessage("--server-jar needs a value", "--server-jar");
        assertMessage("--servers needs a value", "--servers");
        assertMessage("unknown argument \"--serv\"", "--serv", "2");
        assertMessage("unknown argument \"extra\"", "extra");
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
        for (String flag :
                new String[] {"--servers", "--redis", "--port", "--server-jar", "--help", "liftride-cluster.jar"}) {
            assertTrue(ClusterOptions.USAGE.contains(flag), flag + " in\n" + ClusterOptions.USAGE);
        }
    }

    private static void assertMessage(String expected, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterOptions.parse(args));
        assertEquals(expected, e.getMessage());
    }
}
