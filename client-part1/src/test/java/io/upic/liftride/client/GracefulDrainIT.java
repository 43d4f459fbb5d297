package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonParser;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.cluster.ClusterOptions;
import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.LocalCluster;
import io.upic.liftride.cluster.NginxConf;
import io.upic.liftride.cluster.Poll;
import io.upic.liftride.cluster.Programs;
import io.upic.liftride.server.embedded.EmbeddedServer;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.testkit.RedisServer;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The graceful drain, proven under load: two servers on one Redis behind nginx, one of them stopped
 * in the middle of a client-part1 run, and the run must not notice: 0 failed, 0 retries, no 5XX, and
 * the store's count grew by the client's successes exactly. First the embedded launcher stopped with
 * SIGTERM (the local cluster), then the WAR on a standalone Tomcat stopped with {@code catalina.sh
 * stop}, beside an embedded server, behind the same nginx configuration.
 */
@Timeout(value = 170, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GracefulDrainIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void sigtermToOneOfTwoServersBehindNginxMidRunCostsTheClientNothing() throws Exception {
        String jar = System.getProperty("liftride.server.jar", "../servlet/target/liftride-server.jar");
        try (LocalCluster cluster = LocalCluster.start(
                ClusterOptions.DEFAULTS.withServers(2).withPort(0).withServerJar(Path.of(jar)))) {
            String survivor = cluster.serverUrls().get(0);
            Drained drained = runThrough(cluster.frontUrl(), survivor, 31, () -> cluster.terminateServer(1));
            String log = Files.readString(cluster.runDir().resolve("server2.log"));
            assertDrainPrinted(log);
            assertTrue(log.contains("LiftRide server stopped in"), log);
            System.out.println("SIGTERM to server 2 of 2: " + drained);
        }
    }

    @Test
    void catalinaStopOfAStandaloneTomcatBesideAnEmbeddedServerMidRunCostsTheClientNothing() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of(required("liftride.it.dir")), "drain-");
        try (RedisServer redis = RedisServer.start();
                EmbeddedServer embedded = EmbeddedServer.start("127.0.0.1", 0, StoreSpec.parse(redis.url()));
                StandaloneTomcat tomcat = StandaloneTomcat.start(runDir.resolve("tomcat"), redis.url());
                Nginx nginx = Nginx.start(runDir.resolve("nginx"), List.of(tomcat.port(), embedded.port()))) {
            Drained drained = runThrough(nginx.url(), embedded.baseUrl(), 32, tomcat::stopWithCatalinaSh);
            assertTrue(tomcat.awaitExit(Duration.ofSeconds(40)), "Tomcat exited after catalina.sh stop");
            assertDrainPrinted(tomcat.console());
            System.out.println("catalina.sh stop of the standalone Tomcat: " + drained);
        }
    }

    private static void assertDrainPrinted(String log) {
        for (String step : new String[] {
            "LiftRide drain: not ready", "stopped accepting connections", "requests in flight finished", "store closed"
        }) {
            assertTrue(log.contains(step), "the drain printed \"" + step + "\":\n" + log);
        }
    }

    /** What a drained run measured, for the test's output. */
    private record Drained(long successful, long storeDelta, long retries, String statuses, double stopAtSeconds) {}

    /** A server stop to run during the client's run; returns when the server is gone. */
    @FunctionalInterface
    private interface Stop {
        void run() throws Exception;
    }

    /**
     * 45,000 POSTs (32 threads, raw transport) through {@code front} at {@code resort}; {@code stop}
     * runs once 40% of them are sent (or 3 s in); the account must be exact and untouched.
     */
    private static Drained runThrough(String front, String survivor, int resort, Stop stop) throws Exception {
        long before = ridesStored(survivor);
        AttemptStatuses statuses = new AttemptStatuses(18_000);
        AtomicLong stopAt = new AtomicLong();
        Thread stopper = new Thread(
                () -> {
                    try {
                        if (statuses.await(3)) {
                            stopAt.set(System.nanoTime());
                            stop.run();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                "test-stop");
        stopper.start();
        ClientRun run = ClientRun.of(
                statuses,
                "-t",
                "32",
                "-s",
                "10000",
                "-m",
                "5",
                "--baseline",
                "0",
                "--resort",
                "" + resort,
                "--transport",
                "raw",
                "-i",
                front);
        long endedAt = System.nanoTime();
        stopper.join(60_000);
        RunResult r = run.result();
        assertTrue(
                stopAt.get() != 0 && stopAt.get() < endedAt, "the server was stopped during the run\n" + run.output());
        assertEquals(Map.of(201, statuses.count(201)), statuses.counts(), "nothing but 201s: " + statuses);
        assertEquals(45_000, r.requests().successful(), run.output());
        assertEquals(0, r.requests().failed(), run.output());
        assertEquals(0, r.requests().retries(), "a drained server costs the client no retry\n" + run.output());
        long delta = ridesStored(survivor) - before;
        assertEquals(
                r.requests().successful(), delta, "the store grew by the client's successes exactly\n" + run.output());
        assertEquals(0, run.exit(), run.output());
        return new Drained(
                r.requests().successful(),
                delta,
                r.requests().retries(),
                statuses.toString(),
                (stopAt.get() - statuses.first()) / 1e9);
    }

    private static long ridesStored(String server) throws Exception {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(server + "/statistics"))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JsonParser.parseString(response.body())
                .getAsJsonObject()
                .get("ridesStored")
                .getAsLong();
    }

    static String required(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            fail("system property " + property + " is not set (run through Maven: mvn verify)");
        }
        return v;
    }

    /** nginx with the local cluster's configuration ({@link NginxConf}) in front of the given ports. */
    private record Nginx(Process process, int port) implements AutoCloseable {
        static Nginx start(Path dir, List<Integer> serverPorts) throws Exception {
            int port = FreePorts.next();
            Files.createDirectories(dir);
            Path conf = dir.resolve("nginx.conf");
            Files.writeString(conf, new NginxConf(port, serverPorts, dir).render());
            Process process = new ProcessBuilder(
                            Programs.require("nginx", "nginx"),
                            "-p",
                            dir.toString(),
                            "-e",
                            dir.resolve("error.log").toString(),
                            "-c",
                            conf.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("console.log").toFile())
                    .start();
            Nginx nginx = new Nginx(process, port);
            for (int i = 0; i < serverPorts.size(); i++) {
                awaitStatus(nginx.url() + "/health/ready", process, dir.resolve("error.log"));
            }
            return nginx;
        }

        String url() {
            return "http://127.0.0.1:" + port + "/liftride";
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Waits until {@code url} answers 200 (90 s at most), failing with the end of {@code log} if the process died. */
    static void awaitStatus(String url, Process process, Path log) {
        HttpRequest probe = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(2))
                .build();
        try {
            Poll.until(url + " answering 200", Duration.ofSeconds(90), () -> {
                if (!process.isAlive()) {
                    fail(url + ": its process exited:\n" + tail(log));
                }
                try {
                    return HTTP.send(probe, HttpResponse.BodyHandlers.discarding())
                                    .statusCode()
                            == 200;
                } catch (IOException notYet) { // not listening yet
                    return false;
                }
            });
        } catch (IllegalStateException e) {
            fail(e.getMessage() + ":\n" + tail(log));
        }
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /**
     * The WAR on a standalone Tomcat 9 (the distribution the build unpacks) with servlet/tomcat/server.xml,
     * the Redis store, and a shutdown port so that {@code catalina.sh stop} can stop it.
     */
    private record StandaloneTomcat(Process process, Path base, int port, int shutdownPort) implements AutoCloseable {
        static StandaloneTomcat start(Path base, String store) throws Exception {
            Path home = Path.of(required("liftride.tomcat.home"));
            for (String dir : List.of("conf", "lib", "logs", "temp", "webapps", "work")) {
                Files.createDirectories(base.resolve(dir));
            }
            for (String file : List.of("web.xml", "catalina.properties", "context.xml", "logging.properties")) {
                Files.copy(
                        home.resolve("conf").resolve(file), base.resolve("conf").resolve(file));
            }
            Files.copy(Path.of(required("liftride.server.xml")), base.resolve("conf/server.xml"));
            Files.copy(Path.of(required("liftride.war")), base.resolve("webapps/liftride.war"));
            Files.copy(Path.of(required("liftride.valve.jar")), base.resolve("lib/liftride-tomcat-valve.jar"));
            int port = FreePorts.next();
            int shutdownPort = FreePorts.next();
            Process process = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Xmx256m",
                            "-cp",
                            home.resolve("bin/bootstrap.jar")
                                    + File.pathSeparator
                                    + home.resolve("bin/tomcat-juli.jar"),
                            "-Dcatalina.home=" + home,
                            "-Dcatalina.base=" + base,
                            "-Djava.io.tmpdir=" + base.resolve("temp"),
                            "-Dliftride.http.address=127.0.0.1",
                            "-Dliftride.http.port=" + port,
                            "-Dliftride.management.port=" + FreePorts.next(),
                            "-Dliftride.shutdown.port=" + shutdownPort,
                            "-Dliftride.store=" + store,
                            "org.apache.catalina.startup.Bootstrap",
                            "start")
                    .redirectErrorStream(true)
                    .redirectOutput(base.resolve("logs/console.log").toFile())
                    .start();
            StandaloneTomcat tomcat = new StandaloneTomcat(process, base, port, shutdownPort);
            awaitStatus(
                    "http://127.0.0.1:" + port + "/liftride/health/ready", process, base.resolve("logs/console.log"));
            return tomcat;
        }

        /** {@code catalina.sh stop}: Tomcat's own stop, through its shutdown port, as an operator runs it. */
        void stopWithCatalinaSh() {
            Path home = Path.of(required("liftride.tomcat.home"));
            List<String> stop = List.of(
                    "env",
                    "CATALINA_HOME=" + home,
                    "CATALINA_BASE=" + base,
                    "JAVA_HOME=" + System.getProperty("java.home"),
                    "JAVA_OPTS=-Dliftride.shutdown.port=" + shutdownPort,
                    "sh",
                    home.resolve("bin/catalina.sh").toString(),
                    "stop");
            Programs.Result result = Programs.exec(Duration.ofSeconds(30), stop);
            assertEquals(0, result.exitCode(), "catalina.sh stop: " + result.output());
            awaitExit(Duration.ofSeconds(40));
        }

        boolean awaitExit(Duration limit) {
            try {
                return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        String console() throws IOException {
            return Files.readString(base.resolve("logs/console.log"));
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
