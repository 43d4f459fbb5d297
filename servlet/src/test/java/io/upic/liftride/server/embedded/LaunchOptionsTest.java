package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.flags.UsageException;
import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.operations.StoreSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchOptionsTest {
    /** The options of a command line that gives at most --host and --port. */
    private static LaunchOptions options(String host, int port) {
        return new LaunchOptions(host, port, "127.0.0.1", 8081, null, Map.of(), false);
    }

    @Test
    void defaultsToEveryInterfaceOnPort8080() throws UsageException {
        assertEquals(options("0.0.0.0", 8080), LaunchOptions.parse());
    }

    @Test
    void readsPortAndHostInAnyOrder() throws UsageException {
        assertEquals(options("127.0.0.1", 0), LaunchOptions.parse("--port", "0", "--host", "127.0.0.1"));
        assertEquals(options("::1", 9090), LaunchOptions.parse("--host", "::1", "--port", "9090"));
        assertEquals(options("0.0.0.0", 1), LaunchOptions.parse("--port=1"));
    }

    @Test
    void listsEveryFlagInTheUsage() {
        String usage = LaunchOptions.USAGE;
        assertTrue(
                usage.startsWith(
                        "usage: java -jar liftride-server.jar [--port N] [--host H] [--store S] [--max-... N]\n"),
                usage);
        assertTrue(usage.contains("--port <N>") && usage.contains("0 picks a free port"), usage);
        assertTrue(usage.contains("--host <H>") && usage.contains("default 0.0.0.0"), usage);
        assertTrue(usage.contains("--management-port <N>") && usage.contains("default 8081"), usage);
        assertTrue(usage.contains("--management-host <H>") && usage.contains("default 127.0.0.1"), usage);
        assertTrue(usage.contains("--store <S>") && usage.contains("redis[s]://[USER[:PASSWORD]@]HOST:PORT"), usage);
        assertTrue(usage.contains("-h,--help"), usage);
        for (Limit limit : Limit.values()) {
            assertTrue(usage.contains("--" + limit.flag() + " <N>") && usage.contains(limit.env()), usage);
        }
    }

    @Test
    void theManagementPortDefaultsTo8081OnLoopbackAndTakesItsOwnFlags() throws UsageException {
        LaunchOptions defaults = LaunchOptions.parse();
        assertEquals("127.0.0.1", defaults.managementHost());
        assertEquals(8081, defaults.managementPort());
        LaunchOptions given =
                LaunchOptions.parse("--port", "0", "--management-port", "0", "--management-host", "10.0.1.11");
        assertEquals(new LaunchOptions("0.0.0.0", 0, "10.0.1.11", 0, null, Map.of(), false), given);
    }

    @Test
    void refusesTheApisPortAsTheManagementPort() {
        UsageException same = assertThrows(
                UsageException.class, () -> LaunchOptions.parse("--port", "9000", "--management-port", "9000"));
        assertEquals("--management-port must differ from --port, got 9000 for both", same.getMessage());
        assertEquals(
                "--management-host must be an address to bind (blank), got  ",
                assertThrows(UsageException.class, () -> LaunchOptions.parse("--management-host", " "))
                        .getMessage());
    }

    @Test
    void readsLimitFlags() throws UsageException {
        LaunchOptions options = LaunchOptions.parse("--max-resorts", "50", "--body-deadline-ms", "2000");
        assertEquals(Map.of(Limit.RESORTS, 50L, Limit.BODY_DEADLINE_MILLIS, 2000L), options.limits());
    }

    @Test
    void refusesALimitOutOfItsRangeNamingIt() {
        UsageException error = assertThrows(UsageException.class, () -> LaunchOptions.parse("--max-resorts", "5"));
        assertEquals(
                "--max-resorts / liftride.maxResorts / LIFTRIDE_MAX_RESORTS must be an integer in 10..2147483647,"
                        + " got \"5\"",
                error.getMessage());
        assertThrows(UsageException.class, () -> LaunchOptions.parse("--max-days", "many"));
    }

    @Test
    void asksForHelp() throws UsageException {
        assertTrue(LaunchOptions.parse("--port", "1", "-h").help());
        assertTrue(LaunchOptions.parse("--help").help());
    }

    @Test
    void rejectsBadArgumentsNamingThem() {
        assertEquals(
                "--port must be an integer in 0..65535, got x",
                assertThrows(UsageException.class, () -> LaunchOptions.parse("--port", "x"))
                        .getMessage());
        assertEquals(
                "--port must be an integer in 0..65535, got 65536",
                assertThrows(UsageException.class, () -> LaunchOptions.parse("--port", "65536"))
                        .getMessage());
        assertEquals(
                "--port needs a value (an integer in 0..65535)",
                assertThrows(UsageException.class, () -> LaunchOptions.parse("--port"))
                        .getMessage());
        assertEquals(
                "unknown flag -p",
                assertThrows(UsageException.class, () -> LaunchOptions.parse("-p", "80"))
                        .getMessage());
        assertEquals(
                "unknown flag --po",
                assertThrows(UsageException.class, () -> LaunchOptions.parse("--po", "80"))
                        .getMessage(),
                "no abbreviations: a later flag could make them ambiguous");
        assertEquals(
                "unexpected argument x",
                assertThrows(UsageException.class, () -> LaunchOptions.parse("--host", "h", "x"))
                        .getMessage());
        assertEquals(
                "--host must be an address to bind (blank), got  ",
                assertThrows(UsageException.class, () -> LaunchOptions.parse("--host", " "))
                        .getMessage());
    }

    @Test
    void readsTheStoreOrLeavesItToTheEnvironment() throws UsageException {
        assertEquals(null, LaunchOptions.parse("--port", "0").store());
        assertEquals(
                "redis://10.0.1.5:6379",
                LaunchOptions.parse("--store", "redis://10.0.1.5:6379").store().toString());
        assertEquals("memory", LaunchOptions.parse("--store", "memory").store().toString());
    }

    @Test
    void refusesABadStoreInOneLineNamingTheFlag() {
        UsageException e = assertThrows(UsageException.class, () -> LaunchOptions.parse("--store", "redis:/x:1"));
        assertEquals("--store must be " + StoreSpec.FORMS + "; got \"redis:/x:1\"", e.getMessage());
    }
}
