package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The one-command server: {@code java -jar target/liftride-server.jar}, as a user runs it, and the WAR's contents. */
@Timeout(60)
class ExecutableJarIT {
    private static final Path JAR = Path.of("target", "liftride-server.jar");
    private static final Path WAR = Path.of("target", "liftride.war");

    @Test
    void startsOnFreePortsPrintsItsUrlsServesOperationsOnTheManagementPortAndStopsCleanlyOnSigterm() throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " must be built by the package phase");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(
                        java,
                        "-Xmx64m",
                        "-jar",
                        JAR.toString(),
                        "--port",
                        "0",
                        "--host",
                        "127.0.0.1",
                        "--management-port",
                        "0")
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            Matcher url = Pattern.compile("^LiftRide server listening on (http://127\\.0\\.0\\.1:(\\d+)/liftride)$")
                    .matcher(String.valueOf(line));
            assertTrue(url.matches(), "first line: " + line);
            line = out.readLine();
            Matcher management = Pattern.compile(
                            "^LiftRide management port: (http://127\\.0\\.0\\.1:(\\d+)/liftride) \\(/metrics, .*\\)$")
                    .matcher(String.valueOf(line));
            assertTrue(management.matches(), "second line: " + line);
            assertNotEquals(url.group(2), management.group(2));

            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            assertEquals(200, status(client, management.group(1) + "/metrics"));
            assertEquals(404, status(client, url.group(1) + "/metrics"));
            HttpRequest post = HttpRequest.newBuilder(
                            URI.create(url.group(1) + "/skiers/1/seasons/2022/days/1/skiers/1"))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"liftID\":1,\"time\":1}"))
                    .build();
            assertEquals(
                    201,
                    client.send(post, HttpResponse.BodyHandlers.discarding()).statusCode());

            // SIGTERM, like Ctrl-C: the shutdown hook stops Tomcat. (Through the handle: Process.destroy()
            // would also close our end of the output before we could check it.)
            process.toHandle().destroy();
            assertTrue(process.waitFor(20, TimeUnit.SECONDS), "server did not stop");
            String rest = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            // the drain prints its steps, in order, and nothing else (no stack trace, no Tomcat chatter)
            List<String> steps =
                    rest.lines().map(printed -> printed.replaceAll("\\d+", "N")).toList();
            assertEquals(
                    List.of(
                            "LiftRide server stopping: draining (at most N ms)",
                            "LiftRide drain: not ready: /health/ready answers N; grace period N ms (maximum N ms)",
                            "LiftRide drain: grace period over: port N stopped accepting connections",
                            "LiftRide drain: every answer now closes its connection",
                            "LiftRide drain: requests in flight finished; none for N ms",
                            "LiftRide drain: N rides still queued for the store; Tomcat stops now (N ms after the drain"
                                    + " began)",
                            "LiftRide drain: store closed in N ms (N rides were queued: applied, or answered N)",
                            "LiftRide server stopped in N ms"),
                    steps,
                    rest);
        } finally {
            process.destroyForcibly();
        }
    }

    private static int status(HttpClient client, String url) throws Exception {
        HttpRequest get = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .build();
        return client.send(get, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Runs the jar with {@code args} to its end, checks its exit code and returns everything it printed. */
    private static String runToEnd(int expectedExit, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            assertTrue(process.waitFor(20, TimeUnit.SECONDS));
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(expectedExit, process.exitValue(), output);
            return output;
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void namesABadFlagInOneLineAndExits2() throws Exception {
        assertEquals(
                "--port must be an integer in 0..65535, got x (--help lists the options)\n",
                runToEnd(2, "--port", "x"));
        assertEquals("unknown flag --bare (--help lists the options)\n", runToEnd(2, "--bare"));
        assertEquals(
                "--max-resorts / liftride.maxResorts / LIFTRIDE_MAX_RESORTS must be an integer in 10..2147483647,"
                        + " got \"3\" (--help lists the options)\n",
                runToEnd(2, "--max-resorts", "3"));
        assertEquals(
                "--management-port must differ from --port, got 8080 for both (--help lists the options)\n",
                runToEnd(2, "--management-port", "8080"));
    }

    @Test
    void printsTheHelpWithCommonsCliInsideTheJar() throws Exception {
        String output = runToEnd(0, "--help");
        assertTrue(
                output.startsWith(
                        "usage: java -jar liftride-server.jar [--port N] [--host H] [--store S] [--max-... N]\n"),
                output);
        assertTrue(output.contains("--host <H>") && output.contains("--port <N>"), output);
        assertTrue(output.contains("--management-host <H>") && output.contains("--management-port <N>"), output);
    }

    @Test
    void warHoldsNeitherTomcatNorTheLaunchersNorTheValveNorCommonsCli() throws Exception {
        try (ZipFile war = new ZipFile(WAR.toFile())) {
            war.stream().forEach(entry -> {
                String name = entry.getName();
                assertTrue(
                        !name.startsWith("WEB-INF/lib/tomcat") && !name.startsWith("WEB-INF/lib/javax.servlet"), name);
                assertTrue(!name.contains("/embedded/"), name);
                // the local cluster (its own module) and the Host-level valve (liftride-tomcat-valve.jar, for
                // Tomcat's lib/) are no part of the application
                assertTrue(!name.contains("/cluster/") && !name.contains("/testkit/"), name);
                assertTrue(!name.contains("/tomcat/"), name);
                assertTrue(
                        !name.startsWith("WEB-INF/lib/commons-cli") && !name.startsWith("WEB-INF/lib/liftride-flags"),
                        "only the launcher reads flags: " + name);
            });
            assertTrue(war.getEntry("WEB-INF/web.xml") != null);
            assertNotNull(
                    war.getEntry("WEB-INF/classes/io/upic/liftride/server/web/SkierServlet.class"),
                    "the check above must be looking at the WAR's real class layout");
            assertTrue(
                    war.stream().anyMatch(e -> e.getName().matches("WEB-INF/lib/gson-[0-9.]+\\.jar")),
                    "the WAR carries its own Gson");
        }
    }

    @Test
    void serverJarHoldsTheLauncherButNothingOfTheLocalCluster() throws Exception {
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            assertNotNull(jar.getEntry("io/upic/liftride/server/embedded/EmbeddedServer.class"));
            jar.stream()
                    .map(e -> e.getName())
                    .forEach(name -> assertTrue(
                            !name.contains("/cluster/") && !name.contains("/testkit/") && !name.endsWith("redis.conf"),
                            "the local cluster is its own module (liftride-cluster.jar): " + name));
        }
    }
}
