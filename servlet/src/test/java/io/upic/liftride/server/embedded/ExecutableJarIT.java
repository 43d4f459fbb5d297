package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
    void startsOnAFreePortPrintsItsUrlAndStopsCleanlyOnSigterm() throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " must be built by the package phase");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(
                        java, "-Xmx64m", "-jar", JAR.toString(), "--port", "0", "--host", "127.0.0.1")
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            Matcher url = Pattern.compile("^LiftRide server listening on (http://127\\.0\\.0\\.1:(\\d+)/liftride)$")
                    .matcher(String.valueOf(line));
            assertTrue(url.matches(), "first line: " + line);

            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
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
            assertEquals("", rest, "nothing more may be printed, not even on shutdown");
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void withBarePrintsTheSameUrlLineAndAnswersTheBenchmarkPath() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(
                        java, "-Xmx64m", "-jar", JAR.toString(), "--port", "0", "--host", "127.0.0.1", "--bare")
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            Matcher url = Pattern.compile("^LiftRide server listening on (http://127\\.0\\.0\\.1:(\\d+)/liftride)$")
                    .matcher(String.valueOf(line));
            assertTrue(url.matches(), "first line, as without --bare: " + line);
            assertEquals(
                    "benchmark only: /liftride/bench/bare/* answers 201 without reading the request", out.readLine());

            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest post = HttpRequest.newBuilder(
                            URI.create(url.group(1) + "/bench/bare/skiers/1/seasons/2022/days/1/skiers/1"))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"liftID\":1,\"time\":1}"))
                    .build();
            assertEquals(
                    201,
                    client.send(post, HttpResponse.BodyHandlers.discarding()).statusCode());

            process.toHandle().destroy();
            assertTrue(process.waitFor(20, TimeUnit.SECONDS), "server did not stop");
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void printsUsageAndExits2OnABadArgument() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-jar", JAR.toString(), "--port", "x")
                .redirectErrorStream(true)
                .start();
        try {
            assertTrue(process.waitFor(20, TimeUnit.SECONDS));
            assertEquals(2, process.exitValue());
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(
                    output.startsWith(
                            "--port must be an integer in 0..65535, got \"x\"\nusage: java -jar liftride-server.jar"),
                    output);
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void warHoldsNeitherTomcatNorTheLauncherNorTheBareServlet() throws Exception {
        try (ZipFile war = new ZipFile(WAR.toFile())) {
            war.stream().forEach(entry -> {
                String name = entry.getName();
                assertTrue(
                        !name.startsWith("WEB-INF/lib/tomcat") && !name.startsWith("WEB-INF/lib/javax.servlet"), name);
                assertTrue(!name.contains("/embedded/"), name);
            });
            // named explicitly: the benchmark-only servlet and its registration must never be deployed
            assertNull(war.getEntry("WEB-INF/classes/io/upic/liftride/server/embedded/BareServlet.class"));
            assertNull(war.getEntry("WEB-INF/classes/io/upic/liftride/server/embedded/BareMapping.class"));
            assertTrue(war.getEntry("WEB-INF/web.xml") != null);
            assertNotNull(
                    war.getEntry("WEB-INF/classes/io/upic/liftride/server/web/SkierServlet.class"),
                    "the check above must be looking at the WAR's real class layout");
            assertTrue(
                    war.stream().anyMatch(e -> e.getName().matches("WEB-INF/lib/gson-[0-9.]+\\.jar")),
                    "the WAR carries its own Gson");
        }
    }
}
