package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.Programs;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SeasonVertical;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.model.SkierVerticalQuery;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.testkit.RedisServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store on a Redis as ElastiCache gives it: TLS only with a certificate from a private CA (made
 * here with openssl, trusted through the JVM's standard {@code javax.net.ssl.trustStore} by the launcher
 * in its own JVM, through the default SSL context in this one), and an ACL
 * user allowed exactly the commands the store needs (not {@code CONFIG}, as on ElastiCache).
 */
@Timeout(60)
class RedisSecuredIT {
    static final String PASSWORD = "Tr0ub4dor&3-secret";
    /** What the store sends, including what its function calls; CONFIG GET is optional (see docs/server.md). */
    static final String STORE_COMMANDS = "+fcall +function|load +hsetnx +hset +hscan +hget +hkeys +hexists +hlen"
            + " +smembers +sadd +sismember +scard +get +time +hincrby +incrby +exists +expire +info +client|setname";

    private static Path dir;
    private static TestCertificates tls;
    private static RedisServer redis;
    private static int tlsPort;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("liftride-tls-");
        tls = TestCertificates.make(dir);
        tls.trustInThisJvm();
        tlsPort = FreePorts.next();
        redis = RedisServer.start(FreePorts.next(), tls.redisArgs(tlsPort));
        assertEquals("OK", redis.cli(storeUser("")));
    }

    /**
     * {@code ACL SETUSER} for the store's user {@code liftride} with {@link #PASSWORD}: its keys only, and exactly
     * the store's commands plus {@code extraCommands} (space-separated, e.g. a cluster client's).
     */
    static String[] storeUser(String extraCommands) {
        List<String> acl = new ArrayList<>(List.of(
                "ACL",
                "SETUSER",
                "liftride",
                "on",
                ">" + PASSWORD,
                "resetkeys",
                "~lr:*",
                "~{lr:*",
                "resetchannels",
                "nocommands"));
        acl.addAll(List.of(STORE_COMMANDS.split(" ")));
        if (!extraCommands.isBlank()) {
            acl.addAll(List.of(extraCommands.strip().split(" ")));
        }
        return acl.toArray(String[]::new);
    }

    @AfterAll
    static void stop() {
        if (redis != null) {
            redis.close();
        }
        if (dir != null) {
            Programs.exec(Duration.ofSeconds(10), "rm", "-rf", dir.toString());
        }
    }

    private static String url(String password) {
        return "rediss://liftride:" + password + "@127.0.0.1:" + tlsPort;
    }

    @Test
    void storesAndReadsOverTlsAsAnAclUserLimitedToTheStoresCommands() {
        try (RideStore store = StoreSpec.parse(url(PASSWORD), null).open()) {
            long before = store.ridesStored(); // the launcher tests may have stored one
            SkierDay where = new SkierDay(3, 2024, 7, 11);
            assertEquals(RideOutcome.STORED, store.addRide(where, new LiftRide(5, 100, 0), "tls-1"));
            assertEquals(RideOutcome.REPLAYED, store.addRide(where, new LiftRide(5, 100, 0), "tls-1"));
            assertEquals(OptionalLong.of(50), store.dayVertical(where));
            assertEquals(
                    List.of(new SeasonVertical(2024, 50)),
                    store.seasonVerticals(new SkierVerticalQuery(11, Set.of(3), Set.of())));
            assertTrue(store.addSeason(3, 2025));
            assertEquals(List.of(2024, 2025), store.seasons(3));
            assertEquals(1, store.uniqueSkiers(new ResortDay(3, 2024, 7)));
            assertEquals(before + 1, store.ridesStored());
            assertTrue(store.resorts().size() >= 10);
            assertEquals("rediss://liftride@127.0.0.1:" + tlsPort, store.description());
            assertTrue(store.durability().startsWith("unknown: Redis does not allow CONFIG GET"), store.durability());
        }
    }

    @Test
    void theEnvironmentsPasswordWorksLikeTheUrls() {
        try (RideStore store = StoreSpec.parse("rediss://liftride@127.0.0.1:" + tlsPort, PASSWORD)
                .open()) {
            assertTrue(store.resort(1).isPresent());
        }
    }

    @Test
    void aWrongPasswordStopsTheStartInOneLineWithoutThePassword() {
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> StoreSpec.parse(url("not-" + PASSWORD), null).open());
        String message = e.getMessage();
        assertFalse(message.contains("\n"), message);
        assertTrue(message.contains("refused the user or password"), message);
        assertFalse(message.contains(PASSWORD), message);
    }

    @Test
    void aServerStartedAsAUserWouldNeverPrintsThePassword() throws Exception {
        Process server = launch(PASSWORD);
        StringBuilder printed = new StringBuilder();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String base = null;
            String management = null;
            String line;
            while (management == null && (line = out.readLine()) != null) { // log lines may come before the URLs
                printed.append(line).append('\n');
                Matcher url = Pattern.compile(
                                "^LiftRide (server listening on|management port:) (http://127\\.0\\.0\\.1:\\d+/liftride).*")
                        .matcher(line);
                if (url.matches() && url.group(1).startsWith("server")) {
                    base = url.group(2);
                } else if (url.matches()) {
                    management = url.group(2);
                }
            }
            assertTrue(base != null && management != null, "the server did not start: " + printed);
            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> post = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/skiers/4/seasons/2024/days/1/skiers/9"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"liftID\":3,\"time\":10}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, post.statusCode(), post.body());
            HttpResponse<String> stats = client.send(
                    HttpRequest.newBuilder(URI.create(management + "/statistics"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, stats.statusCode(), stats.body());
            assertTrue(stats.body().contains("\"store\":\"rediss://liftride@127.0.0.1:" + tlsPort), stats.body());
            assertTrue(stats.body().contains("\"durability\":\"unknown"), stats.body());
            assertFalse(stats.body().contains(PASSWORD), stats.body());
            server.toHandle().destroy();
            assertTrue(server.waitFor(20, TimeUnit.SECONDS), "server did not stop");
            printed.append(new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            server.destroyForcibly();
        }
        assertTrue(printed.toString().contains("LiftRide store rediss://liftride@127.0.0.1"), printed.toString());
        assertFalse(printed.toString().contains(PASSWORD), printed.toString());
    }

    @Test
    void aServerWithAWrongPasswordStopsWithOneLineWithoutIt() throws Exception {
        Process server = launch("wrong-" + PASSWORD);
        try {
            assertTrue(server.waitFor(30, TimeUnit.SECONDS), "it must stop by itself");
            String printed = new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(1, server.exitValue(), printed);
            assertFalse(printed.contains(PASSWORD), printed);
            String clear = "LiftRide cannot start: Redis at rediss://liftride@127.0.0.1:" + tlsPort
                    + " refused the user or password (WRONGPASS";
            // Tomcat adds its own report of the failed listener around it; the reason is this one line
            assertEquals(1, printed.lines().filter(line -> line.contains(clear)).count(), printed);
        } finally {
            server.destroyForcibly();
        }
    }

    /**
     * The launcher in its own JVM, as a user starts it: the private CA through the standard
     * {@code javax.net.ssl.trustStore} properties, the password through {@code LIFTRIDE_REDIS_PASSWORD}.
     */
    private static Process launch(String password) throws IOException {
        Path jar = Path.of("target", "liftride-server.jar");
        assertTrue(Files.isRegularFile(jar), jar + " must be built by the package phase");
        ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx128m",
                        "-Djavax.net.ssl.trustStore=" + tls.trustStore(),
                        "-Djavax.net.ssl.trustStorePassword=" + TestCertificates.TRUST_STORE_PASSWORD,
                        "-jar",
                        jar.toString(),
                        "--port",
                        "0",
                        "--management-port",
                        "0",
                        "--host",
                        "127.0.0.1",
                        "--store",
                        "rediss://liftride@127.0.0.1:" + tlsPort)
                .redirectErrorStream(true);
        builder.environment().put(StoreSpec.PASSWORD_ENV, password);
        return builder.start();
    }
}
