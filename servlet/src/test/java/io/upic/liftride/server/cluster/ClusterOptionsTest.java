package io.upic.liftride.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;

class ClusterOptionsTest {
    @Test
    void withoutFlagsStartsTwoServersOwnRedisAndTheFrontOn8080() {
        ClusterOptions options = ClusterOptions.parse();
        assertEquals(2, options.servers());
        assertNull(options.redis());
        assertEquals(8080, options.port());
        assertEquals(ClusterOptions.DEFAULTS, options);
    }

    @Test
    void readsEveryFlag() {
        ClusterOptions options = ClusterOptions.parse("--servers", "4", "--redis", "10.0.0.5:6380", "--port", "0");
        assertEquals(new ClusterOptions(4, new HostAndPort("10.0.0.5", 6380), 0, false), options);
        assertEquals(
                new HostAndPort("::1", 6379),
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
        for (String flag : new String[] {"--servers", "--redis", "--port", "--help", "LocalCluster"}) {
            assertTrue(ClusterOptions.USAGE.contains(flag), flag + " in\n" + ClusterOptions.USAGE);
        }
    }

    private static void assertMessage(String expected, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterOptions.parse(args));
        assertEquals(expected, e.getMessage());
    }
}
