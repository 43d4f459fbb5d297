package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.NginxConf;
import io.upic.liftride.cluster.Programs;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the docs describe for a public address, nginx (the local cluster's configuration) in front of the
 * server, keeps serving a normal client while an attacker holds 1,100 header tricklers, 1,100 idle
 * kept-alive connections or 600 slow readers: at least 95% of the client's requests, each on a new
 * connection, are answered within 1 s. The attacker comes from 127.0.0.2, the client from 127.0.0.1.
 */
@Timeout(180)
class SlowClientsIT {
    private static final int PROBES = 40;
    /** The probes span more than nginx's 10-s client timeouts: the attacker's reconnections fall inside. */
    private static final long PROBE_GAP_MILLIS = 400;

    private static final long ANSWERED_WITHIN_MILLIS = 1_000;

    private static EmbeddedServer server;
    private static Process nginx;
    private static int nginxPort;
    private static Path nginxDir;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedServer.start("127.0.0.1", 0);
        nginxPort = FreePorts.next();
        nginxDir = Files.createTempDirectory("liftride-slow-clients-nginx-");
        NginxConf conf = new NginxConf(nginxPort, List.of(server.port()), nginxDir);
        Files.writeString(nginxDir.resolve("nginx.conf"), conf.render());
        nginx = new ProcessBuilder(
                        Programs.require("nginx", "nginx"),
                        "-p",
                        nginxDir.toString(),
                        "-e",
                        nginxDir.resolve("error.log").toString(),
                        "-c",
                        nginxDir.resolve("nginx.conf").toString())
                .redirectErrorStream(true)
                .redirectOutput(nginxDir.resolve("console.log").toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (probeMillis(nginxPort) < 0) {
            assertTrue(nginx.isAlive() && System.nanoTime() < deadline, "nginx did not start");
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (nginx != null) {
            nginx.destroy();
            if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                nginx.destroyForcibly();
            }
        }
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest(name = "{1} {0} through nginx")
    @CsvSource({"TRICKLING_HEADERS, 1100", "IDLE_KEPT_ALIVE, 1100", "SLOW_READERS, 600"})
    void aNormalClientIsAnsweredWithinASecondThroughNginx(SlowClients.Kind kind, int count) throws Exception {
        assertHolds(kind, count, nginxPort);
    }

    static void assertHolds(SlowClients.Kind kind, int count, int port) throws Exception {
        try (SlowClients attack = SlowClients.start(kind, new InetSocketAddress("127.0.0.1", port), count)) {
            long settledMillis = awaitSettled();
            long[] millis = new long[PROBES];
            for (int i = 0; i < PROBES; i++) {
                millis[i] = probeMillis(port);
                Thread.sleep(PROBE_GAP_MILLIS);
            }
            long within = Arrays.stream(millis)
                    .filter(m -> m >= 0 && m <= ANSWERED_WITHIN_MILLIS)
                    .count();
            String report = String.format(
                    "%d %s on port %d (settled in %d ms, %d opened): %d of %d requests answered within %d ms; ms: %s",
                    count,
                    kind,
                    port,
                    settledMillis,
                    attack.opened(),
                    within,
                    PROBES,
                    ANSWERED_WITHIN_MILLIS,
                    Arrays.toString(millis));
            System.out.println(report);
            assertTrue(within >= Math.ceil(PROBES * 0.95), report);
        }
    }

    /**
     * Waits until the server has answered no GET /resorts for a second (every attacking socket is held, a
     * slow reader's buffers are full) and returns the milliseconds that took; fails after a minute, since
     * an attack that never settles is a flood.
     */
    private static long awaitSettled() throws Exception {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(60);
        long answered = answeredGets();
        while (true) {
            Thread.sleep(1_000); // the quiet second itself
            long now = answeredGets();
            if (now == answered) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            }
            assertTrue(System.nanoTime() < deadline, "the attack did not settle in 60 s: " + now + " GETs answered");
            answered = now;
        }
    }

    /** GET /resorts the server has answered, from its own metrics (its management port). */
    private static long answeredGets() throws IOException {
        String metrics;
        try (InputStream in =
                URI.create(server.managementUrl() + "/metrics").toURL().openStream()) {
            metrics = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return metrics.lines()
                .filter(l -> l.startsWith("liftride_http_requests_seconds_count{") && l.contains("route=\"/resorts\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** One GET /liftride/resorts on a new connection: its milliseconds to a whole 200, or -1. */
    static long probeMillis(int port) {
        long start = System.nanoTime();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 3_000);
            socket.setSoTimeout(3_000);
            socket.getOutputStream()
                    .write("GET /liftride/resorts HTTP/1.1\r\nHost: client\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            if (!answer.startsWith("HTTP/1.1 200") || !answer.endsWith("}")) {
                return -1;
            }
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        } catch (IOException timedOutOrRefused) {
            return -1;
        }
    }
}
