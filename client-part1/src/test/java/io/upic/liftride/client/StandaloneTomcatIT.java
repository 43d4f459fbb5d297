package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.Poll;
import io.upic.liftride.server.embedded.EmbeddedServer;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Deploys the built WAR into a real, standalone Tomcat 9 (the full distribution, unpacked from Maven
 * Central by the build) configured by {@code servlet/tomcat/server.xml} — the file users copy — on
 * free loopback ports, and runs a small client-part1 plan, the validation answers and the operations
 * endpoints (on the management connector only) against it.
 * Tomcat runs in its own JVM and is destroyed in {@link #stopTomcat()} whatever the tests did.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS) // instance @BeforeAll/@AfterAll: a subclass overrides them
class StandaloneTomcatIT {

    private static final Duration STARTUP_LIMIT = Duration.ofSeconds(90);

    private static Process tomcat;
    private static Path catalinaBase;
    static String tomcatUrl;
    static String managementUrl;
    private static EmbeddedServer embedded;
    private static final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    @BeforeAll
    void startTomcat() throws Exception {
        startTomcat(List.of());
    }

    /** Starts Tomcat with {@code extraJavaOptions} (what a user puts in CATALINA_OPTS) and the embedded server. */
    static void startTomcat(List<String> extraJavaOptions) throws Exception {
        Path home = Path.of(required("liftride.tomcat.home"));
        catalinaBase = Files.createTempDirectory(Path.of(required("liftride.it.dir")), "catalina-base-");
        for (String dir : List.of("conf", "lib", "logs", "temp", "webapps", "work")) {
            Files.createDirectories(catalinaBase.resolve(dir));
        }
        for (String file : List.of("web.xml", "catalina.properties", "context.xml", "logging.properties")) {
            Files.copy(
                    home.resolve("conf").resolve(file),
                    catalinaBase.resolve("conf").resolve(file));
        }
        Files.copy(Path.of(required("liftride.server.xml")), catalinaBase.resolve("conf/server.xml"));
        Files.copy(Path.of(required("liftride.war")), catalinaBase.resolve("webapps/liftride.war"));
        Files.copy(Path.of(required("liftride.valve.jar")), catalinaBase.resolve("lib/liftride-tomcat-valve.jar"));

        int port = FreePorts.next();
        int managementPort = FreePorts.next();
        String javaBinary = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(
                javaBinary,
                "-Xmx256m",
                "-cp",
                home.resolve("bin/bootstrap.jar") + File.pathSeparator + home.resolve("bin/tomcat-juli.jar"),
                "-Dcatalina.home=" + home,
                "-Dcatalina.base=" + catalinaBase,
                "-Djava.io.tmpdir=" + catalinaBase.resolve("temp"),
                "-Djava.util.logging.manager=org.apache.juli.ClassLoaderLogManager",
                "-Djava.util.logging.config.file=" + catalinaBase.resolve("conf/logging.properties"),
                // server.xml reads these with ${name:-default}; -1 disables the shutdown port: we stop the process
                "-Dliftride.http.address=127.0.0.1",
                "-Dliftride.http.port=" + port,
                "-Dliftride.management.port=" + managementPort,
                "-Dliftride.shutdown.port=-1"));
        command.addAll(extraJavaOptions);
        command.addAll(List.of("org.apache.catalina.startup.Bootstrap", "start"));
        tomcat = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(catalinaBase.resolve("logs/console.log").toFile())
                .start();
        tomcatUrl = "http://127.0.0.1:" + port + "/liftride";
        managementUrl = "http://127.0.0.1:" + managementPort + "/liftride";
        awaitDeployed();
        embedded = EmbeddedServer.start("127.0.0.1", 0);
    }

    @AfterAll
    void stopTomcat() throws Exception {
        try {
            if (embedded != null) {
                embedded.close();
            }
        } finally {
            if (tomcat != null) {
                tomcat.destroy();
                if (!tomcat.waitFor(20, TimeUnit.SECONDS)) {
                    tomcat.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    @Test
    void smallPlanOnStandaloneTomcatHasNoFailuresAndReconcilesThroughTheSdk() {
        assertRunReconciles("sdk");
    }

    @Test
    void smallPlanOnStandaloneTomcatHasNoFailuresAndReconcilesThroughTheRawTransport() {
        assertRunReconciles("raw");
    }

    private static void assertRunReconciles(String transport) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(new String[] {
                    "-t",
                    "16",
                    "-s",
                    "1000",
                    "-l",
                    "40",
                    "-m",
                    "4",
                    "-i",
                    tomcatUrl,
                    "--baseline",
                    "200",
                    "--transport",
                    transport,
                    "--verbose"
                });
        String report = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, () -> "exit code; stdout:\n" + report + "\nstderr:\n" + err);
        assertTrue(report.contains("transport " + transport), report);
        assertTrue(report.contains("requests   3,600 successful, 0 failed, 0 retries"), report);
        assertTrue(
                report.contains(
                        "3,600 planned == 3,600 successful + 0 failed + 0 not sent: OK; server stored 3,600: OK"),
                report);
    }

    @Test
    void theManagementConnectorServesOperationsAndTheApiConnectorNeverDoes() throws Exception {
        HttpResponse<String> metrics = send(managementUrl, new String[] {"GET", "/metrics", null, null});
        assertEquals(200, metrics.statusCode(), metrics.body());
        String apiPort = "port=\"" + URI.create(tomcatUrl).getPort() + "\"";
        assertTrue(metrics.body().contains("tomcat_connections_current{" + apiPort + "}"), metrics.body());
        assertEquals(
                1,
                metrics.body()
                        .lines()
                        .filter(l -> l.startsWith("tomcat_connections_current{"))
                        .count());
        assertTrue(send(managementUrl, new String[] {"GET", "/statistics", null, null})
                .body()
                .contains("\"store\""));
        for (String[] header : List.of(
                new String[] {"X-Test", "none"},
                new String[] {"X-Forwarded-For", "127.0.0.1"},
                new String[] {"X-Forwarded-For", "10.0.1.7"},
                new String[] {"Forwarded", "for=127.0.0.1"},
                new String[] {"X-Real-IP", "127.0.0.1"})) {
            for (String path : List.of("/metrics", "/admin/limits")) {
                HttpResponse<String> refused = http.send(
                        HttpRequest.newBuilder(URI.create(tomcatUrl + path))
                                .header(header[0], header[1])
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(404, refused.statusCode(), path + " " + header[0]);
                assertTrue(refused.body().startsWith("{\"message\":\"no route for GET"), refused.body());
            }
        }
        assertFalse(send(tomcatUrl, new String[] {"GET", "/statistics", null, null})
                .body()
                .contains("\"store\""));
    }

    @Test
    void standaloneTomcatAnswersBadInputExactlyLikeTheEmbeddedServer() throws Exception {
        String ride = "/skiers/1/seasons/2022/days/1/skiers/7";
        String json = "application/json";
        List<String[]> cases = List.of(
                // method, path, content type (null = none), body (null = none)
                new String[] {"POST", ride, json, "{\"liftID\": 61, \"time\": 10}"},
                new String[] {"POST", ride, json, "{\"liftID\": \"12\", \"time\": 10}"},
                new String[] {"POST", ride, json, "{\"time\": 10}"},
                new String[] {"POST", ride, json, "[1, 2]"},
                new String[] {"POST", ride, json, "{liftID: 1, time: 2}"},
                new String[] {"POST", ride, json, ""},
                new String[] {"POST", ride, "text/plain", "{\"liftID\": 1, \"time\": 2}"},
                new String[] {"POST", "/skiers/abc/seasons/2022/days/1/skiers/7", json, "{\"liftID\": 1, \"time\": 2}"},
                new String[] {"POST", "/skiers/1/seasons/22/days/1/skiers/7", json, "{\"liftID\": 1, \"time\": 2}"},
                new String[] {"POST", "/skiers/1/seasons/2022/days/367/skiers/7", json, "{\"liftID\": 1, \"time\": 2}"},
                new String[] {
                    "POST", "/skiers/1/seasons/2022/days/1/skiers/100001", json, "{\"liftID\": 1, \"time\": 2}"
                },
                new String[] {"POST", "/skiers/1/seasons/2022/days/1", json, "{\"liftID\": 1, \"time\": 2}"},
                new String[] {"GET", "/nothing/here", null, null},
                // conf/web.xml maps these to Jasper; the WAR's own mappings must win
                new String[] {"GET", "/index.jsp", null, null},
                new String[] {"GET", "/skiers/x.jspx", null, null},
                new String[] {"PUT", ride, json, "{\"liftID\": 1, \"time\": 2}"},
                new String[] {"DELETE", "/statistics", null, null},
                new String[] {"GET", "/skiers/5/seasons/2022/days/1/skiers/99999", null, null},
                new String[] {"GET", "/resorts/424242/seasons", null, null},
                new String[] {"GET", "/skiers/5/vertical", null, null},
                new String[] {"POST", "/resorts/1/seasons", json, "{\"year\": 2023}"});
        List<String> differences = new ArrayList<>();
        for (String[] c : cases) {
            HttpResponse<String> onTomcat = send(tomcatUrl, c);
            HttpResponse<String> onEmbedded = send(embedded.baseUrl(), c);
            String what = c[0] + " " + c[1] + (c[3] == null ? "" : " " + c[3]);
            int status = onTomcat.statusCode();
            if (status < 400 || status > 499) {
                differences.add(what + ": Tomcat answered " + status + ", expected a 4XX");
            }
            if (status != onEmbedded.statusCode()) {
                differences.add(what + ": Tomcat " + status + ", embedded " + onEmbedded.statusCode());
            }
            String type = onTomcat.headers().firstValue("Content-Type").orElse("");
            if (!type.startsWith("application/json")) {
                differences.add(what + ": Tomcat Content-Type " + type);
            }
            if (!onTomcat.body().startsWith("{\"message\":")) {
                differences.add(what + ": Tomcat body " + onTomcat.body());
            }
            if (!onTomcat.body().equals(onEmbedded.body())) {
                differences.add(what + ": Tomcat body " + onTomcat.body() + " vs embedded " + onEmbedded.body());
            }
            if (onTomcat.headers().firstValue("Allow").isPresent()
                    != onEmbedded.headers().firstValue("Allow").isPresent()) {
                differences.add(what + ": Allow header differs");
            }
        }
        assertTrue(differences.isEmpty(), () -> String.join("\n", differences));
    }

    private static HttpResponse<String> send(String base, String[] c) throws IOException, InterruptedException {
        HttpRequest.BodyPublisher body = c[3] == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(c[3], StandardCharsets.UTF_8);
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + c[1]))
                .timeout(Duration.ofSeconds(10))
                .method(c[0], body);
        if (c[2] != null) {
            b.header("Content-Type", c[2]);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static void awaitDeployed() {
        HttpRequest probe = HttpRequest.newBuilder(URI.create(tomcatUrl + "/statistics"))
                .timeout(Duration.ofSeconds(2))
                .build();
        try {
            Poll.until("Tomcat deploying liftride.war", STARTUP_LIMIT, () -> {
                if (!tomcat.isAlive()) {
                    fail("Tomcat exited with " + tomcat.exitValue() + ":\n" + consoleTail());
                }
                try {
                    return http.send(probe, HttpResponse.BodyHandlers.discarding())
                                    .statusCode()
                            == 200;
                } catch (IOException notYet) { // not listening or not deployed yet
                    return false;
                }
            });
        } catch (IllegalStateException e) {
            fail(e.getMessage() + ":\n" + consoleTail());
        }
    }

    private static String consoleTail() {
        try {
            List<String> lines = Files.readAllLines(catalinaBase.resolve("logs/console.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no console log: " + e + ")";
        }
    }

    private static String required(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            fail("system property " + property + " is not set (run through Maven: mvn verify)");
        }
        return v;
    }
}
